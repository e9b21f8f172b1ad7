import type { Db } from "../store/db.js";
import { sqlWhere, type Filters } from "./filters.js";
import { toMatchExpression } from "./fts-query.js";
import type { LegHit } from "./rrf.js";

export interface Bm25Weights {
  heading: number;
  text: number;
}

export const DEFAULT_BM25_WEIGHTS: Bm25Weights = { heading: 2, text: 1 };

/**
 * The lexical leg: FTS5 `bm25()` over heading and body (Porter-stemmed), best first, restricted
 * by the SQL filters. Scores are negated so higher is better.
 */
export function bm25Leg(db: Db, text: string, filters: Filters, limit: number, weights: Bm25Weights = DEFAULT_BM25_WEIGHTS): LegHit[] {
  const match = toMatchExpression(text);
  if (!match) return [];
  const where = sqlWhere(filters);
  const w = (x: number) => (Number.isFinite(x) && x >= 0 ? x : 1);
  const rows = db
    .prepare(
      `SELECT c.id AS id, bm25(chunks_fts, ${w(weights.heading)}, ${w(weights.text)}) AS s
       FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid
       WHERE chunks_fts MATCH ? AND ${where.sql}
       ORDER BY s LIMIT ?`,
    )
    .all(match, ...where.params, limit) as { id: string; s: number }[];
  return rows.map((r) => ({ id: r.id, score: -r.s }));
}
