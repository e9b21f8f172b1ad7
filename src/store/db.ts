import Database from "better-sqlite3";
import { ensurePrivateDir } from "../util/private-dir.cjs";
import { closeSync, openSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { REDACTION_VERSION } from "../redact/redact.cjs";
import { damageReason, isCorruptionCode, MigrationDeferredError, StoreDamagedError, storeFileProblem } from "./damage.js";
import { identityProblem, readIdentity, recordIdentity, stampStore, type Identity } from "./identity.js";
import { HEAVY_MIGRATIONS, MIGRATIONS } from "./migrations.js";
import { takeSnapshot } from "./snapshots.js";

export type Db = Database.Database;

/** The schema version an up-to-date store has (`PRAGMA user_version`). */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings the schema up to date; a store that holds data is copied into a snapshot first
 * (`snapshotOf`: its file). `deferHeavy`: a store that needs a long migration (HEAVY_MIGRATIONS)
 * is left as it is and MigrationDeferredError thrown, before anything is written.
 */
export function migrate(db: Db, snapshotOf?: string, deferHeavy = false): void {
  const from = db.pragma("user_version", { simple: true }) as number;
  if (from >= MIGRATIONS.length) return;
  if (deferHeavy && from > 0 && MIGRATIONS.slice(from).some((m) => HEAVY_MIGRATIONS.has(m))) throw new MigrationDeferredError(from, MIGRATIONS.length);
  if (from > 0 && snapshotOf) takeSnapshot(db, snapshotOf, "migration");
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

export interface OpenOptions {
  readonly?: boolean;
  /** false: a working file (a repair's rebuild), neither checked against nor recorded in an identity. */
  identity?: boolean;
  /** How long a statement waits for another connection's write lock before SQLITE_BUSY (default 5 s; a hook: what its deadline leaves). */
  busyTimeoutMs?: number;
  /** A hook's open: a long migration is left to the daemon or the next command (MigrationDeferredError). */
  deferHeavyMigrations?: boolean;
}

/**
 * Opens (creating if needed) the SQLite store. A damaged one (not SQLite, truncated to 0 bytes,
 * malformed) throws StoreDamagedError instead of being silently recreated empty; so does one the
 * identity beside it (./identity.ts) says is not the store that was there: missing, emptied,
 * replaced, older. A first run (no identity, no store) creates both.
 */
export function openDb(path: string, opts: OpenOptions = {}): Db {
  const guarded = opts.identity !== false && path !== ":memory:" && path !== "";
  const id = guarded ? readIdentity(path) : undefined;
  const gone = id ? missingFile(path, id) : undefined;
  if (gone) throw new StoreDamagedError(path, gone, "lost");
  const problem = storeFileProblem(path);
  if (problem) throw new StoreDamagedError(path, problem);
  const existed = guarded && !id && hasData(path);
  let opened: Db | undefined;
  try {
    // Checked before any migration: a store that is not the recorded one is never written to.
    let generation = 0;
    const db = openStore(path, opts, (d) => (opened = d), (d) => (guarded && id ? checkIdentity(d, path, id, (g) => (generation = g)) : undefined));
    if (guarded && !id && !opts.readonly) adopt(db, path, existed);
    else if (id && !opts.readonly && generation > id.generation) recordIdentity(db, path, "caught up"); // a restore interrupted between the file and the identity
    return db;
  } catch (err) {
    opened?.close(); // now, not at garbage collection (when its WAL file name may be another store's)
    throw isCorruptionCode((err as { code?: unknown }).code) ? new StoreDamagedError(path, damageReason(err)) : err;
  }
}

/** Opens (creating if needed) the SQLite store: WAL, busy timeout, foreign keys, schema up to date. */
function openStore(path: string, opts: OpenOptions, opened: (db: Db) => void, check: (db: Db) => void): Db {
  if (!opts.readonly) ensurePrivateDir(dirname(path));
  if (!opts.readonly && path !== ":memory:" && path !== "") closeSync(openSync(path, "a", 0o600)); // SQLite gives -wal/-shm its mode
  const db = new Database(path, { readonly: opts.readonly ?? false, fileMustExist: opts.readonly ?? false });
  opened(db);
  const busyMs = Math.max(0, Math.min(60_000, Math.floor(opts.busyTimeoutMs ?? 5_000)));
  db.pragma(`busy_timeout = ${busyMs}`);
  if (!opts.readonly) {
    toWal(db, busyMs);
    db.pragma("synchronous = NORMAL");
  }
  db.pragma("foreign_keys = ON");
  check(db);
  if (!opts.readonly) migrate(db, path === ":memory:" || path === "" || opts.identity === false ? undefined : path, opts.deferHeavyMigrations === true);
  return db;
}

/**
 * Switches a store to WAL. Several processes opening a fresh store at once each read it, then ask
 * for the exclusive lock the switch takes: SQLite sees the deadlock and answers one of them "database
 * is locked" at once, without waiting (the busy timeout does not apply). That one tries again until
 * the switch is made (by it, or by another: then it is nothing to do), within the busy timeout.
 */
function toWal(db: Db, busyMs: number): void {
  const until = Date.now() + busyMs;
  for (let n = 0; ; n++) {
    try {
      db.pragma("journal_mode = WAL");
      return;
    } catch (err) {
      if (!String((err as { code?: unknown }).code).startsWith("SQLITE_BUSY") || Date.now() >= until) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.min(50, 5 + n * 5)); // a short pause, longer each time
    }
  }
}

function hasData(path: string): boolean {
  try {
    return statSync(path).size > 0;
  } catch {
    return false;
  }
}

const recorded = (id: Identity) =>
  `mem.identity.json records ${id.counts.events} events, ${id.counts.memories} memories, ${id.counts.tasks} tasks and ${id.counts.chunks} chunks as of ${id.updatedAt || "its last write"}`;

/** A store the identity records that is not there, or is 0 bytes (SQLite would take it for a new one). */
function missingFile(path: string, id: Identity): string | undefined {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT" ? `the file is missing (${recorded(id)})` : undefined;
  }
  // Once the identity is written the store has its schema on disk: 0 bytes is a truncation, however recent.
  return size === 0 ? `the file is empty (0 bytes): it was truncated (${recorded(id)})` : undefined;
}

/** Compares the opened store with its identity. */
function checkIdentity(db: Db, path: string, id: Identity, seen: (generation: number) => void): void {
  const problem = identityProblem(db, id, seen);
  if (problem) throw new StoreDamagedError(path, problem, "lost");
}

/** A store without an identity (a first run, or one made before identities) gets one. */
function adopt(db: Db, path: string, existed: boolean): void {
  stampStore(db);
  recordIdentity(db, path, existed ? "adopted" : "created");
}

/** Opens an existing SQLite file as it is (no pragmas, no migrations): for reading what is left of a damaged copy. */
export function openExisting(path: string): Db {
  return new Database(path, { fileMustExist: true });
}
