/**
 * Which words of a query git searches for. `git log` can look for a string in commit messages
 * (`--grep`) and in the lines a commit added or removed (`-G`), but it cannot rank: every commit
 * that matches one of the words counts. So the words must be few and distinctive: the query's
 * content words (stop words out, as for BM25), at least 3 characters long, the longest first
 * (a long word is rarer), at most `max`. Pure.
 */
import { queryTerms } from "../retrieve/fts-query.js";

export const MAX_GIT_TERMS = 4;

export function gitTerms(text: string, max = MAX_GIT_TERMS): string[] {
  const words = queryTerms(text);
  const long = words.filter((w) => [...w].length >= 3);
  const pool = long.length > 0 ? long : words.filter((w) => [...w].length >= 2);
  return pool
    .map((w, i) => ({ w, i }))
    .sort((a, b) => [...b.w].length - [...a.w].length || a.i - b.i)
    .slice(0, max)
    .map((x) => x.w);
}

/** An extended regular expression (what `git log -G` takes) matching any of `terms` literally. */
export function alternation(terms: readonly string[]): string {
  return terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
}

/** The terms (lowercase) found in `text`, case-insensitively. */
export function termsIn(text: string, terms: readonly string[]): string[] {
  const lower = text.toLowerCase();
  return terms.filter((t) => lower.includes(t));
}
