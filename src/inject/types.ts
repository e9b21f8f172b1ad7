import type { Rarity } from "../retrieve/rarity.js";
import type { SearchResult } from "../retrieve/search.js";

/** What the injection knows of a search result. */
export type Candidate = Pick<SearchResult, "id" | "text" | "path" | "startLine" | "endLine" | "headingPath" | "kind" | "date" | "project" | "legs">;

export interface InjectOptions {
  /** The whole injection, frame included, in characters. */
  budgetChars: number;
  /** At most this many items (an item: adjacent lines of one memory or file). */
  maxItems: number;
  /** Minimum share of the prompt's content words a lexical match must contain, each word weighed by its rarity in the store. */
  minTermCoverage: number;
  /** Minimum cosine similarity for a match found only by the vector leg. */
  minSimilarity: number;
}

export const DEFAULT_INJECT: InjectOptions = { budgetChars: 2_000, maxItems: 20, minTermCoverage: 0.35, minSimilarity: 0.45 };

/** What the caller knows beside the candidates: a memory's flag, the day a captured session began. */
export interface Describe {
  /** A memory's flag ("possibly outdated: src/auth.c changed 3 days ago"), by chunk id. */
  note?: (id: string) => string | undefined;
  /** How rare each of the prompt's words is in the store (src/retrieve/rarity.ts); default: every word alike. */
  rarity?: Rarity;
  /** The vector leg as fusion weighed it for this prompt (src/retrieve/search.ts FusionReport): the floor's calibrated similarity. */
  vector?: { weight: number; spread: { mean: number; sd: number; n?: number } };
  /** What a result says of its sources after its kind: a record's status, date, authors, "team" (src/team/view.ts resultSources). */
  sources?: (id: string) => readonly string[] | undefined;
  /** The day (YYYY-MM-DD) a session began, when known. */
  sessionDay?: (session: string) => string | undefined;
}
