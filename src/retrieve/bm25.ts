import type { Db } from "../store/db.js";
import { prepared } from "../store/statements.js";
import { COLD_TIER, sqlWhere, type Filters } from "./filters.js";
import { chunksToRank, inScope } from "./bm25-bound.js";
import { countOnce } from "./count-once.js";
import { matchOf, searchConcepts } from "./fts-query.js";
import { DEFAULT_QUERY_RULES, type QueryRules } from "./query-rules.js";
import { adjacentPairs, pairsMatch, withPairs } from "./word-pairs.js";
import type { LegHit } from "./rrf.js";

export interface Bm25Weights {
  heading: number;
  text: number;
  /** The words of the chunk's camelCase identifiers (src/store/chunk-idents.ts). */
  idents: number;
}

/**
 * A word found only inside an identifier ("user" in getUserName) counts half as much as the same
 * word written out in the text (0.5, chosen on the tuning halves of the decision-record sets:
 * 0.75 lost first places to texts full of identifiers; docs/ranking.md).
 */
export const DEFAULT_BM25_WEIGHTS: Bm25Weights = { heading: 2, text: 1, idents: 0.5 };

/**
 * At most this many chunks are scored by `bm25()` for one prompt when its words match more
 * (./bm25-bound.ts): ten times the 200 the fast path keeps, about 4 ms of scoring.
 */
export const RANK_BUDGET = 2_000;

/**
 * The fast path's SQL: FTS5's own top `?` by `score`, then their chunks, kept when `where` holds.
 * CROSS JOIN keeps FTS5's few rows the outer loop: with a plain JOIN, SQLite walked every chunk of
 * the projects searched through the `chunks_project` index and probed the FTS5 rows for each (the
 * BM25 leg at 300k chunks of one project: p50 154 ms; `npm run bench:scale -- --bm25`). `bounded`:
 * only the rowids of a JSON array (second parameter) are scored; `+rowid` has FTS5 stream its
 * matches past them (as rowid lookups, each would count every phrase's matches again for bm25()).
 */
export function fastRankingSql(score: string, where: string, bounded = false): string {
  const only = bounded ? " AND +rowid IN (SELECT value FROM json_each(?))" : "";
  return `SELECT c.id AS id, f.rowid AS r, f.s AS s, c.tier AS tier FROM (SELECT rowid, ${score} AS s FROM chunks_fts WHERE chunks_fts MATCH ?${only} ORDER BY s LIMIT ?) f
       CROSS JOIN chunks c ON c.rowid = f.rowid WHERE ${where} ORDER BY f.s`;
}

/** The rows FTS5 has indexed, as bm25() counts them: the first varint of its averages record. */
export function indexedRows(db: Db): number {
  let block: Buffer | undefined;
  try {
    block = prepared(db, "SELECT block FROM chunks_fts_data WHERE id = 1").pluck().get() as Buffer | undefined;
  } catch {
    return prepared(db, "SELECT count(*) FROM chunks").pluck().get() as number;
  }
  let v = 0;
  for (let i = 0; block && i < block.length; i++) {
    const b = block[i]!;
    if (i === 8) return v * 256 + b;
    v = v * 128 + (b & 0x7f);
    if (b < 0x80) return v;
  }
  return v;
}

/** Each of the query's words' matches (rowids, any of its forms), read without scoring; `rows`: the chunks indexed. */
export interface WordMatches {
  rows: number;
  lists: number[][];
}

/**
 * Each word's matches as rowids alone (one `json_group_array(rowid)` per word, no scoring), for
 * ./bm25-bound.ts to weigh; `undefined` on a store of no more chunks than the budget (every
 * match is ranked there).
 */
export function wordMatches(db: Db, words: readonly string[][], budget: number): WordMatches | undefined {
  const rows = indexedRows(db);
  if (rows <= budget) return undefined;
  const list = prepared(db, "SELECT json_group_array(rowid) FROM chunks_fts WHERE chunks_fts MATCH ?").pluck();
  return { rows, lists: words.map((forms) => JSON.parse(list.get(matchOf(forms)) as string) as number[]) };
}

/**
 * The chunks to score for these words (each word's forms), or `undefined` for every match: the
 * matches of each word are read as rowids alone (no scoring) and weighed by ./bm25-bound.ts.
 */
export function boundedRows(db: Db, words: readonly string[][], budget: number, least: number): number[] | undefined {
  const m = wordMatches(db, words, budget);
  return m && chunksToRank(m.lists, m.rows, budget, least);
}

/** The rowids of the chunks of `projects`, ascending (read from the chunks_project index: no chunk row is read). */
export function projectRowids(db: Db, projects: readonly string[]): Float64Array {
  const json = prepared(db, `SELECT json_group_array(rowid) FROM chunks WHERE project IN (${projects.map(() => "?").join(", ")})`).pluck().get(...projects) as string;
  return Float64Array.from(JSON.parse(json) as number[]).sort();
}

/**
 * The filtered ranking: every match that passes `where`, by `score`, best first; `only` (a JSON
 * array of rowids) restricts the scoring to those chunks, checked as FTS5 streams its matches
 * past them, before any chunk row is looked up (CROSS JOIN keeps FTS5 the outer loop).
 */
