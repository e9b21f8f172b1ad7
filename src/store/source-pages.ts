/**
 * The files indexed for a project, read a page at a time, and one file's chunks in order (the
 * explorer's sources view). Captured sessions (`session:<id>` sources) are not files and are left
 * out. Every query walks an index: sources by (project, path), chunks by (source_id, seq).
 */
import { asStoredRow, type CleanFields } from "../redact/clean.cjs";
import type { Db } from "./db.js";
import { prepared } from "./statements.js";

export interface SourceLine {
  id: number;
  path: string;
  /** markdown | events */
  kind: string;
  tier: string | null;
  size: number;
  indexedAt: number;
  chunks: number;
}

export interface ChunkLine {
  id: string;
  kind: string;
  heading: string;
  startLine: number;
  endLine: number;
  text: string;
}

/** Paths under `root` (the root itself, or inside it), as a range of the (project, path) index: '0' is the character after '/'. */
const UNDER = "(path = @root OR (path > @root || '/' AND path < @root || '0'))";
const FILES = "project = @project AND path NOT LIKE 'session:%'";

/** A project's indexed files (under `root` when given) by path, `limit` from `offset`, each with its chunk count; and how many there are. */
export function sourcesPage(db: Db, project: string, f: { root?: string; limit: number; offset: number }): { total: number; sources: CleanFields<SourceLine>[] } {
  const where = `${FILES}${f.root !== undefined ? ` AND ${UNDER}` : ""}`;
  const params = { project, ...(f.root !== undefined ? { root: f.root } : {}) };
  const total = prepared(db, `SELECT count(*) FROM sources WHERE ${where}`).pluck().get(params) as number;
  const sql = `SELECT id, path, kind, tier, size, indexed_at AS indexedAt, (SELECT count(*) FROM chunks c WHERE c.source_id = sources.id) AS chunks
    FROM sources WHERE ${where} ORDER BY path LIMIT @limit OFFSET @offset`;
  const sources = (prepared(db, sql).all({ ...params, limit: f.limit, offset: f.offset }) as SourceLine[]).map((r) => asStoredRow(r));
  return { total, sources };
}

/** How many indexed files of a project are under each of `roots`. */
export function filesPerRoot(db: Db, project: string, roots: readonly string[]): Map<string, number> {
  const count = prepared(db, `SELECT count(*) FROM sources WHERE ${FILES} AND ${UNDER}`).pluck();
  return new Map(roots.map((root) => [root, count.get({ project, root }) as number]));
}

/** One indexed file of a project (never a captured session), or undefined. */
export function sourceFile(db: Db, project: string, path: string): CleanFields<SourceLine> | undefined {
  if (path.startsWith("session:")) return undefined;
  const sql = "SELECT id, path, kind, tier, size, indexed_at AS indexedAt, (SELECT count(*) FROM chunks c WHERE c.source_id = sources.id) AS chunks FROM sources WHERE project = ? AND path = ?";
  const r = prepared(db, sql).get(project, path) as SourceLine | undefined;
  return r ? asStoredRow(r) : undefined;
}

/** A source's chunks in their order in the file, `limit` from `offset`. */
export function chunksOfSource(db: Db, sourceId: number, limit: number, offset: number): CleanFields<ChunkLine>[] {
  const sql = "SELECT id, kind, heading, start_line AS startLine, end_line AS endLine, text FROM chunks WHERE source_id = ? ORDER BY seq LIMIT ? OFFSET ?";
  return (prepared(db, sql).all(sourceId, limit, offset) as ChunkLine[]).map((r) => asStoredRow(r));
}
