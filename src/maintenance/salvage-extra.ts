import type Database from "better-sqlite3";
import { openExisting } from "../store/db.js";
import type { RawRecord, Value } from "./raw-pages.js";
import { readTable, type Row } from "./read-table.js";

/**
 * The smaller tables a repair also keeps (tasks and their session ids, memories' earlier versions,
 * salience, links, anchors, the prompt log): whole, by SQL, when SQLite reads them. When it cannot,
 * the tasks, their session ids, salience and anchors are salvaged as events are: the task table by
 * rowid ranges past its unreadable pages, and each of them from the records still readable on the
 * file's pages (./raw-pages.ts), each record checked against the table's shape (a damaged or
 * freed page may hold anything). Nothing here writes.
 */
export const EXTRA_TABLES = ["tasks", "task_refs", "memory_history", "salience", "links", "anchors", "prompt_runs"] as const;
export type ExtraTable = (typeof EXTRA_TABLES)[number];

const str = (v: unknown): v is string => typeof v === "string";
const int = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);
const optStr = (v: unknown) => v === null || v === undefined || str(v);
/** A time in ms since 1970 (not a small count or a rowid). */
const ms = (v: unknown) => int(v) && v > 1e11 && v < 1e14;

const STATUSES = new Set(["pending", "in_progress", "blocked", "completed", "deleted"]);
const SOURCES = new Set(["TodoWrite", "TaskTool", "tag", "cli"]);
const TASK_COLUMNS = ["id", "project", "content", "status", "source", "created_session", "created_at", "updated_session", "updated_at", "closed_at", "blocked_reason"] as const;

function asTask(r: Row): Row | undefined {
  if (!int(r.id) || r.id < 1 || !str(r.project) || !str(r.content) || !STATUSES.has(r.status as string) || !SOURCES.has(r.source as string)) return undefined;
  if (!optStr(r.created_session) || !ms(r.created_at) || !optStr(r.updated_session) || !ms(r.updated_at) || !(r.closed_at === null || r.closed_at === undefined || ms(r.closed_at)) || !optStr(r.blocked_reason)) return undefined;
  return Object.fromEntries(TASK_COLUMNS.map((c) => [c, r[c] ?? null]));
}

function asSalience(v: Value[]): Row | undefined {
  const [chunk, salience, last, uses] = v;
  if (v.length !== 4 || !str(chunk) || chunk === "" || chunk.length > 200 || typeof salience !== "number" || !(salience >= 0 && salience <= 1_000) || !ms(last) || !int(uses) || uses < 0) return undefined;
  return { chunk_id: chunk, salience, last_used_at: last, uses };
}

function asAnchor(v: Value[]): Row | undefined {
  const [memory, path, blob, branch, at] = v;
  if (v.length !== 5 || !str(memory) || memory === "" || !str(path) || path === "" || !(blob === null || (str(blob) && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(blob))) || !(branch === null || str(branch)) || !ms(at)) return undefined;
  return { memory, path, blob, branch, at };
}

/** A task's session-local id, for a task salvaged too; never an index entry of events (project, session, rowid). */
function asTaskRef(v: Value[], tasks: ReadonlyMap<number, Row>, projects: ReadonlySet<string>): Row | undefined {
  const [session, local, task] = v;
  if (v.length !== 3 || !str(session) || session === "" || projects.has(session) || !str(local) || local === "" || !int(task) || !tasks.has(task)) return undefined;
  return { session, local_id: local, task_id: task };
}

/** One row per key: the one with the larger `newer` value (a freed page may still hold an older copy). */
function newest(rows: Row[], key: (r: Row) => string, newer?: string): Row[] {
  const m = new Map<string, Row>();
  for (const r of rows) {
    const k = key(r);
    const had = m.get(k);
    if (!had || (newer !== undefined && (r[newer] as number) > (had[newer] as number))) m.set(k, r);
  }
  return [...m.values()];
}

