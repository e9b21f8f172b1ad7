/**
 * The held-out discipline of the benches: every dev question is either in the tuning half (rules
 * may be chosen on it) or in the checking half (rules are judged on it), fixed once by its id. Pure.
 *
 * Rule: FNV-1a (32 bits) of the question's id as written in the data (LoCoMo `qid`, adr-2 `qid`,
 * `adr-N` for the questions of adr-questions.json, N from 1 in file order); an even hash is the
 * tuning half, an odd one the checking half. The rule is written down in docs/ranking.md.
 */
export type Half = "tuning" | "checking";

/** FNV-1a, 32 bits, of a string's UTF-16 code units. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export const halfOf = (id: string): Half => (fnv1a(id) % 2 === 0 ? "tuning" : "checking");

/** The ids of one half, in their order. */
export const inHalf = (ids: readonly string[], half: Half): string[] => ids.filter((id) => halfOf(id) === half);
