/**
 * The store's SQLite files as `mem doctor --repair` handles them (./repair.ts): copied aside as
 * they are, a stray `-wal` or `-shm` that is no file moved out of the way, and the rows salvaged
 * from a damaged copy (./salvage.ts) written into a fresh file put in its place, each value
 * through the redaction boundary again.
 */
import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { AppConfig } from "../app.js";
import { clean } from "../redact/clean.cjs";
import { openDb } from "../store/db.js";
import { recordIdentity, stampStore, type Identity } from "../store/identity.js";
import { restoreEvents, restoreRoots, restoreRows, restoreSessions } from "../store/restore.js";
import { EXTRA_TABLES, salvage, type Salvage, type SalvagedEvent, type SalvagedSession } from "./salvage.js";

function isRegular(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

/** A `-wal` or `-shm` that is not a file (a directory, a link) keeps SQLite from opening the store: moved into `backup`. */
export function moveStraySideFiles(file: string, backup: string): string[] {
  const moved: string[] = [];
  for (const s of SQLITE_FILES.slice(1)) {
    if (!existsSync(file + s) && !isLink(file + s)) continue;
    if (isRegular(file + s)) continue;
    mkdirSync(backup, { recursive: true, mode: 0o700 });
    renameSync(file + s, join(backup, `mem.sqlite${s}`));
    moved.push(`mem.sqlite${s} was not a regular file; moved into ${backup}`);
  }
  return moved;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

const SQLITE_FILES = ["", "-wal", "-shm"];

/** A JSON column parsed, so its values (not the JSON text around them) are what redaction sees. */
function parsedJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
const asJson = (v: unknown) => (v === null ? null : typeof v === "string" ? v : JSON.stringify(v));

/** Salvaged rows are untrusted input: every value goes through the redaction boundary again. */
function cleanEvents(events: SalvagedEvent[]) {
  return clean(events.map((e) => ({ ...e, files: parsedJson(e.files), metadata: parsedJson(e.metadata) })))
    .map((e) => ({ ...e, files: asJson(e.files) ?? "[]", metadata: asJson(e.metadata) ?? "{}" }));
}

function cleanSessions(sessions: SalvagedSession[]) {
  return clean(sessions.map((s) => ({ ...s, task_state: parsedJson(s.task_state) }))).map((s) => ({ ...s, task_state: asJson(s.task_state) }));
}

/** Copies the SQLite files, as they are, into `dir` (private). */
export function snapshot(file: string, dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const s of SQLITE_FILES) {
    if (!isRegular(file + s)) continue; // absent, or a stray directory or link (moved aside by the repair)
    copyFileSync(file + s, join(dir, `mem.sqlite${s}`));
    chmodSync(join(dir, `mem.sqlite${s}`), 0o600);
  }
}

/** Salvages the damaged store (from a copy of the backup) into a fresh file and puts it in place. */
export function rebuildSqlite(base: AppConfig, backup: string, prior: Identity | undefined): Salvage {
  const file = base.paths.sqlite;
  const work = join(backup, ".salvage");
  if (existsSync(join(backup, "mem.sqlite"))) snapshot(join(backup, "mem.sqlite"), work);
  const found = existsSync(join(work, "mem.sqlite")) ? salvage(join(work, "mem.sqlite")) : ({ events: [], sessions: [], sources: [], roots: [], extra: {}, counted: {}, notes: [] } satisfies Salvage);
  rmSync(work, { recursive: true, force: true });
  const fresh = `${file}.repair-${process.pid}`;
  const db = openDb(fresh, { identity: false });
  try {
    // The same store, repaired: its id kept, a new generation (an older copy put back later is told apart).
    stampStore(db, { ...(prior ? { storeId: prior.storeId } : {}), generation: (prior?.generation ?? 0) + 1 });
    restoreEvents(db, clean(cleanEvents(found.events)));
    restoreSessions(db, clean(cleanSessions(found.sessions)));
    restoreRoots(db, clean(found.roots));
    for (const t of EXTRA_TABLES) {
      const rows = found.extra[t] ?? [];
      const n = restoreRows(db, t, clean(rows));
      if (rows.length > 0) found.notes.push(`${t}: ${n} of ${rows.length} rows kept`);
    }
  } finally {
    db.close();
  }
  for (const s of SQLITE_FILES) rmSync(file + s, { force: true });
  renameSync(fresh, file);
  const done = openDb(file, { identity: false });
  try {
    recordIdentity(done, file, "repair"); // what the repaired store holds is what the next open checks against
  } finally {
    done.close();
  }
  return found;
}
