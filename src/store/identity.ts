import { randomUUID } from "node:crypto";
import { statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { readRegular } from "../util/read-regular.cjs";
import { replacePrivate } from "../util/private-file.cjs";
import type Database from "better-sqlite3";

type Db = Database.Database; // not from ./db.js, which opens the store through this module

/**
 * The store's identity, kept beside it (`mem.identity.json`, private): which store this data home
 * holds (an id also written into the store's `meta`), its generation (bumped each time the file
 * is replaced on purpose: a restore, a repair, a fresh start), and its row counts when last
 * written. Opening compares the file with it, so a store that was truncated, swapped for another
 * one, put back from an older copy or emptied is recognised as lost instead of being taken for a
 * new one. Events and sessions are never deleted (a forgotten memory keeps its tombstone row),
 * so their counts only grow: fewer of them than recorded is always a loss.
 */

export interface StoreCounts {
  events: number;
  sessions: number;
  memories: number;
  tasks: number;
  chunks: number;
}

export interface Identity {
  version: 1;
  storeId: string;
  generation: number;
  schemaVersion: number;
  counts: StoreCounts;
  /** When it was last written, and why (created, adopted, writes, restore, repair, fresh). */
  updatedAt: string;
  reason: string;
}

const MAX_BYTES = 64 * 1024;

/** `mem.sqlite` → `mem.identity.json` beside it. */
export function identityPath(sqlite: string): string {
  return join(dirname(sqlite), `${basename(sqlite).replace(/\.sqlite$/, "")}.identity.json`);
}

const count = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v >= 0;

/** The recorded identity; undefined when there is none, or it is not one mem wrote (then it is written again). */
export function readIdentity(sqlite: string): Identity | undefined {
  const r = readRegular(identityPath(sqlite), MAX_BYTES);
  if (!r.ok) return undefined;
  try {
    const j = JSON.parse(r.data.toString("utf8")) as Partial<Identity>;
    const c = j.counts as Partial<StoreCounts> | undefined;
    if (j.version !== 1 || typeof j.storeId !== "string" || !/^[0-9a-f-]{36}$/.test(j.storeId) || !count(j.generation) || !count(j.schemaVersion)) return undefined;
    if (!c || !count(c.events) || !count(c.sessions) || !count(c.memories) || !count(c.tasks) || !count(c.chunks)) return undefined;
    return { version: 1, storeId: j.storeId, generation: j.generation!, schemaVersion: j.schemaVersion!, counts: { events: c.events!, sessions: c.sessions!, memories: c.memories!, tasks: c.tasks!, chunks: c.chunks! }, updatedAt: String(j.updatedAt ?? ""), reason: String(j.reason ?? "").slice(0, 40) };
  } catch {
    return undefined;
  }
}

/** Written whole or not at all (a temporary file renamed over it), owner-only. */
export function writeIdentity(sqlite: string, id: Identity): void {
  replacePrivate(identityPath(sqlite), `${JSON.stringify(id, null, 2)}\n`);
}

const hasTable = (db: Db, name: string) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;

/** The store's id and generation as its `meta` table has them. */
export function stampOf(db: Db): { storeId?: string; generation: number } {
  const rows = hasTable(db, "meta") ? (db.prepare("SELECT key, value FROM meta WHERE key IN ('store-id', 'store-generation')").all() as { key: string; value: string }[]) : [];
  const get = (k: string) => rows.find((r) => r.key === k)?.value;
  const g = Number(get("store-generation") ?? 0);
  const id = get("store-id");
  return { ...(id ? { storeId: id } : {}), generation: Number.isInteger(g) && g >= 0 ? g : 0 };
}

/** Writes the store id into its `meta` (`storeId`, else a new one unless it has one) and the generation, if given. */
export function stampStore(db: Db, opts: { storeId?: string; generation?: number } = {}): { storeId: string; generation: number } {
  return db.transaction(() => {
    if (opts.storeId) db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('store-id', ?)").run(opts.storeId);
    else db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('store-id', ?)").run(randomUUID());
    if (opts.generation !== undefined) db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('store-generation', ?)").run(String(opts.generation));
    const s = stampOf(db);
    return { storeId: s.storeId!, generation: s.generation };
  }).immediate();
}

/** Every row counted (a few ms on a large store: when a write batch ends, not on every open). */
export function storeCounts(db: Db): StoreCounts {
  // A store of an older schema (a snapshot before a migration) may lack a table or column: 0, or the slower count.
  const n = (table: string, sql: string) => (hasTable(db, table) ? ((db.prepare(sql).pluck().get() as number | null) ?? 0) : 0);
  const live = db.prepare("SELECT 1 FROM pragma_table_info('events') WHERE name = 'deleted_at'").get() !== undefined;
  return {
    events: n("events", "SELECT count(*) FROM events"),
    sessions: n("sessions", "SELECT count(*) FROM sessions"),
    // A memory is an events row; a forgotten one keeps a tombstone row.
    memories: n("events", live ? "SELECT count(*) FROM events WHERE deleted_at IS NULL" : "SELECT count(*) FROM events"),
    tasks: n("tasks", "SELECT count(*) FROM tasks"),
    chunks: hasTable(db, "chunk_counts") ? n("chunk_counts", "SELECT coalesce(sum(n), 0) FROM chunk_counts") : n("chunks", "SELECT count(*) FROM chunks"),
  };
}

/** Counts the store now and records them (and its id, generation and schema) as its identity. */
export function recordIdentity(db: Db, sqlite: string, reason: string, now = Date.now()): Identity {
  const s = stampOf(db);
  if (!s.storeId) throw new Error("the store has no id yet (stampStore first)");
  const id: Identity = { version: 1, storeId: s.storeId, generation: s.generation, schemaVersion: db.pragma("user_version", { simple: true }) as number, counts: storeCounts(db), updatedAt: new Date(now).toISOString(), reason };
  writeIdentity(sqlite, id);
  return id;
}

/**
 * Why the opened store is not the one the identity records, in plain words; undefined when it is.
 * Cheap (the prompt hook opens the store on every prompt): two rows of `meta` and the highest
 * rowid of two tables, each one b-tree descent. Rowids are distinct positive integers, so a table
 * of N rows has one at least N: a highest rowid below the recorded count means rows are gone.
 */
export function identityProblem(db: Db, id: Identity, seen?: (generation: number) => void): string | undefined {
  const s = glance(db);
  seen?.(s.generation);
  if (!s.storeId) return `a new, empty store stands where yours was (it has no store id; mem.identity.json records ${describe(id.counts)})`;
  if (s.storeId !== id.storeId) return `it is another store (id ${s.storeId.slice(0, 8)}…, mem.identity.json records ${id.storeId.slice(0, 8)}…): the file was replaced`;
  if (s.generation < id.generation) return `it is an older copy of this store (generation ${s.generation}, mem.identity.json records ${id.generation}): the file was put back from a backup`;
  for (const t of ["events", "sessions"] as const) {
    const recorded = id.counts[t];
    const top = s.top[t];
    if (recorded === 0 || top >= recorded) continue;
    return top === 0 ? `its ${t} table is empty, and mem.identity.json records ${recorded} ${t}: they were lost` : `its ${t} table holds fewer rows than the ${recorded} mem.identity.json records: rows were lost`;
  }
  return undefined;
}

/** Id, generation and the highest rowids, in one statement (two when a table is missing: an older or foreign schema). */
function glance(db: Db): { storeId?: string; generation: number; top: { events: number; sessions: number } } {
  try {
    const r = db
      .prepare("SELECT (SELECT value FROM meta WHERE key = 'store-id') AS id, (SELECT value FROM meta WHERE key = 'store-generation') AS gen, (SELECT max(rowid) FROM events) AS ev, (SELECT max(rowid) FROM sessions) AS se")
      .get() as { id: string | null; gen: string | null; ev: number | null; se: number | null };
    const g = Number(r.gen ?? 0);
    return { ...(r.id ? { storeId: r.id } : {}), generation: Number.isInteger(g) && g >= 0 ? g : 0, top: { events: r.ev ?? 0, sessions: r.se ?? 0 } };
  } catch {
    const s = stampOf(db);
    const top = (t: string) => (hasTable(db, t) ? ((db.prepare(`SELECT max(rowid) FROM ${t}`).pluck().get() as number | null) ?? 0) : 0);
    return { ...s, top: { events: top("events"), sessions: top("sessions") } };
  }
}

function describe(c: StoreCounts): string {
  return `${c.events} events, ${c.memories} memories, ${c.tasks} tasks, ${c.chunks} chunks`;
}

/** A connection's own writes since it opened (SQLite's total_changes), to know whether its close should record the counts. */
export const changesOf = (db: Db): number => db.prepare("SELECT total_changes()").pluck().get() as number;

/** How often, at most, a closing connection counts the store again to keep its identity current. */
export const RECOUNT_EVERY_MS = 30_000;

/**
 * At the end of a write batch (a connection closing after writes, the daemon after its background
 * step): the counts recorded again, at most every RECOUNT_EVERY_MS (always while the identity
 * still records an empty store). Only for the store the identity names: a connection left open on
 * a file since restored or replaced never writes its counts over the new store's.
 */
export function noteWrites(db: Db, sqlite: string, now = Date.now(), opts: { force?: boolean } = {}): boolean {
  if (!db.open || db.readonly || (!opts.force && changesOf(db) === 0)) return false;
  const id = readIdentity(sqlite);
  if (!id) return false;
  const s = stampOf(db);
  if (s.storeId !== id.storeId || s.generation !== id.generation) return false;
  const age = now - Date.parse(id.updatedAt);
  if (!opts.force && id.counts.events > 0 && id.counts.sessions > 0 && age >= 0 && age < RECOUNT_EVERY_MS) return false;
  recordIdentity(db, sqlite, opts.force ? "checked" : "writes", now);
  return true;
}

/** The file a long-lived connection (the daemon's) opened: device and inode. */
export interface HeldFile {
  dev: number;
  ino: number;
}

export function heldFile(sqlite: string): HeldFile | undefined {
  try {
    const st = statSync(sqlite);
    return { dev: st.dev, ino: st.ino };
  } catch {
    return undefined;
  }
}

/**
 * Why the file a long-lived connection holds is no longer the store (one stat, for every capture
 * the daemon writes): gone, truncated to 0 bytes, or another file put in its place. Writes through
 * the old connection would land in a file no one will open again.
 */
export function heldProblem(sqlite: string, held: HeldFile | undefined): string | undefined {
  if (!held) return undefined;
  let st: { size: number; dev: number; ino: number };
  try {
    st = statSync(sqlite);
  } catch {
    return "the file is missing";
  }
  if (st.size === 0) return "the file is empty (0 bytes): it was truncated";
  if (st.dev !== held.dev || st.ino !== held.ino) return "another file was put in its place";
  return undefined;
}
