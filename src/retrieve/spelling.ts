/**
 * British and American spellings of one word ("licence"/"license", "organise"/"organize",
 * "colour"/"color", "centre"/"center", "catalogue"/"catalog", "analyse"/"analyze"), which the
 * Porter stemmer leaves apart ("licenc" is not "licens"): a search for one also looks for the
 * other (./fts-query.ts). Each rule rewrites a word's ending and keeps a few letters before it, so
 * short words are left alone ("four", "our", "log", "size"). A rewritten form that is no word
 * ("vendour") matches nothing; counted once with the word (./count-once.ts), a form never adds
 * to it. Pure.
 */

/** [a word's ending, the other spelling's], with the least letters kept before the ending. */
const RULES: readonly [RegExp, string][] = [
  [/^(.{3,})is(e|ed|es|ing|ation|ations|er|ers)$/, "$1iz$2"],
  [/^(.{3,})iz(e|ed|es|ing|ation|ations|er|ers)$/, "$1is$2"],
  [/^(.{2,})ys(e|ed|es|ing)$/, "$1yz$2"],
  [/^(.{2,})yz(e|ed|es|ing)$/, "$1ys$2"],
  [/^(.{3,})our(s|ed|ing|able|ite|ites)?$/, "$1or$2"],
  [/^(.{2,}[^aeou])or(s|ed|ing|able|ite|ites)?$/, "$1our$2"],
  [/^(.{2,}[^aeiou])tre(s|d)?$/, "$1ter$2"],
  [/^(.{2,}[^aeiou])ter(s|ed)?$/, "$1tre$2"],
  [/^(.{2,})ence(s)?$/, "$1ense$2"],
  [/^(.{2,})ense(s)?$/, "$1ence$2"],
  [/^(.{3,})ogue(s)?$/, "$1og$2"],
  [/^(.{3,})og(s)?$/, "$1ogue$2"],
];

/** The other spellings of a lower-case word (none for most words). */
export function spellingVariants(word: string): string[] {
  if (!/^[a-z]+$/.test(word)) return [];
  const out = new Set<string>();
  for (const [re, to] of RULES) if (re.test(word)) out.add(word.replace(re, to));
  out.delete(word);
  return [...out];
}
