/**
 * Words side by side. BM25 scores each word of a question apart: a text holding "release" in one
 * section and "notes" in another scores as one that says "release notes". Two words of the
 * question that stand next to each other in it are also looked for as a phrase, over the
 * candidates the words found, and a text holding the phrase gains `QueryRules.pairs` times its
 * BM25 score (the phrase weighed by its own rarity, as FTS5 weighs any phrase). It only reorders:
 * a text holding none of the question's words is not found through a pair. This is the ordered
 * window of the sequential dependence model (Metzler and Croft, 2005) over adjacent words. Pure.
 */
import { queryTerms } from "./fts-query.js";

/**
 * At most this many pairs are looked for (a long prompt's first ones): each is one more walk of
 * its two words' positions. The dev sets' questions have 12 at most (616 questions).
 */
export const MAX_PAIRS = 16;

/**
 * The pairs of words that stand next to each other in `text` and are both words the search looks
 * for (`queryTerms`: not a stop word), lower case, each pair once, as FTS5 phrases ("release
 * notes"). A stop word between two words parts them: "the choice of broker" gives no pair.
 */
export function adjacentPairs(text: string): string[] {
  const terms = new Set(queryTerms(text));
  const words = text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < words.length && pairs.size < MAX_PAIRS; i++) {
    const a = words[i]!;
    const b = words[i + 1]!;
    if (a !== b && terms.has(a) && terms.has(b)) pairs.add(`${a} ${b}`);
  }
  return [...pairs];
}

/** The FTS5 expression for the pairs (each a quoted phrase, OR-joined: BM25 adds their scores up); `undefined` for none. */
export function pairsMatch(pairs: readonly string[]): string | undefined {
  return pairs.length === 0 ? undefined : pairs.map((p) => `"${p}"`).join(" OR ");
}

/** A text's score with the pairs it holds: its words' score plus `weight` times the pairs' BM25 score (0 when it holds none). */
export function withPairs(score: number, pairScore: number, weight: number): number {
  return pairScore > 0 && weight > 0 ? score + weight * pairScore : score;
}
