import type Database from "better-sqlite3";
import { openExisting } from "../store/db.js";
import type { RestoredEvent, RestoredSession } from "../store/restore.js";
import { rawRecords, type RawRecord, type Value } from "./raw-pages.js";
import { readTable, type Row } from "./read-table.js";
import { readExtra, type ExtraTable } from "./salvage-extra.js";

/**
 * Reads what can still be read from a damaged SQLite store (a copy of it: reading may replay its
 * WAL). Table by table through SQLite; where a read fails part-way, on by rowid ranges past the
 * unreadable pages. When the schema itself cannot be read, or a table could not be read whole,
 * its records are also taken straight from the file's pages (raw-pages.ts). Captured events,
 * sessions, the indexed sources and roots here; the smaller tables (tasks, salience, anchors, …)
 * in ./salvage-extra.ts. Nothing here writes.
 */

/** What a salvage gives back: the rows a repair writes (src/store/restore.ts). */
export type SalvagedEvent = RestoredEvent;
export type SalvagedSession = RestoredSession;

export interface SalvagedSource {
  project: string;
  path: string;
  kind: string;
  tier: string | null;
  indexed_at: number;
}

export interface SalvagedRoot {
  project: string;
  path: string;
  added_at: number;
}

export interface Salvage {
  /** Rows of the smaller tables, as SQLite read them (see EXTRA_TABLES). */
  extra: Partial<Record<ExtraTable, Row[]>>;
  events: SalvagedEvent[];
  sessions: SalvagedSession[];
  sources: SalvagedSource[];
  roots: SalvagedRoot[];
  /** Rows SQLite counted before reading (through an index, when the table's own pages are damaged); undefined when it could not. */
  counted: { events?: number; sessions?: number };
  /** How the salvage went, in plain words. */
  notes: string[];
}

export type { Row };
export { EXTRA_TABLES, type ExtraTable } from "./salvage-extra.js";

const str = (v: unknown): v is string => typeof v === "string";
const int = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);
const optStr = (v: unknown) => v === null || str(v);
const optInt = (v: unknown) => v === null || int(v);
const json = (v: unknown, array: boolean) => {
  if (!str(v)) return false;
  try {
    const x = JSON.parse(v) as unknown;
    return array ? Array.isArray(x) : x !== null && typeof x === "object" && !Array.isArray(x);
  } catch {
    return false;
  }
};
const absolute = (v: unknown) => str(v) && (v.startsWith("/") || /^[A-Za-z]:[\\/]/.test(v));

function asEvent(r: Row): SalvagedEvent | undefined {
  const deleted = typeof r.deleted_at === "number" ? r.deleted_at : null;
  if (!str(r.id) || !str(r.project) || !optStr(r.session) || !str(r.type) || !str(r.time) || (!str(r.text) && deleted === null) || !json(r.files, true) || !json(r.metadata, false)) return undefined;
  return { id: r.id, project: r.project, session: (r.session as string | null) ?? null, type: r.type, time: r.time, files: r.files as string, text: r.text as string, metadata: r.metadata as string, deleted_at: deleted };
}

function asSession(r: Row): SalvagedSession | undefined {
  if (!str(r.session) || !str(r.project) || !optStr(r.transcript_path) || !int(r.offset) || !optStr(r.task_state) || !optInt(r.started_at) || !optInt(r.ended_at) || !optStr(r.end_reason) || !int(r.updated_at)) return undefined;
  return r as unknown as SalvagedSession;
}

function asSource(r: Row): SalvagedSource | undefined {
  if (!str(r.project) || !absolute(r.path) || (r.kind !== "markdown" && r.kind !== "events") || !optStr(r.tier) || !int(r.indexed_at)) return undefined;
  return { project: r.project, path: r.path as string, kind: r.kind, tier: (r.tier as string | null) ?? null, indexed_at: r.indexed_at };
}

function asRoot(r: Row): SalvagedRoot | undefined {
  if (!str(r.project) || !absolute(r.path) || !int(r.added_at)) return undefined;
  return { project: r.project, path: r.path as string, added_at: r.added_at };
}