function filteredRanking(db: Db, score: string, where: { sql: string; params: unknown[] }, match: string, only: string | undefined, n: number): { id: string; r: number; s: number }[] {
  const sql = only
    ? `SELECT c.id AS id, chunks_fts.rowid AS r, ${score} AS s FROM chunks_fts CROSS JOIN chunks c ON c.rowid = chunks_fts.rowid
       WHERE chunks_fts MATCH ? AND +chunks_fts.rowid IN (SELECT value FROM json_each(?)) AND ${where.sql} ORDER BY s LIMIT ?`
    : `SELECT c.id AS id, chunks_fts.rowid AS r, ${score} AS s FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid
       WHERE chunks_fts MATCH ? AND ${where.sql} ORDER BY s LIMIT ?`;
  const args = only ? [match, only, ...where.params, n] : [match, ...where.params, n];
  return prepared(db, sql).all(...args) as { id: string; r: number; s: number }[];
}

/**
 * The lexical leg: FTS5 `bm25()` over heading, body and identifier words (Porter-stemmed), best
 * first, restricted by the SQL filters, with each of the query's words counted once, by its best
 * form (./count-once.ts), and its adjacent words found side by side lifting a text a little
 * (./word-pairs.ts). Scores are negated so higher is better.
 */
export function bm25Leg(db: Db, text: string, filters: Filters, limit: number, weights: Bm25Weights = DEFAULT_BM25_WEIGHTS, rules: Readonly<QueryRules> = DEFAULT_QUERY_RULES, budget = RANK_BUDGET): LegHit[] {
  const words = searchConcepts(text, rules);
  const match = matchOf(words.flat());
  if (!match) return [];
  const where = sqlWhere(filters);
  // The fast path leaves the default tier scope (every tier but cold) to a check of the rows it
  // returns: given to SQLite, that condition made the ranking several times slower (the BM25 leg at
  // 10k chunks: 10 ms against 1.9 ms, `npm run bench:prompt`).
  const warmOnly = (filters.tier ?? "warm") === "warm";
  const fastWhere = warmOnly ? sqlWhere({ ...filters, tier: "all" }) : where;
  const w = (x: number) => (Number.isFinite(x) && x >= 0 ? x : 1);
  const score = `bm25(chunks_fts, ${w(weights.heading)}, ${w(weights.text)}, ${w(weights.idents)})`;
  // Fast path: rank inside FTS5 alone (no row lookups), keep the global top N, then filter. If at
  // least `limit` of those pass the filters they hold the filtered top `limit` (anything outside
  // the global top N scores worse). Otherwise rank the filtered matches (below). Counting each
  // word once reorders these candidates: it can only lower a score. On a large store the fast path
  // scores only the chunks ./bm25-bound.ts keeps (at most `budget` of them, heaviest words first).
  const wide = Math.max(200, limit * 4);
  const bound = Math.max(budget, wide);
  const matches = wordMatches(db, words, bound);
  const only = matches && chunksToRank(matches.lists, matches.rows, bound, wide);
  const ranked = only ? [match, JSON.stringify(only), wide] : [match, wide];
  const fast = (prepared(db, fastRankingSql(score, fastWhere.sql, only !== undefined)).all(...ranked, ...fastWhere.params) as { id: string; r: number; s: number; tier: string | null }[]).filter(
    (r) => !warmOnly || r.tier !== COLD_TIER,
  );
  let rows: { id: string; r: number; s: number }[] = fast;
  if (fast.length < limit) {
    // The filtered ranking (a small project in a large store): bounded as the fast path is, over
    // the words' matches in the projects searched (./bm25-bound.ts inScope). When fewer than
    // `limit` of the chunks it kept pass the other filters (the tier, a kind), every match is
    // ranked, as without a bound.
    const n = Math.max(limit, wide);
    const scoped = matches && filters.projects && filters.projects.length > 0 ? inScope(matches.lists, projectRowids(db, filters.projects), matches.rows, bound, n) : undefined;
    rows = filteredRanking(db, score, where, match, scoped && JSON.stringify(scoped.rowids), n);
    if (scoped && !scoped.every && rows.length < limit) rows = filteredRanking(db, score, where, match, undefined, n);
  }
  const several = rules.countOnce ? words.filter((forms) => forms.length > 1) : [];
  const pairs = rules.pairs > 0 ? pairsMatch(adjacentPairs(text)) : undefined;
  if ((several.length === 0 && !pairs) || rows.length < 2) return rows.slice(0, limit).map((r) => ({ id: r.id, score: -r.s }));
  // Each form of a word searched in several forms, and the query's adjacent pairs, scored alone
  // over these candidates (FTS5 weighs a phrase by its rarity in the whole index, as in the query
  // above). `+rowid`: the candidates are checked on the form's matches as they stream by; offered
  // to FTS5 as rowid lookups, each lookup counted the form's matches again (100 times slower at 50k chunks).
  const ids = JSON.stringify(rows.map((r) => r.r));
  const alone = prepared(db, `SELECT rowid AS r, ${score} AS s FROM chunks_fts WHERE chunks_fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))`);
  const scoresOf = (expr: string) => new Map((alone.all(expr, ids) as { r: number; s: number }[]).map((x) => [x.r, -x.s] as const));
  const formScores = several.map((fs) => fs.map((f) => scoresOf(matchOf([f])!)));
  // One pass for every pair: BM25 adds the phrases' scores up (./word-pairs.ts).
  const pairScores = pairs ? scoresOf(pairs) : undefined;
  return rows
    .map((r) => {
      const once = countOnce(-r.s, formScores.map((fs) => fs.map((m) => m.get(r.r) ?? 0)), rules.otherForms);
      return { id: r.id, score: withPairs(once, pairScores?.get(r.r) ?? 0, rules.pairs) };
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}
