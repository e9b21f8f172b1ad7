import { asStoredRow, type CleanFields } from "../redact/clean.cjs";
import type { Db } from "./db.js";
import { prepared } from "./statements.js";

/**
 * What convergence of the team tier with local memories reads (src/team/view.ts): a
 * project's team records, one a file (its first chunk), and its live local memories of the kinds
 * that can converge. Reading only.
 */
export interface TeamRecordRow {
  /** The file's first chunk: the record's id. */
  chunk: string;
  path: string;
  kind: string;
  /** The first chunk's text (the record's title and the start of its text). */
  text: string;
  /** The first chunk's metadata as stored (JSON), holding `record`. */
  metadata: string;
}

export function teamRecordRows(db: Db, project: string, limit: number): CleanFields<TeamRecordRow>[] {
  const sql = `SELECT c.id AS chunk, s.path, json_extract(s.metadata, '$.kind') AS kind, c.text, c.metadata
    FROM sources s JOIN chunks c ON c.source_id = s.id AND c.seq = 0
    WHERE s.project = ? AND json_extract(s.metadata, '$.record.team') = 1 ORDER BY s.path LIMIT ?`;
  return (prepared(db, sql).all(project, limit) as TeamRecordRow[]).map(asStoredRow);
}

export interface LocalRow {
  id: string;
  kind: string;
  text: string;
}

/** A project's live memories (events) of `kinds`, or with one of `ids` whatever its kind, newest first. */
export function localRows(db: Db, project: string, kinds: readonly string[], ids: readonly string[], limit: number): CleanFields<LocalRow>[] {
  const sql = `SELECT id, type AS kind, text FROM events WHERE project = ? AND deleted_at IS NULL
    AND (type IN (SELECT value FROM json_each(?)) OR id IN (SELECT value FROM json_each(?))) ORDER BY time DESC LIMIT ?`;
  return (prepared(db, sql).all(project, JSON.stringify(kinds), JSON.stringify(ids), limit) as LocalRow[]).map(asStoredRow);
}

/** The live memories (events) the given captured chunks are, by chunk id. */
export function liveEventsOfChunks(db: Db, chunkIds: readonly string[]): Map<string, CleanFields<LocalRow>> {
  const sql = `SELECT c.id AS chunk, e.id, e.type AS kind, e.text FROM chunks c JOIN events e ON e.id = json_extract(c.metadata, '$.eventId') AND e.project = c.project
    WHERE c.id IN (SELECT value FROM json_each(?)) AND e.deleted_at IS NULL`;
  const rows = prepared(db, sql).all(JSON.stringify(chunkIds)) as (LocalRow & { chunk: string })[];
  return new Map(rows.map((r) => [r.chunk, asStoredRow({ id: r.id, kind: r.kind, text: r.text })]));
}
