/**
 * The relevance floor: whether a prompt is about anything stored, so that a prompt about nothing
 * stored injects nothing. Words are compared by their Porter stems, as the search's index compares
 * them, and weighed by how rare they are in the store (`Rarity`): a memory that holds the prompt's
 * rare words is about it; one that shares only its common words may not be. Pure.
 */
import { memoized } from "../util/memo.js";
import { porter } from "./porter.js";
import type { Candidate, InjectOptions } from "./types.js";

/** Stems already computed (the daemon stems the same words prompt after prompt); emptied when full. */
const memo = new Map<string, string>();
const MEMO_MAX = 50_000;

/** A word's stem as the index has it (lower case, diacritics off, as the index's tokenizer takes them). */
export function stem(word: string): string {
  let s = memo.get(word);
  if (s === undefined) {
    s = porter(/^[a-z]*$/.test(word) ? word : word.toLowerCase().normalize("NFD").replace(/\p{M}/gu, ""));
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(word, s);
  }
  return s;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** How much a word (its stem) tells apart: an inverse document frequency, at least 0. */
export type Rarity = (stem: string) => number;

/** Every word alike: what the floor counts without the store's statistics. */
export const EVEN: Rarity = () => 1;

/** The BM25 inverse document frequency of a stem found in `df` of `n` documents. */
export const idf = (df: number, n: number) => Math.log(1 + (Math.max(0, n - df) + 0.5) / (df + 0.5));

/** Which of `wanted` (stems) the text's words have. */
export function stemsFound(text: string, wanted: ReadonlySet<string>, into = new Set<string>()): Set<string> {
  if (wanted.size === 0) return into;
  const all = stemsOf(text);
  for (const s of wanted) if (all.has(s)) into.add(s);
  return into;
}

/**
 * Every stem of a text's words, remembered per text: the daemon meets the same chunks and lines
 * prompt after prompt, with other words wanted each time.
 */
const stemsOf = memoized((text: string): ReadonlySet<string> => {
  const out = new Set<string>();
  for (const w of new Set(text.toLowerCase().match(WORD) ?? [])) out.add(stem(w));
  return out;
}, 8_000);

/** Share of the prompt's content stems present in the text, each weighed by its rarity (0 to 1). */
export function termCoverage(stems: readonly string[], text: string, rarity: Rarity = EVEN): number {
  const wanted = new Set(stems);
  const total = [...wanted].reduce((s, t) => s + rarity(t), 0);
  if (total <= 0) return 0;
  return [...stemsFound(text, wanted)].reduce((s, t) => s + rarity(t), 0) / total;
}

/**
 * The floor for one result: a vector match close enough, or a lexical match that holds at least
 * two of the prompt's content words (one word alone cannot tell its sense) and at least
 * `minTermCoverage` of their weight.
 */
export function passesFloor(c: Candidate, stems: readonly string[], o: InjectOptions, rarity: Rarity = EVEN): boolean {
  if (c.legs.vector && c.legs.vector.score >= o.minSimilarity) return true;
  const wanted = new Set(stems);
  const found = stemsFound(`${c.headingPath.join(" ")} ${c.text}`, wanted);
  if (found.size < 2) return false;
  const total = [...wanted].reduce((s, t) => s + rarity(t), 0);
  return total > 0 && [...found].reduce((s, t) => s + rarity(t), 0) / total >= o.minTermCoverage;
}
