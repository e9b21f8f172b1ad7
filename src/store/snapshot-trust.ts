import type { Stats } from "node:fs";
import { fileRefusal, inspectDir, privateDir } from "../util/private-place.cjs";

/**
 * Which snapshots may be offered for a restore: only this user's own copies of this store. The
 * snapshot directory must be a private directory of the user's (a loosened one is closed again),
 * each copy and its manifest a regular file of the user's that no one else may write (never a
 * link), and the manifest's store id this store's (`mem.identity.json`): a copy another account
 * planted, or one of another store, is listed as refused with the reason and never restored,
 * never offered as `latest`, never named in doctor's fix.
 */

export interface RefusedSnapshot {
  /** The snapshot's id, or the directory's path when the whole directory is refused. */
  id: string;
  why: string;
}

/** The snapshot directory made safe to read: absent or ours (closed to 700 if it was open); why not, when it is a link or another user's. */
export function snapshotDirRefusal(dir: string): string | undefined {
  const found = inspectDir(dir);
  if (found.state === "absent") return undefined;
  if (found.state === "refused") return `${found.why}: no snapshot in it is offered`;
  if (found.loose) {
    const v = privateDir(dir);
    if (!v.ok) return v.why;
  }
  return undefined;
}

/**
 * Why one snapshot is refused, from what `lstat` found for its copy and its manifest, the store id
 * the manifest records (null: taken before the store had one), and this store's id (undefined when
 * no identity is recorded); without both ids only the owner is checked. Undefined when it may be
 * offered. Pure.
 */
export function snapshotRefusal(o: { file: string; copy: Stats; manifest: Stats; manifestPath: string; storeId: string | null; ours: string | undefined; uid: number | undefined }): string | undefined {
  if (o.uid !== undefined) {
    const why = fileRefusal(o.file, o.copy, o.uid) ?? fileRefusal(o.manifestPath, o.manifest, o.uid);
    if (why) return why;
  }
  // No id on one side: a store from before ids (a migration's snapshot of it), or no identity recorded: the owner is what can be checked.
  if (o.ours === undefined || o.storeId === null) return undefined;
  if (o.storeId !== o.ours) return `it is a copy of another store (id ${o.storeId.slice(0, 8)}…; this store is ${o.ours.slice(0, 8)}…)`;
  return undefined;
}
