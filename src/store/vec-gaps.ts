/**
 * Where a vector table lacks chunks, read cheaply for the daemon's background indexing
 * (src/daemon/vector-backlog.ts): from the counts the triggers keep (chunk_counts, vec_counts), and
 * from the chunks added since a rowid. Project ids are read back from the store (clean).
 */
import { asStored, type Clean } from "../redact/clean.cjs";
import type { Db } from "./db.js";
import { prepared } from "./statements.js";

/** Per project whose chunk and vector counts in `table` differ: "chunks:vectors". */
export function countGaps(db: Db, table: string): Map<Clean<string>, string> {
  const rows = db
    .prepare(
      `SELECT c.project AS project, c.n AS chunks, coalesce(v.n, 0) AS vectors FROM chunk_counts c LEFT JOIN vec_counts v ON v.table_name = ? AND v.project = c.project WHERE c.n != coalesce(v.n, 0)
       UNION ALL
       SELECT v.project, 0, v.n FROM vec_counts v WHERE v.table_name = ? AND v.n != 0 AND NOT EXISTS (SELECT 1 FROM chunk_counts c WHERE c.project = v.project)`,
    )
    .all(table, table) as { project: string; chunks: number; vectors: number }[];
  return new Map(rows.map((r) => [asStored(r.project), `${r.chunks}:${r.vectors}`]));
}

/** The counts' signature of one project in `table` ("chunks:vectors"). */
export function countsOf(db: Db, table: string, project: string): string {
  const chunks = (db.prepare("SELECT n FROM chunk_counts WHERE project = ?").pluck().get(project) as number | undefined) ?? 0;
  const vectors = (db.prepare("SELECT n FROM vec_counts WHERE table_name = ? AND project = ?").pluck().get(table, project) as number | undefined) ?? 0;
  return `${chunks}:${vectors}`;
}

/** The highest chunk rowid (0 for none). */
export function topChunkRowid(db: Db): number {
  return (db.prepare("SELECT coalesce(max(rowid), 0) FROM chunks").pluck().get() as number) ?? 0;
}

/** Projects with a chunk above rowid `after` that `table` has no vector for. */
export function addedWithoutVector(db: Db, table: string, after: number): Clean<string>[] {
  return (db.prepare("SELECT DISTINCT c.project FROM chunks c WHERE c.rowid > ? AND NOT EXISTS (SELECT 1 FROM vec_rows v WHERE v.table_name = ? AND v.chunk_id = c.id)").pluck().all(after, table) as string[]).map((p) => asStored(p));
}

/** Projects with a chunk of rowid in (`after`, `upTo`] that `table` has no vector for: a slice of the chunks, read by rowid. */
export function missingBetween(db: Db, table: string, after: number, upTo: number): Clean<string>[] {
  return (prepared(db, "SELECT DISTINCT c.project FROM chunks c WHERE c.rowid > ? AND c.rowid <= ? AND NOT EXISTS (SELECT 1 FROM vec_rows v WHERE v.table_name = ? AND v.chunk_id = c.id)").pluck().all(after, upTo, table) as string[]).map((p) => asStored(p));
}
