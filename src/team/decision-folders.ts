import { realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { within } from "../util/walls.cjs";

/**
 * A repository's decision records are read without a `mem index` of their own: a project whose
 * root holds one of the decision folders (`index.decisionFolders`: docs/adr, docs/decisions, …)
 * that no indexed root of the project covers gets it indexed in the background by the next
 * SessionStart, so a fresh clone is briefed with its team's decisions from its first session.
 * Only a real directory inside the project's root counts: a folder linked out of the repository
 * is left alone (its walls, as `mem index` keeps them). Both must be this user's (or root's) and
 * writable by no one else: a shared folder such as /tmp is never a source of the user's decisions.
 */
export interface FolderState {
  /** The folder's real path; undefined when it is missing or no directory. */
  real: string | undefined;
  /** Owned by this user (or root) and writable by nobody else: no other account put its files there. */
  trusted: boolean;
}

/**
 * The folders to index: present, real directories of this user's inside a root of this user's,
 * not covered by a recorded root. Pure.
 */
export function foldersToIndex(root: { real: string; trusted: boolean }, folders: readonly { path: string; state: FolderState }[], recorded: readonly string[]): string[] {
  const out: string[] = [];
  if (!root.trusted) return out; // a shared folder (/tmp) as the project: another account's records would be briefed as ours
  const realRoot = root.real;
  for (const f of folders) {
    const real = f.state.real;
    if (real === undefined || !f.state.trusted || real === realRoot || !within(real, realRoot)) continue;
    if (recorded.some((r) => within(real, r))) continue;
    if (!out.includes(real)) out.push(real);
  }
  return out;
}

/** Owned by this user or root, and writable by no one else. */
export function trustedDir(st: { uid: number; mode: number }): boolean {
  const uid = process.getuid?.();
  return uid === undefined || ((st.uid === uid || st.uid === 0) && (st.mode & 0o022) === 0);
}

/** A folder's real path and whether it is trusted (src/team/place.ts checks the team folder with it too). */
export function folderState(path: string): FolderState {
  try {
    const real = realpathSync(path);
    const st = statSync(real);
    return st.isDirectory() ? { real, trusted: trustedDir(st) } : { real: undefined, trusted: false };
  } catch {
    return { real: undefined, trusted: false };
  }
}

/** The decision folders of the project at `root` that no recorded root (real paths) covers yet. */
export function unindexedDecisionFolders(root: string, folders: readonly string[], recorded: readonly string[]): string[] {
  const r = folderState(root);
  if (r.real === undefined) return [];
  const realRoot = r.real;
  const candidates = folders.filter((f) => f.trim() !== "" && !f.split("/").includes("..")).map((f) => join(realRoot, f));
  return foldersToIndex({ real: realRoot, trusted: r.trusted }, candidates.map((path) => ({ path, state: folderState(path) })), recorded);
}
