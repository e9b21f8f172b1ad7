/**
 * When is a remembered statement the one already stored? The rule that makes an explicit memory
 * (`mem remember`, MCP `remember`) and a captured one (a `[MEMORY: …]` tag, a keyword decision)
 * one memory instead of two. Conservative on purpose: a merge can only be undone by hand, a
 * duplicate only costs a line. Pure.
 *
 * Two memories are the same when they are of the same kind and their texts have the same key:
 *   1. Unicode NFKC, lower case, curly apostrophes straightened;
 *   2. contractions spelt out ("don't" → "do not", "won't" → "will not", "we'll" → "we will");
 *   3. one lead-in dropped from the start: a label ("decision:", "lesson learned:", "note:", …)
 *      or a phrase that only announces the statement ("we decided to", "decided to", "let's",
 *      "we will", …);
 *   4. the words, in order: runs of letters and digits, kept whole across `.`, `/`, `-`, `:`,
 *      `@`, `+`, `#` between them (so `src/auth.c`, `1.2.3`, `node-20` are one word each), with
 *      a number's minus sign and a path's root (`-5`, `/tmp`, `~/tmp`), and the operators
 *      (`<`, `>=`, `==`, `!=`, `=`, `&&`, `||`) as words of their own;
 *   5. "a", "an", "the", "please" dropped, and a plural `s` off words of four letters or more.
 * Everything else counts: every other word, its place, every number, every negation. So "Use
 * Postgres" is "We decided to use the Postgres." but not "Don't use Postgres", "Use Postgres 15"
 * not "Use Postgres 16", "Prefer tabs over spaces" not "Prefer spaces over tabs".
 */

/** Kinds an explicit memory and a capture may both be (a task is merged by the task registry instead). */
export const MERGE_KINDS: ReadonlySet<string> = new Set(["decision", "rejected", "learned", "preference", "note"]);

const CONTRACTIONS: [RegExp, string][] = [
  [/\bwon't\b/g, "will not"],
  [/\bcan't\b/g, "can not"],
  [/\bcannot\b/g, "can not"],
  [/\bshan't\b/g, "shall not"],
  [/\b(\p{L}+)n't\b/gu, "$1 not"],
  [/\blet's\b/g, "let us"],
  [/\b(it|that|there|what|here|he|she)'s\b/g, "$1 is"],
  [/'ll\b/g, " will"],
  [/'re\b/g, " are"],
  [/'ve\b/g, " have"],
  [/'m\b/g, " am"],
  [/'d\b/g, " would"],
  [/'s\b/g, ""],
];

/** Labels and phrases that announce a statement without being part of it (one is dropped, at the start). */
const LEAD_IN =
  /^(?:(?:decision|decided|rejected|lessons? learned|lesson|learned|til|note|preference|gotcha)\s*:\s*|(?:(?:we|i)\s+(?:have\s+)?decided\s+(?:to|that|on)|decided\s+(?:to|that|on)|let\s+us|(?:we|i)\s+will)\s+)/u;

const FILLER: ReadonlySet<string> = new Set(["a", "an", "the", "please"]);

/**
 * A word (see above), with what makes it another value kept on it: a minus sign before a number
 * ("-5" is not "5"), the root of a path ("/tmp", "~/tmp", "./tmp" are not "tmp"); and each
 * comparison or logical operator as a word of its own ("status >= 500" is not "status < 500").
 */
const WORD = /(?:(?<![\p{L}\p{N}_])-(?=\p{N})|(?<![\p{L}\p{N}_.~/])(?:~|\.{1,2})?\/(?=[\p{L}\p{N}_]))?[\p{L}\p{N}_]+(?:[./:@+#-][\p{L}\p{N}_]+)*|[<>]=?|[!=]=+|=|&&|\|\|/gu;

const stem = (w: string) => (w.length >= 4 && /^\p{L}+$/u.test(w) && w.endsWith("s") && !/(?:ss|us|is)$/.test(w) ? w.slice(0, -1) : w);

/** A text's key (see above), or undefined when it has no word: such a text never merges. */
export function memoryKey(text: string): string | undefined {
  let t = text.normalize("NFKC").toLowerCase().replace(/[\u2018\u2019\u02bc]/g, "'");
  for (const [re, to] of CONTRACTIONS) t = t.replace(re, to);
  t = t.replace(/^[\s\p{P}\p{S}]+/u, "").replace(LEAD_IN, "");
  const words = (t.match(WORD) ?? []).filter((w) => !FILLER.has(w)).map(stem);
  return words.length > 0 ? words.join(" ") : undefined;
}

/** Whether two memories (of one project: the caller's wall) say the same thing by this rule. */
export function sameMemory(a: { kind: string; text: string }, b: { kind: string; text: string }): boolean {
  if (a.kind !== b.kind || !MERGE_KINDS.has(a.kind)) return false;
  const k = memoryKey(a.text);
  return k !== undefined && k === memoryKey(b.text);
}

/** Where a memory came from, strongest first: an explicit statement outranks a tag, a tag a keyword. */
const RANK = ["explicit", "tag", "keyword", "captured"];

export function strongestSource(sources: readonly string[]): string {
  const known = sources.map((s) => (RANK.includes(s) ? s : "captured"));
  return RANK.find((r) => known.includes(r)) ?? "captured";
}

/**
 * The confidence of one memory stated several times, each with its own confidence (0..1; none:
 * 1): the chance that not all of them are wrong (1 − Π(1 − cᵢ)). Never lower than the highest;
 * an explicit statement (1) makes it 1.
 */
export function mergedConfidence(cs: readonly (number | undefined)[]): number {
  let wrong = 1;
  for (const c of cs) wrong *= 1 - Math.min(1, Math.max(0, c ?? 1));
  return Math.round((1 - wrong) * 1000) / 1000;
}
