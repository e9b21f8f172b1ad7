/**
 * The query-side ranking rules, each a switch, so that each can be measured by taking it away
 * (`npm run bench:ablate`, docs/ranking.md "Which rules hold"). The defaults are
 * what ships; the benches turn one off at a time. Pure data.
 */

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
}

export const DEFAULT_QUERY_RULES: Readonly<QueryRules> = Object.freeze({ identifierSplit: true, aliases: true, wordForms: true, countOnce: true, otherForms: 1 });
