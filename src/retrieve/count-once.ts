/**
 * A word counted once. BM25 adds up the scores of a query's phrases, and a word's other forms
 * (its alternatives in the vocabulary of the trade, an identifier's words: ./fts-query.ts
 * `searchConcepts`) are phrases of their own, each weighed by its own rarity. A text that writes
 * one word two ways ("PostgreSQL" and "postgres", "choice" and "chose", "LibreOffice" and "Libre
 * Office") was counted two or three times for it, and the rarer spelling weighed as a rare word:
 * such a text outranked one holding more of the question's words. Here a word scores by its best
 * form only. Pure.
 */

/**
 * A chunk's score with each word counted by its best form: `total` is BM25's sum over every
 * phrase; `words` holds, for each word searched in more than one form, the chunk's score for each
 * of its forms (0 where the form is absent), the question's own form first. The forms' sum is
 * replaced by their maximum, the other forms' scores weighed by `others` (1: as the word itself).
 */
export function countOnce(total: number, words: readonly (readonly number[])[], others = 1): number {
  let score = total;
  for (const forms of words) {
    if (forms.length < 2) continue;
    let sum = 0;
    let best = 0;
    forms.forEach((s, i) => {
      sum += s;
      const w = i === 0 ? s : s * others;
      if (w > best) best = w;
    });
    score += best - sum;
  }
  return score;
}
