/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980), the one SQLite's
 * FTS5 `porter` tokenizer applies to the index: the injection judges a memory's words the way the
 * search matched them ("indexing", "indexer", "indexes" → "index"; "studies", "study" → "studi"),
 * and a long identifier no longer matches a common word by its first letters. Lower-case ASCII
 * words of 3 to 64 letters are stemmed; anything else (digits, other scripts, identifiers with
 * `_`) is only lower-cased, as FTS5 leaves it. Pure.
 */

const isVowelAt = (w: string, i: number): boolean => {
  const c = w[i];
  if (c === "a" || c === "e" || c === "i" || c === "o" || c === "u") return true;
  return c === "y" && i > 0 && !isVowelAt(w, i - 1);
};

/** m: the number of vowel-consonant sequences in `w` (the stem's "measure"). */
function measure(w: string): number {
  let m = 0;
  let i = 0;
  const n = w.length;
  while (i < n && !isVowelAt(w, i)) i++;
  while (i < n) {
    while (i < n && isVowelAt(w, i)) i++;
    if (i >= n) break;
    m++;
    while (i < n && !isVowelAt(w, i)) i++;
  }
  return m;
}

const hasVowel = (w: string) => {
  for (let i = 0; i < w.length; i++) if (isVowelAt(w, i)) return true;
  return false;
};
const doubleConsonant = (w: string) => w.length >= 2 && w[w.length - 1] === w[w.length - 2] && !isVowelAt(w, w.length - 1);
/** *o: the stem ends consonant-vowel-consonant, the last not w, x or y ("hop", not "hoop"). */
const cvc = (w: string) => {
  const n = w.length;
  if (n < 3 || isVowelAt(w, n - 1) || !isVowelAt(w, n - 2) || isVowelAt(w, n - 3)) return false;
  const c = w[n - 1];
  return c !== "w" && c !== "x" && c !== "y";
};

/** Replaces the first rule's suffix that `w` ends with, when its stem's measure exceeds `minM`. */
function rules(w: string, table: readonly (readonly [string, string])[], minM: number): string {
  for (const [suffix, by] of table) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    return measure(stem) > minM ? stem + by : w;
  }
  return w;
}

const STEP2: readonly (readonly [string, string])[] = [
  ["ational", "ate"], ["tional", "tion"], ["enci", "ence"], ["anci", "ance"], ["izer", "ize"], ["bli", "ble"], ["alli", "al"],
  ["entli", "ent"], ["eli", "e"], ["ousli", "ous"], ["ization", "ize"], ["ation", "ate"], ["ator", "ate"], ["alism", "al"],
  ["iveness", "ive"], ["fulness", "ful"], ["ousness", "ous"], ["aliti", "al"], ["iviti", "ive"], ["biliti", "ble"], ["logi", "log"],
];
const STEP3: readonly (readonly [string, string])[] = [["icate", "ic"], ["ative", ""], ["alize", "al"], ["iciti", "ic"], ["ical", "ic"], ["ful", ""], ["ness", ""]];
const STEP4 = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize"];

function step1(w0: string): string {
  let w = w0;
  if (w.endsWith("sses") || w.endsWith("ies")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  if (w.endsWith("eed")) return measure(w.slice(0, -3)) > 0 ? w.slice(0, -1) : w;
  const ed = w.endsWith("ed") ? 2 : w.endsWith("ing") ? 3 : 0;
  if (ed > 0 && hasVowel(w.slice(0, -ed))) {
    w = w.slice(0, -ed);
    if (w.endsWith("at") || w.endsWith("bl") || w.endsWith("iz")) return `${w}e`;
    if (doubleConsonant(w) && !/[lsz]$/.test(w)) return w.slice(0, -1);
    if (measure(w) === 1 && cvc(w)) return `${w}e`;
  }
  return w;
}

function step4(w: string): string {
  // Longest suffix first ("ement" before "ment" before "ent").
  const suffix = STEP4.filter((s) => w.endsWith(s)).sort((a, b) => b.length - a.length)[0];
  if (suffix === undefined) return w;
  const stem = w.slice(0, -suffix.length);
  if (suffix === "ion" && !/[st]$/.test(stem)) return w;
  return measure(stem) > 1 ? stem : w;
}

/** The Porter stem of one word (lower-cased first). */
export function porter(word: string): string {
  let w = word.toLowerCase();
  if (w.length < 3 || w.length > 64 || !/^[a-z]+$/.test(w)) return w;
  w = step1(w);
  if (w.endsWith("y") && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  w = rules(w, STEP2, 0);
  w = rules(w, STEP3, 0);
  w = step4(w);
  if (w.endsWith("e")) {
    const stem = w.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !cvc(stem))) w = stem;
  }
  if (measure(w) > 1 && doubleConsonant(w) && w.endsWith("l")) w = w.slice(0, -1);
  return w;
}
