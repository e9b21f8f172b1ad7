/**
 * A word's Porter stem as the search's index has it: what the floor, the prompt's content words
 * and the evidence selection compare. Remembered (the daemon stems the same words prompt after
 * prompt). Pure but for its memo.
 */
import { porter } from "./porter.js";

/** Stems already computed; emptied when full. */
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
