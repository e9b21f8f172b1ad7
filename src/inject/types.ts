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

/**
 * The relevance floor's word-matching rules, each a switch so that each can be measured by taking
 * it away (docs/ranking.md "Which rules hold"); the defaults are what ships.
 */
export interface FloorRules {
  /** A prompt's word counts as held when the text holds one of its other forms in the vocabulary (src/retrieve/vocabulary.ts). */
  alternatives: boolean;
  /** A prompt's word counts as held inside a compound of the text or as two of its words (./compounds.ts). */
  compounds: boolean;
  /** The words of the text's camelCase identifiers count as its words ("user" in getUserName). */
  identifierWords: boolean;
  /** A chunk is judged with the other chunks of its file among the results (./record-floor.ts). */
  record: boolean;
  /** A result ranked above one that passed, holding two of the prompt's words, passes (./ranked-floor.ts). */
  ranked: boolean;
}

export const DEFAULT_FLOOR_RULES: Readonly<FloorRules> = Object.freeze({ alternatives: true, compounds: true, identifierWords: true, record: true, ranked: true });

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
  /** The floor's rules (default `DEFAULT_FLOOR_RULES`). */
  floorRules?: Readonly<FloorRules>;
}
