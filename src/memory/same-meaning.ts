/**
 * When are two memories one by meaning (where a model makes vectors)? Two memories of the same kind,
 * project and files whose vectors are closer than this store's threshold, and that a careful reader
 * could not tell apart by a value: the same numbers and versions (`ES256` is not `HS256`, `Postgres
 * 15` not `16`), both negated or neither, and at least one content word in common. Pure.
 *
 * The threshold is calibrated without labels on the store itself, as fusion's leg weight is
 * (src/retrieve/calibration.ts): the similarity of random pairs of the project's chunks is what this
 * model gives texts that are not the same statement; a pair counts as one only when it lies
 * `Z` standard deviations above their mean. A store too small to say stays as it is.
 */

/** Random pairs needed before the store's background similarity is trusted. */
export const MIN_PAIRS = 50;
/** Standard deviations above the background a pair must lie. */
export const Z = 4;
/** Whatever the background, never below this similarity, and at most this high. */
export const FLOOR = 0.3;
export const CEILING = 0.97;

/** The merge threshold from the similarities of random pairs; undefined when there are too few. */
export function meaningThreshold(background: readonly number[]): number | undefined {
  const xs = background.filter(Number.isFinite);
  if (xs.length < MIN_PAIRS) return undefined;
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length);
  return Math.min(CEILING, Math.max(FLOOR, mean + Z * sd));
}

const NEGATION = /\b(?:not|no|never|don't|doesn't|didn't|won't|can't|cannot|isn't|aren't|shouldn't|without|stop|stopped|avoid)\b/iu;
const STOP = new Set(["the", "and", "for", "with", "are", "was", "use", "now", "this", "that", "from", "into", "our", "all", "its", "has", "have", "will", "been", "they", "them", "their", "when", "then", "than"]);

const words = (t: string) => t.normalize("NFKC").toLowerCase().match(/[\p{L}\p{N}_]+(?:[.\-][\p{L}\p{N}_]+)*/gu) ?? [];
/** Words that carry a value: a digit in them (a version, a number, an algorithm's name). */
const values = (t: string) => new Set(words(t).filter((w) => /\p{N}/u.test(w)));
const content = (t: string) => new Set(words(t).filter((w) => w.length >= 3 && !STOP.has(w)));
const sameSet = (a: ReadonlySet<string>, b: ReadonlySet<string>) => a.size === b.size && [...a].every((x) => b.has(x));

export interface Statement {
  kind: string;
  text: string;
  files: readonly string[];
}

/** Whether two statements close in meaning may be one memory (the value checks above). */
export function mayBeOne(a: Statement, b: Statement): boolean {
  if (a.kind !== b.kind || !sameSet(new Set(a.files), new Set(b.files))) return false;
  if (!sameSet(values(a.text), values(b.text))) return false;
  if (NEGATION.test(a.text) !== NEGATION.test(b.text)) return false;
  const ca = content(a.text);
  return [...content(b.text)].some((w) => ca.has(w));
}