/** The task table's rows SQLite still reads past its unreadable pages; none when it cannot read the schema. */
function sqlRows(db: Database.Database): Row[] {
  try {
    return readTable(db, "tasks").rows;
  } catch {
    return [];
  }
}

/** The tables salvaged past damage, and how: their SQL-readable part (tasks only) and their raw records. */
function salvageTable(t: "tasks" | "task_refs" | "salience" | "anchors", db: Database.Database | undefined, raw: () => RawRecord[], got: Partial<Record<ExtraTable, Row[]>>): Row[] {
  if (t === "tasks") {
    const fromSql = db ? sqlRows(db).map(asTask) : [];
    const fromPages = raw()
      .filter((r) => r.rowid !== undefined && (r.values.length === 10 || r.values.length === 11) && r.values[0] === null)
      .map((r) => asTask(Object.fromEntries(TASK_COLUMNS.map((c, i) => [c, i === 0 ? r.rowid : r.values[i]]))));
    return newest([...fromSql, ...fromPages].filter((r): r is Row => r !== undefined), (r) => String(r.id), "updated_at");
  }
  const leaves = raw().filter((r) => r.rowid === undefined);
  if (t === "salience") return newest(leaves.map((r) => asSalience(r.values)).filter((r): r is Row => r !== undefined), (r) => r.chunk_id as string, "last_used_at");
  if (t === "anchors") return newest(leaves.map((r) => asAnchor(r.values)).filter((r): r is Row => r !== undefined), (r) => `${r.memory}\0${r.path}`, "at");
  const tasks = new Map((got.tasks ?? []).map((r) => [r.id as number, r]));
  const projects = new Set([...tasks.values()].map((r) => r.project as string));
  return newest(leaves.map((r) => asTaskRef(r.values, tasks, projects)).filter((r): r is Row => r !== undefined), (r) => `${r.session}\0${r.local_id}`);
}

const DEEP = new Set<ExtraTable>(["tasks", "task_refs", "salience", "anchors"]);

/** Reads the smaller tables of the store at `path` (a copy); `raw` gives the file's raw records, read once when first needed. */
export function readExtra(path: string, notes: string[], raw: () => RawRecord[]): Partial<Record<ExtraTable, Row[]>> {
  const out: Partial<Record<ExtraTable, Row[]>> = {};
  let db: Database.Database | undefined;
  try {
    db = openExisting(path);
  } catch {
    // the schema is unreadable (noted by the main salvage): the deep tables from the pages alone
  }
  try {
    for (const t of EXTRA_TABLES) {
      let why = "the schema is unreadable";
      if (db) {
        try {
          out[t] = db.prepare(`SELECT * FROM ${t}`).all() as Row[];
          continue;
        } catch (err) {
          if (/no such table/.test((err as Error).message)) continue;
          why = (err as Error).message;
        }
      }
      if (!DEEP.has(t)) {
        if (db) notes.push(`${t}: unreadable (${why}); not kept`);
        continue;
      }
      const rows = salvageTable(t as "tasks" | "task_refs" | "salience" | "anchors", db, raw, out);
      out[t] = rows;
      if (db || rows.length > 0) notes.push(`${t}: unreadable (${why}); ${rows.length} row(s) salvaged from its readable pages`);
    }
  } finally {
    db?.close();
  }
  // A task's session id without its task (lost with an unreadable page) has nothing to point to.
  if (out.task_refs && out.tasks) {
    const ids = new Set(out.tasks.map((r) => r.id));
    const kept = out.task_refs.filter((r) => ids.has(r.task_id));
    if (kept.length < out.task_refs.length) notes.push(`task_refs: ${out.task_refs.length - kept.length} row(s) dropped: their tasks were not salvaged`);
    out.task_refs = kept;
  } else if (out.task_refs && !out.tasks) out.task_refs = [];
  return out;
}
