import Database from "better-sqlite3";
import { ensurePrivateDir } from "../util/private-dir.cjs";
import { closeSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { REDACTION_VERSION } from "../redact/redact.cjs";
import { damageReason, isCorruptionCode, StoreDamagedError, storeFileProblem } from "./damage.js";
import { MIGRATIONS } from "./migrations.js";

export type Db = Database.Database;

/** The schema version an up-to-date store has (`PRAGMA user_version`). */
export const SCHEMA_VERSION = MIGRATIONS.length;

export function migrate(db: Db): void {
  if ((db.pragma("user_version", { simple: true }) as number) >= MIGRATIONS.length) return;
  // Each step takes the write lock (IMMEDIATE) before reading the version, so two processes
  // opening a fresh data home at once never run the same migration twice.
  const step = db.transaction((): boolean => {
    const v = db.pragma("user_version", { simple: true }) as number;
    if (v >= MIGRATIONS.length) return false;
    const m = MIGRATIONS[v]!;
    if (typeof m === "string") db.exec(m);
    else m(db);
    // A new store holds nothing written under older redaction rules (src/store/scrub.ts).
    if (v === 0) db.prepare("INSERT INTO meta (key, value) VALUES ('redaction-version', ?)").run(String(REDACTION_VERSION));
    db.pragma(`user_version = ${v + 1}`);
    return true;
  });
  while (step.immediate()) {
    // one migration per transaction, until up to date
  }
}

/**
 * Opens (creating if needed) the SQLite store. A damaged one (not SQLite, truncated to 0 bytes,
 * malformed) throws StoreDamagedError instead of being silently recreated empty.
 */
export function openDb(path: string, opts: { readonly?: boolean } = {}): Db {
  const problem = storeFileProblem(path);
  if (problem) throw new StoreDamagedError(path, problem);
  let opened: Db | undefined;
  try {
    return openStore(path, opts, (db) => (opened = db));
  } catch (err) {
    opened?.close(); // now, not at garbage collection (when its WAL file name may be another store's)
    throw isCorruptionCode((err as { code?: unknown }).code) ? new StoreDamagedError(path, damageReason(err)) : err;
  }
}

/** Opens (creating if needed) the SQLite store: WAL, busy timeout, foreign keys, schema up to date. */
function openStore(path: string, opts: { readonly?: boolean }, opened: (db: Db) => void): Db {
  if (!opts.readonly) ensurePrivateDir(dirname(path));
  if (!opts.readonly && path !== ":memory:" && path !== "") closeSync(openSync(path, "a", 0o600)); // SQLite gives -wal/-shm its mode
  const db = new Database(path, { readonly: opts.readonly ?? false, fileMustExist: opts.readonly ?? false });
  opened(db);
  db.pragma("busy_timeout = 5000");
  if (!opts.readonly) {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
  }
  db.pragma("foreign_keys = ON");
  if (!opts.readonly) migrate(db);
  return db;
}

/** Opens an existing SQLite file as it is (no pragmas, no migrations): for reading what is left of a damaged copy. */
export function openExisting(path: string): Db {
  return new Database(path, { fileMustExist: true });
}
