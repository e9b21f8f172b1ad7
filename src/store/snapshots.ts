import { chmodSync, closeSync, existsSync, lstatSync, openSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { ensurePrivateDir } from "../util/private-dir.cjs";
import { readRegular } from "../util/read-regular.cjs";
import { writePrivate } from "../util/private-file.cjs";
import type Database from "better-sqlite3";
import { readIdentity, stampOf, storeCounts, type StoreCounts } from "./identity.js";
import { snapshotDirRefusal, snapshotRefusal, type RefusedSnapshot } from "./snapshot-trust.js";

type Db = Database.Database; // not from ./db.js, which opens the store through this module

/**
 * Consistent copies of the SQLite store in `<data home>/snapshots/` (private): `VACUUM INTO` reads
 * the store in one read transaction, so a copy is whole even while hooks write (WAL), and it comes
 * out compacted. Each copy has a manifest beside it, written last: a copy without one is not
 * finished and is never offered. Taken by the weekly job, before every migration and before every
 * repair; the newest few are kept. The vectors (LanceDB) are not copied: they are derived from
 * SQLite and the markdown, and the next index run embeds again what a restored store lacks.
 */

export interface Snapshot {
  /** `<UTC time>-<reason>`, e.g. `20261127T151358123Z-reindex`: sorts by age. */
  id: string;
  file: string;
  takenAt: string;
  reason: string;
  bytes: number;
  storeId: string | null;
  generation: number;
  schemaVersion: number;
  counts: StoreCounts;
  durationMs: number;
}

export const DEFAULT_KEEP_SNAPSHOTS = 5;

export const snapshotDir = (sqlite: string) => join(dirname(sqlite), "snapshots");

const ID = /^\d{8}T\d{9}Z-[a-z]{1,20}(-\d+)?$/;
const idOf = (now: number, reason: string) => `${new Date(now).toISOString().replace(/[-:.]/g, "")}-${reason}`;

/** Copies the open store into a new snapshot; returns its manifest. Throws what SQLite throws (a damaged store is not copied). */
export function takeSnapshot(db: Db, sqlite: string, reason: string, now = Date.now()): Snapshot {
  const dir = snapshotDir(sqlite);
  ensurePrivateDir(dir);
  let id = idOf(now, reason.replace(/[^a-z]/g, "").slice(0, 20) || "manual");
  for (let n = 2; listIds(dir).has(id) || existsSync(join(dir, `${id}.sqlite`)); n++) id = `${idOf(now, reason.replace(/[^a-z]/g, "").slice(0, 20) || "manual")}-${n}`;
  const file = join(dir, `${id}.sqlite`);
  const tmp = `${file}.partial`;
  const t0 = performance.now();
  rmSync(tmp, { force: true });
  closeSync(openSync(tmp, "wx", 0o600)); // VACUUM INTO writes into an empty file: this one is private from the start
  try {
    db.prepare("VACUUM INTO ?").run(tmp);
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  const s = stampOf(db);
  const snap: Snapshot = {
    id, file, takenAt: new Date(now).toISOString(), reason, bytes: statSync(file).size,
    storeId: s.storeId ?? null, generation: s.generation, schemaVersion: db.pragma("user_version", { simple: true }) as number,
    counts: storeCounts(db), durationMs: Math.round(performance.now() - t0),
  };
  const { file: _f, ...manifest } = snap;
  writePrivate(join(dir, `${id}.json`), `${JSON.stringify(manifest, null, 2)}\n`, "replace");
  return snap;
}

function listIds(dir: string): Set<string> {
  try {
    return new Set(readdirSync(dir).filter((n) => n.endsWith(".json")).map((n) => n.slice(0, -5)).filter((n) => ID.test(n)));
  } catch {
    return new Set();
  }
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);

/**
 * The finished snapshots, newest first. A manifest that is not mem's, or whose copy is gone, is
 * skipped; one that is not the user's own copy of this store (./snapshot-trust.ts) is pushed on
 * `refused` with why, never listed.
 */
export function listSnapshots(sqlite: string, refused: RefusedSnapshot[] = []): Snapshot[] {
  const dir = snapshotDir(sqlite);
  const out: Snapshot[] = [];
  const dirWhy = snapshotDirRefusal(dir);
  if (dirWhy) {
    refused.push({ id: dir, why: dirWhy });
    return out;
  }
  const ours = readIdentity(sqlite)?.storeId;
  for (const id of listIds(dir)) {
    const file = join(dir, `${id}.sqlite`);
    let bytes: number;
    let copy: ReturnType<typeof lstatSync>;
    let manifest: ReturnType<typeof lstatSync>;
    try {
      copy = lstatSync(file); // a link is no snapshot of ours, wherever it points (a damaged copy is listed: restore refuses it, saying so)
      manifest = lstatSync(join(dir, `${id}.json`));
      if (!copy.isFile() && !copy.isSymbolicLink()) continue;
      bytes = copy.size;
    } catch {
      continue;
    }
    const r = readRegular(join(dir, `${id}.json`), 64 * 1024);
    if (!r.ok && !manifest.isSymbolicLink()) continue;
    try {
      const m = (r.ok ? JSON.parse(r.data.toString("utf8")) : {}) as Partial<Snapshot>;
      const why = snapshotRefusal({ file, copy, manifest, manifestPath: join(dir, `${id}.json`), storeId: typeof m.storeId === "string" ? m.storeId : null, ours, uid: process.getuid?.() });
      if (why) {
        refused.push({ id, why });
        continue;
      }
      const c = (m.counts ?? {}) as Partial<StoreCounts>;
      out.push({
        id, file, bytes,
        takenAt: typeof m.takenAt === "string" && !Number.isNaN(Date.parse(m.takenAt)) ? m.takenAt : new Date(0).toISOString(),
        reason: typeof m.reason === "string" ? m.reason.slice(0, 20) : "?",
        storeId: typeof m.storeId === "string" ? m.storeId.slice(0, 64) : null,
        generation: num(m.generation), schemaVersion: num(m.schemaVersion), durationMs: num(m.durationMs),
        counts: { events: num(c.events), sessions: num(c.sessions), memories: num(c.memories), tasks: num(c.tasks), chunks: num(c.chunks) },
      });
    } catch {
      // not a manifest mem wrote: not offered
    }
  }
  return out.sort((a, b) => (a.id < b.id ? 1 : -1));
}

/** Removes all but the `keep` newest snapshots; returns the ids removed. Unfinished copies (`.partial`) of dead runs go too. */
export function pruneSnapshots(sqlite: string, keep: number): string[] {
  const dir = snapshotDir(sqlite);
  const gone = listSnapshots(sqlite).slice(Math.max(1, keep));
  for (const s of gone) {
    rmSync(join(dir, `${s.id}.json`), { force: true }); // the manifest first: a half-removed snapshot is never offered
    rmSync(s.file, { force: true });
  }
  try {
    for (const n of readdirSync(dir)) if (n.endsWith(".partial") && Date.now() - statSync(join(dir, n)).mtimeMs > 3_600_000) rmSync(join(dir, n), { force: true });
  } catch {
    // no directory yet
  }
  return gone.map((s) => s.id);
}

/** The snapshot `ref` names: `latest`, or an id (its unique prefix will do). */
export function findSnapshot(sqlite: string, ref: string): Snapshot | undefined {
  const all = listSnapshots(sqlite);
  if (ref === "latest") return all[0];
  const exact = all.find((s) => s.id === ref);
  if (exact) return exact;
  const prefixed = all.filter((s) => s.id.startsWith(ref));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** How old the newest snapshot may be before the daemon or `mem index` takes one (for stores the weekly job never runs on). */
export const SNAPSHOT_MAX_AGE_MS = 7 * 24 * 3_600_000;

/**
 * A snapshot when the store holds something and its newest snapshot is missing or older than
 * `SNAPSHOT_MAX_AGE_MS` (a store whose weekly job is not scheduled still gets one a week, and a
 * new one its first); older ones pruned to `keep`. Undefined when none was due.
 */
export function snapshotIfDue(db: Db, sqlite: string, keep: number, now = Date.now()): { id: string } | { error: string } | undefined {
  const newest = listSnapshots(sqlite)[0];
  if (newest && now - Date.parse(newest.takenAt) < SNAPSHOT_MAX_AGE_MS) return undefined;
  const c = storeCounts(db);
  if (c.events + c.chunks === 0) return undefined;
  return snapshotBefore(db, sqlite, "auto", keep, now);
}

/** A snapshot before a change (a repair), older ones pruned to `keep`; why it could not be taken instead of throwing. */
export function snapshotBefore(db: Db, sqlite: string, reason: string, keep: number, now = Date.now()): { id: string } | { error: string } {
  try {
    const s = takeSnapshot(db, sqlite, reason, now);
    pruneSnapshots(sqlite, keep);
    return { id: s.id };
  } catch (err) {
    return { error: (err as Error).message };
  }
}
