import type { Fused } from "./rrf.js";

/**
 * How far below the best BM25 score a hit may fall before it is no evidence. FTS5 gives a word
 * that more than half of all chunks contain an idf of 1e-6 (its formula would go negative), so a
 * chunk that matched only such words scores about a millionth of one that matched a rarer word.
 */
export const NEGLIGIBLE_BM25 = 1e-3;

/** What `--explain` and `mem why` say of a weak result. */
export const WEAK_EXPLAIN = "ranked after the others: BM25 alone found it, under a thousandth of the best BM25 score (it holds only words more than half of all chunks hold)";

/**
 * The fused results with the weak ones moved after the others, each part in its order: a result
 * is weak when BM25 alone found it, at a score under `ratio` of the best BM25 score among them.
 * RRF keeps ranks, not scores, so without this a salience bonus (a hot note's) could lift a note
 * that holds nothing but "SQLite" above the one that answers, in a small store where most notes
 * say "SQLite". Weak results are kept (they may be all there is, or match more of the query's
 * common words), only never ahead of a real match. Pure.
 */
export function weakLast<T extends Fused>(fused: readonly T[], ratio = NEGLIGIBLE_BM25): { ranked: T[]; weak: ReadonlySet<string> } {
  let top = 0;
  for (const f of fused) {
    const s = f.legs.bm25?.score;
    if (s !== undefined && s > top) top = s;
  }
  const weak = new Set<string>();
  if (!(top > 0)) return { ranked: [...fused], weak };
  const floor = top * ratio;
  for (const f of fused) {
    const keys = Object.keys(f.legs);
    const s = f.legs.bm25?.score;
    if (keys.length === 1 && s !== undefined && !(s >= floor)) weak.add(f.id);
  }
  if (weak.size === 0) return { ranked: [...fused], weak };
  return { ranked: [...fused.filter((f) => !weak.has(f.id)), ...fused.filter((f) => weak.has(f.id))], weak };
}
