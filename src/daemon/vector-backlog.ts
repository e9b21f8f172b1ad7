/**
 * Which projects the daemon's background vector step visits, found from the store itself rather
 * than from who wrote it: a chunk may come from the daemon's own capture, a hook that wrote SQLite
 * itself (the daemon busy or absent), a Stop that chunked its transcript at once, `mem remember`,
 * MCP remember, a spool replayed, an import. Two cheap signs, read every tick:
 *
 * - a project whose chunk count differs from its vector count in the active table (both kept by
 *   triggers: chunk_counts, vec_counts); a gap that an "ok" step leaves as it was is not visited
 *   again until the counts change, and a skipped step is retried after `RETRY_MS`;
 * - a chunk added since the last look (rowid above the last seen) that the table lacks.
 *
 * At start (the first look) every project with a chunk the table lacks, whether or not the table
 * exists yet: chunks written while no daemon ran.
 */
import { asStored, type Clean } from "../redact/clean.cjs";
import type { Db } from "../store/db.js";
import { VecState } from "../store/vec-state.js";

/** A skipped vector step (no provider, a failure) is tried again this long after, counts unchanged. */
export const RETRY_MS = 60_000;

/** The daemon's last visit of a project: its counts then (`sig`), when, and whether the step ran. */
export interface Visit {
  sig: string;
  at: number;
  ok: boolean;
}

/** Whether a project whose counts read `sig` now is due a visit. Pure. */
export function dueForVectors(last: Visit | undefined, sig: string, now: number, retryMs = RETRY_MS): boolean {
  if (!last || last.sig !== sig) return true;
  return !last.ok && now - last.at >= retryMs;
}

/** Per project whose chunk and vector counts in `table` differ: "chunks:vectors". */
export function countGaps(db: Db, table: string): Map<string, string> {
  const rows = db
    .prepare(
      `SELECT c.project AS project, c.n AS chunks, coalesce(v.n, 0) AS vectors FROM chunk_counts c LEFT JOIN vec_counts v ON v.table_name = ? AND v.project = c.project WHERE c.n != coalesce(v.n, 0)
       UNION ALL
       SELECT v.project, 0, v.n FROM vec_counts v WHERE v.table_name = ? AND v.n != 0 AND NOT EXISTS (SELECT 1 FROM chunk_counts c WHERE c.project = v.project)`,
    )
    .all(table, table) as { project: string; chunks: number; vectors: number }[];
  return new Map(rows.map((r) => [r.project, `${r.chunks}:${r.vectors}`]));
}

/** The counts' signature of one project in `table` ("chunks:vectors"). */
export function countsOf(db: Db, table: string, project: string): string {
  const chunks = (db.prepare("SELECT n FROM chunk_counts WHERE project = ?").pluck().get(project) as number | undefined) ?? 0;
  const vectors = (db.prepare("SELECT n FROM vec_counts WHERE table_name = ? AND project = ?").pluck().get(table, project) as number | undefined) ?? 0;
  return `${chunks}:${vectors}`;
}

export class VectorBacklog {
  /** The highest chunk rowid at the last look (undefined: never looked). */
  private seen: number | undefined;
  private readonly visits = new Map<string, Visit>();

  constructor(private readonly db: Db) {}

  /** Projects with chunks `table` may lack, now. */
  due(table: string, now: number): Clean<string>[] {
    const top = (this.db.prepare("SELECT coalesce(max(rowid), 0) FROM chunks").pluck().get() as number) ?? 0;
    const out = new Set<string>();
    if (this.seen === undefined) {
      for (const p of new VecState(this.db).projectsMissing(table)) out.add(p);
    } else if (top > this.seen) {
      const added = this.db
        .prepare("SELECT DISTINCT c.project FROM chunks c WHERE c.rowid > ? AND NOT EXISTS (SELECT 1 FROM vec_rows v WHERE v.table_name = ? AND v.chunk_id = c.id)")
        .pluck()
        .all(this.seen, table) as string[];
      for (const p of added) out.add(p);
    }
    this.seen = top;
    for (const [project, sig] of countGaps(this.db, table)) if (dueForVectors(this.visits.get(`${table}\0${project}`), sig, now)) out.add(project);
    return [...out].sort().map((p) => asStored(p));
  }

  /** Records a visit of `project` for `table`: its counts after the step, and whether the step ran. */
  visited(table: string, project: string, ok: boolean, now: number): void {
    this.visits.set(`${table}\0${project}`, { sig: countsOf(this.db, table, project), at: now, ok });
  }
}
