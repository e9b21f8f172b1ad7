/**
 * Do two sentences say the same thing? Their content words (lower case, three letters or more,
 * a few common words out, a crude stem) overlap by a Jaccard index of at least `threshold` (0.5).
 * Used where a `[MEMORY: decision]` tag and the prose sentence beside it restate one decision:
 * they are one memory, not two. Pure.
 */
const STOP = new Set("the and for with that this from into over than then them they have has had was were are its our you your but not all any can will would should could also just very".split(" "));

export function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}_]{3,}/gu) ?? []) {
    if (STOP.has(w)) continue;
    out.add(w.length > 5 ? w.replace(/(?:ations?|ings?|ers?|ed|es|s|ly)$/, "").slice(0, 6) : w);
  }
  return out;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let both = 0;
  for (const w of a) if (b.has(w)) both++;
  return both / (a.size + b.size - both);
}

export function sameStatement(a: string, b: string, threshold = 0.5): boolean {
  return jaccard(contentWords(a), contentWords(b)) >= threshold;
}

/** Two decisions at least this alike (content-word Jaccard) are one decision captured twice. */
export const CONFIRM_THRESHOLD = 0.7;
