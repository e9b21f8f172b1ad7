import { closeSync, existsSync, lstatSync, openSync, readFileSync, readSync } from "node:fs";
import Database from "better-sqlite3";
import type { Db } from "./db.js";
import { stampOf, storeCounts } from "./identity.js";
import { compactText, forgetProjectRecords, forgetSessionRecord, liveIds, purgeTombstones, tombstone } from "./memories.js";
import { forgetPromptRuns, withholdMatching } from "./prompt-log.js";
import { withholdInSessions } from "./sessions.js";
import { writePrivate } from "../util/private-file.cjs";

/**
 * One copy of the SQLite store (a snapshot, a store moved aside by `mem restore`, a repair's backup)
 * purged the way the store was: the memories the store has forgotten tombstoned and purged in the
 * copy too, the projects and sessions forgotten now forgotten there, the text index merged and the
 * file vacuumed, in place. Its old pages are overwritten (secure_delete), the rollback journal and
 * VACUUM's temporary database are kept in memory, so no page holding forgotten text is written to
 * another file. A copy that cannot be purged so is for the caller to drop: the reason says why.
 */
export interface ForgetScope {
  /** Memories (event ids) the store holds as forgotten. */
  events: readonly string[];
  /** Projects forgotten whole. */
  projects: readonly string[];
  sessions: readonly { project: string; session: string }[];
  /** True for a text that holds a forgotten one (the prompt log's prompts and answers are checked with it). */
  holds?: (text: string) => boolean;
}

export type CopyScrub = { ok: true; changed: boolean } | { ok: false; why: string };

const SQLITE_HEADER = Buffer.from("SQLite format 3\0");

/** True when `file` starts like a SQLite database. */
export function looksLikeSqlite(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const head = Buffer.alloc(16);
    return readSync(fd, head, 0, 16, 0) === 16 && head.equals(SQLITE_HEADER);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Why a copy cannot be opened as ours, if it cannot: a link, a special file, another owner's. */
export function notOurs(file: string): string | undefined {
  const st = lstatSync(file);
  if (st.isSymbolicLink()) return "a symbolic link, not a copy mem made";
  if (!st.isFile()) return "not a regular file";
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) return `owned by uid ${st.uid}, not by you`;
  return undefined;
}

/** Purges `file` in place with `scope`; `storeId` is this store's (a copy of another store is not scrubbed). */
export function scrubCopy(file: string, scope: ForgetScope, storeId: string | undefined, now: number): CopyScrub {
  const refused = notOurs(file);
  if (refused) return { ok: false, why: refused };
  let db: Db | undefined;
  try {
    db = new Database(file, { fileMustExist: true, timeout: 1_000 });
    const theirs = stampOf(db).storeId; // read before anything is written to it
    if (storeId && theirs && theirs !== storeId) return { ok: false, why: `a copy of another store (store id ${theirs.slice(0, 12)}…, this store's is ${storeId.slice(0, 12)}…)` };
    if (existsSync(`${file}-wal`)) db.pragma("wal_checkpoint(TRUNCATE)");
    if ((db.pragma("journal_mode", { simple: true }) as string) === "wal") db.pragma("journal_mode = DELETE");
    db.pragma("journal_mode = MEMORY");
    db.pragma("temp_store = MEMORY");
    db.pragma("secure_delete = ON");
    const before = db.prepare("SELECT total_changes()").pluck().get() as number;
    forgetIn(db, scope, now);
    const changed = (db.prepare("SELECT total_changes()").pluck().get() as number) !== before;
    if (changed) {
      compactText(db);
      db.exec("VACUUM");
    }
    return { ok: true, changed };
  } catch (err) {
    const e = err as { code?: string; message?: string };
    const why = e.code === "SQLITE_BUSY" || e.code === "SQLITE_LOCKED" ? "locked by another process" : `cannot be scrubbed: ${e.message ?? String(err)}`;
    return { ok: false, why };
  } finally {
    db?.close();
  }
}

/** The scope applied to one open copy: the same store functions a forget and a purge run on the store. */
function forgetIn(db: Db, scope: ForgetScope, now: number): void {
  const events = scope.events;
  for (let i = 0; i < events.length; i += 500) tombstone(db, events.slice(i, i + 500), now);
  for (const project of scope.projects) {
    tombstone(db, liveIds(db, { project }), now);
    forgetProjectRecords(db, project);
    forgetPromptRuns(db, { project });
  }
  for (const { project, session } of scope.sessions) {
    tombstone(db, liveIds(db, { project, session }), now);
    forgetSessionRecord(db, project, session);
    forgetPromptRuns(db, { project, session });
  }
  purgeTombstones(db);
  if (scope.holds) withholdQuoted(db, scope.holds);
}

/** A snapshot's manifest (`<id>.json` beside it) told its new size and counts; other fields kept. A manifest that cannot be read is left alone. */
export function refreshManifest(file: string, manifest: string): void {
  let m: Record<string, unknown>;
  try {
    m = JSON.parse(readFileSync(manifest, "utf8")) as Record<string, unknown>;
  } catch {
    return;
  }
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    m.counts = storeCounts(db);
  } finally {
    db.close();
  }
  m.bytes = lstatSync(file).size;
  writePrivate(manifest, `${JSON.stringify(m, null, 2)}\n`, "replace");
}

/** Every memory the store holds as forgotten (event ids): what a copy forgets too. */
export function forgottenIds(db: Db): string[] {
  return db.prepare("SELECT id FROM events WHERE deleted_at IS NOT NULL").pluck().all() as string[];
}

/** The texts a purge is about to remove (forgotten memories not yet purged, and their earlier versions): what is looked for in other files. */
export function unpurgedTexts(db: Db): string[] {
  return db
    .prepare("SELECT text FROM events WHERE deleted_at IS NOT NULL AND text != '' UNION ALL SELECT h.text FROM memory_history h JOIN events e ON e.id = h.memory WHERE e.deleted_at IS NOT NULL")
    .pluck()
    .all() as string[];
}

/** The texts a project holds (its chunks and memories): read before the project is forgotten. */
export function projectTexts(db: Db, project: string): string[] {
  return db.prepare("SELECT text FROM chunks WHERE project = ? UNION ALL SELECT text FROM events WHERE project = ? AND text != ''").pluck().all(project, project) as string[];
}

/** What still quotes a forgotten memory outside its own rows (the prompt log, session summaries and task lists) withheld. */
export function withholdQuoted(db: Db, holds: (text: string) => boolean): number {
  return withholdMatching(db, holds) + withholdInSessions(db, holds);
}