/** The columns of each table, in schema order, to read a raw record by. */
const SHAPES = {
  events: ["id", "project", "session", "type", "time", "files", "text", "metadata", "chunked", "updated_at", "deleted_at", "client_key"],
  sessions: ["session", "project", "transcript_path", "offset", "task_state", "started_at", "ended_at", "end_reason", "updated_at", "summary"],
  sources: ["id", "project", "path", "kind", "tier", "size", "mtime_ms", "content_hash", "metadata", "indexed_at"],
  roots: ["project", "path", "added_at"],
} as const;

const MIN_COLUMNS: Partial<Record<keyof typeof SHAPES, number>> = { events: 8, sessions: 9 };

const named = (cols: readonly string[], values: Value[]): Row => Object.fromEntries(cols.map((c, i) => [c, values[i]]));

/** Raw records that have a table's shape and pass its checks. */
function rawOf<T>(records: RawRecord[], table: keyof typeof SHAPES, check: (r: Row) => T | undefined): T[] {
  const cols = SHAPES[table];
  const out: T[] = [];
  for (const rec of records) {
    const rowTable = rec.rowid !== undefined;
    if (rowTable !== (table !== "roots")) continue;
    // Rows written before columns were added are short by those columns (events: 8 before `chunked`,
    // 9 before the explicit-memory columns; sessions: 9 before `summary`).
    if (rec.values.length > cols.length || rec.values.length < (MIN_COLUMNS[table] ?? cols.length)) continue;
    if (table === "roots" && !(int(rec.values[2]) && (rec.values[2] as number) > 1e11)) continue; // not an index of (…, rowid)
    const row = check(named(cols, rec.values));
    if (row !== undefined) out.push(row);
  }
  return out;
}

function count(db: Database.Database, table: string): number | undefined {
  try {
    return db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  } catch {
    return undefined;
  }
}

/** Keeps one row per key: the one `better` prefers. */
function dedupe<T>(rows: T[], key: (r: T) => string, better: (a: T, b: T) => boolean = () => false): T[] {
  const m = new Map<string, T>();
  for (const r of rows) {
    const k = key(r);
    const had = m.get(k);
    if (!had || better(r, had)) m.set(k, r);
  }
  return [...m.values()];
}

/** Salvages the store at `path` (a copy the caller may lose: SQLite may replay its WAL into it). */
export function salvage(path: string): Salvage {
  const notes: string[] = [];
  const sql: Partial<Record<keyof typeof SHAPES, Row[]>> = {};
  const whole = new Set<keyof typeof SHAPES>();
  const counted: Salvage["counted"] = {};
  let db: Database.Database | undefined;
  try {
    db = openExisting(path);
    const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
    for (const t of Object.keys(SHAPES) as (keyof typeof SHAPES)[]) {
      if (!tables.has(t)) continue;
      if (t === "events" || t === "sessions") counted[t] = count(db, t);
      if (t === "roots") {
        try {
          sql[t] = db.prepare("SELECT * FROM roots").all() as Row[];
          whole.add(t);
        } catch {
          notes.push("the roots table is unreadable");
        }
        continue;
      }
      const r = readTable(db, t);
      sql[t] = r.rows;
      if (r.failures === 0) whole.add(t);
      else notes.push(`${t}: ${r.rows.length} rows read, ${r.failures} unreadable stretch(es) of pages skipped`);
    }
  } catch (err) {
    notes.push(`SQLite cannot read the schema (${(err as Error).message}); rows are read straight from the file's pages`);
  } finally {
    db?.close();
  }
  let raw: RawRecord[] | undefined;
  const pick = <T>(t: keyof typeof SHAPES, check: (r: Row) => T | undefined): T[] => {
    const fromSql = (sql[t] ?? []).map(check).filter((x): x is T => x !== undefined);
    if (whole.has(t)) return fromSql;
    raw ??= rawRecords(path);
    return [...fromSql, ...rawOf(raw, t, check)];
  };
  const events = dedupe(pick("events", asEvent), (e) => e.id);
  const sessions = dedupe(pick("sessions", asSession), (s) => s.session, (a, b) => a.updated_at > b.updated_at);
  const sources = dedupe(pick("sources", asSource), (s) => `${s.project}\0${s.path}`, (a, b) => a.indexed_at > b.indexed_at);
  const roots = dedupe(pick("roots", asRoot), (r) => `${r.project}\0${r.path}`);
  return { events, sessions, sources, roots, extra: readExtra(path, notes, () => (raw ??= rawRecords(path))), counted, notes };
}
