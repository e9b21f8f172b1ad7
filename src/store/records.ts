import { asStoredRow, type CleanFields } from "../redact/clean.cjs";
import type { Db } from "./db.js";
import { prepared } from "./statements.js";

/**
 * Decision records: indexed markdown files that are decisions, rejected approaches, superseded
 * history and the like (indexer/decision-record.ts), one row a file, read from the source's
 * metadata and its first chunk. What `mem list`, the briefing and the explorer show of them.
 */
export interface RecordMeta {
  kind: string;
  status?: string;
  date?: string;
  authors: string[];
  supersededBy?: string;
  title?: string;
  /** A record of the team tier: its file lies in a record folder of the repository (indexer/decision-record.ts teamRecord). */
  team?: true;
  /** The local memory it was shared from (frontmatter `mem-id`). */
  memId?: string;
}

export interface RecordRow {
  /** The file's first chunk: the id every output shows for it. */
  chunk: string;
  project: string;
  path: string;
  kind: string;
  heading: string;
  text: string;
  date: string | null;
  start_line: number;
  end_line: number;
  /** The chunk's metadata as stored (JSON), holding `record`. */
  metadata: string;
  indexed_at: number;
}

const SELECT = `SELECT c.id AS chunk, s.project, s.path, json_extract(s.metadata, '$.kind') AS kind, c.heading, c.text, c.date, c.start_line, c.end_line, c.metadata, s.indexed_at
  FROM sources s JOIN chunks c ON c.source_id = s.id AND c.seq = 0
  WHERE s.project = ? AND json_extract(s.metadata, '$.record') IS NOT NULL`;

const kindsIn = (kinds: readonly string[]) => (kinds.length > 0 ? ` AND json_extract(s.metadata, '$.kind') IN (${kinds.map(() => "?").join(", ")})` : "");
/** Only the team tier's records (`team`), or every record. */
const TEAM = " AND json_extract(s.metadata, '$.record.team') = 1";
const teamIn = (team: boolean) => (team ? TEAM : "");

/** A project's records of the given kinds (all kinds when none), newest date first, then by path; `team`: only the team tier's. */
export function recordsOf(db: Db, project: string, kinds: readonly string[], limit: number, offset = 0, team = false): CleanFields<RecordRow>[] {
  const sql = `${SELECT}${kindsIn(kinds)}${teamIn(team)} ORDER BY coalesce(c.date, '') DESC, s.path LIMIT ? OFFSET ?`;
  return (prepared(db, sql).all(project, ...kinds, limit, offset) as RecordRow[]).map(asStoredRow);
}

/** How many records a project has of each kind; `team`: of the team tier only. */
export function recordCounts(db: Db, project: string, team = false): Record<string, number> {
  const rows = prepared(db, `SELECT json_extract(s.metadata, '$.kind') AS kind, count(*) AS n FROM sources s WHERE s.project = ? AND json_extract(s.metadata, '$.record') IS NOT NULL${teamIn(team)} GROUP BY 1`).all(project) as { kind: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.kind, r.n]));
}

/** What is known of a record from any of its chunks: its file, its first chunk's id and the record. */
export interface RecordOfChunk {
  path: string;
  /** The file's first chunk: the id every output shows for the record. */
  first: string;
  record: RecordMeta;
}

/** The records the given chunks belong to, by chunk id (chunks of no record are absent). */
export function recordsOfChunks(db: Db, ids: readonly string[]): Map<string, RecordOfChunk> {
  const out = new Map<string, RecordOfChunk>();
  if (ids.length === 0) return out;
  const sql = `SELECT c.id, s.path, json_extract(s.metadata, '$.kind') AS kind, c.metadata, (SELECT f.id FROM chunks f WHERE f.source_id = s.id AND f.seq = 0) AS first
    FROM chunks c JOIN sources s ON s.id = c.source_id WHERE c.id IN (SELECT value FROM json_each(?)) AND json_extract(s.metadata, '$.record') IS NOT NULL`;
  const rows = prepared(db, sql).all(JSON.stringify(ids)) as { id: string; path: string; kind: string; metadata: string; first: string | null }[];
  for (const r of rows.map(asStoredRow)) out.set(r.id, { path: r.path, first: r.first ?? r.id, record: recordMeta(r) });
  return out;
}

/**
 * What every output says of a record after its file, each part as written: its status, its date,
 * `by A, B` (at most `maxAuthors` names, then `…`); parts not known are left out. Pure.
 */
export function recordParts(r: Pick<RecordMeta, "status" | "date" | "authors">, maxAuthors = Number.POSITIVE_INFINITY): string[] {
  const names = r.authors.slice(0, maxAuthors);
  const by = names.length > 0 ? `by ${names.join(", ")}${r.authors.length > names.length ? ", …" : ""}` : "";
  return [r.status ?? "", r.date ?? "", by].filter((p) => p !== "");
}

/** The record a row's chunk metadata holds (a damaged value reads as a bare record of the row's kind). */
export function recordMeta(row: Pick<RecordRow, "kind" | "metadata">): RecordMeta {
  try {
    const { keys: _keys, ...r } = (JSON.parse(row.metadata) as { record?: Partial<RecordMeta> & { keys?: unknown } }).record ?? {};
    if (r && typeof r === "object" && Object.keys(r).length > 0) return { ...r, kind: typeof r.kind === "string" ? r.kind : row.kind, authors: Array.isArray(r.authors) ? r.authors.filter((a): a is string => typeof a === "string") : [] };
  } catch {
    // fall through
  }
  return { kind: row.kind, authors: [] };
}

/** The indexed files directly or deeper under `dir` (a real path): each one's path, mtime and the `mem-id` its frontmatter gives (src/team/). */
export function sourcesUnder(db: Db, project: string, dir: string): { path: string; mtimeMs: number; memId: string | null }[] {
  const from = dir.endsWith("/") ? dir : `${dir}/`;
  return prepared(db, `SELECT path, mtime_ms AS mtimeMs, json_extract(metadata, '$."mem-id"') AS memId FROM sources WHERE project = ? AND path > ? AND path < ? LIMIT 20000`).all(project, from, `${from}\uffff`) as { path: string; mtimeMs: number; memId: string | null }[];
}
