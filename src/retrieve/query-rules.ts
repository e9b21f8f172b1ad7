/**
 * The query-side ranking rules, each a switch, so that each can be measured by taking it away
 * (`npm run bench:ablate`, docs/ranking.md "Which rules hold"). The defaults are
 * what ships; the benches turn one off at a time. Pure data.
 */

/**
 * The weight of the query's adjacent pairs (./word-pairs.ts), chosen on the tuning halves of the
 * dev sets (docs/benchmarks.md): 0.5 lost ADR's tuning half, 0.15 to 0.35 kept it.
 */
export const PAIR_WEIGHT = 0.3;

/** What the BM25 leg looks for besides the query's own words, and how it counts them. */
export interface QueryRules {
  /** A camelCase or PascalCase word of the query is also looked for as its words ("getUserName" → "get user name"). */
  identifierSplit: boolean;
  /** Names developers shorten find their long forms ("postgres" → "PostgreSQL", "sg" → "security group"). */
  aliases: boolean;
  /** English word forms the stemmer leaves apart find each other ("chose" → "choose"). */
  wordForms: boolean;
  /** A word found in several forms scores by its best form only (./count-once.ts), not by their sum. */
  countOnce: boolean;
  /** How much a word's other forms count against the word as written (1: the same; with `countOnce`). */
  otherForms: number;
  /**
   * How much two of the query's words found side by side, as they stand in the query, add to a
   * text's score (times the phrase's own BM25 score; 0: not looked for). ./word-pairs.ts.
   */
  pairs: number;
}

export const DEFAULT_QUERY_RULES: Readonly<QueryRules> = Object.freeze({ identifierSplit: true, aliases: true, wordForms: true, countOnce: true, otherForms: 1, pairs: PAIR_WEIGHT });
