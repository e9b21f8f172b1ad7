/**
 * Compounds: a prompt's word the text writes joined to another word ("master" in "Puppetmaster",
 * "cache" in "ElastiCache", "backup" for "back up") or a prompt's compound the text writes as two
 * words ("autoscaling" in "Auto Scaling"). Word matching by stems misses both; the relevance floor
 * counts them as the word found. Pure.
 *
 * Precision: the rest of a compound must be a word-sized part (`COMPOUND_REST` letters or more), so
 * "base" is not found in "database", "test" not in "unittest", "port" not in "support"; and names
 * that are one word are no compound ("java" is not in "JavaScript": src/util/identifiers.ts).
 */
import { isUnitWord } from "../util/identifiers.js";

/** The fewest letters the rest of a compound must have besides the prompt's word. */
export const COMPOUND_REST = 6;
/** The shortest stem looked for inside a compound. */
const MIN_STEM = 3;

/**
 * Which of `missing` (stems) the text's words (`words`, lower case, in order) hold as a part of a
 * compound or as two adjacent words; added to `into`.
 */
export function compoundStems(words: readonly string[], missing: ReadonlySet<string>, stem: (w: string) => string, into: Set<string>): Set<string> {
  const wanted = [...missing].filter((s) => s.length >= MIN_STEM);
  if (wanted.length === 0) return into;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const next = words[i + 1];
    for (const s of wanted) {
      if (into.has(s)) continue;
      if (next !== undefined && s.startsWith(w) && s.length > w.length && stem(w + next) === s) into.add(s);
      else if (w.length >= s.length + COMPOUND_REST - 1 && !isUnitWord(w) && (headIs(w, s, stem) || tailIs(w, s, stem))) into.add(s);
    }
  }
  return into;
}

/** The word begins with a form of `s` and goes on for a word-sized rest ("puppetmaster" for "puppet"). */
function headIs(w: string, s: string, stem: (w: string) => string): boolean {
  if (!w.startsWith(s.slice(0, s.length - 1))) return false;
  for (let k = s.length - 1; k <= s.length + 3 && w.length - k >= COMPOUND_REST; k++) if (stem(w.slice(0, k)) === s) return true;
  return false;
}

/** The word ends with a form of `s` after a word-sized head ("elasticache" for "cache"). */
function tailIs(w: string, s: string, stem: (w: string) => string): boolean {
  const probe = s.slice(0, Math.max(MIN_STEM, s.length - 1));
  for (let at = w.indexOf(probe, COMPOUND_REST); at !== -1; at = w.indexOf(probe, at + 1)) if (stem(w.slice(at)) === s) return true;
  return false;
}
