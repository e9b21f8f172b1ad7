/**
 * Collapses near-duplicate results (the same note copied into two files, a session summary
 * repeating a decision verbatim). Pure: items in rank order in, first of each near-duplicate
 * group kept, with the ids it absorbed.
 */
/**
 * Word ids shared by every call, and each text's 3-grams, remembered: a search meets the same
 * chunks again and again. Both are emptied together, between calls (the 3-grams compared within
 * one call always share their ids), well before the ids run out of their 17 bits.
 */
const WORD_IDS = new Map<string, number>();
const SHINGLES = new Map<string, Set<number>>();
const MAX_TEXTS = 4_000;
const MAX_WORDS = 0x20000 - 40_000;

function shinglesOf(text: string): Set<number> {
  let sh = SHINGLES.get(text);
  if (sh === undefined) SHINGLES.set(text, (sh = shingles(text, WORD_IDS)));
  return sh;
}

/** Word 3-grams as numbers: each word gets a small id, a 3-gram packs three ids. */
function shingles(text: string, ids: Map<string, number>): Set<number> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const id = (w: string) => {
    let v = ids.get(w);
    if (v === undefined) ids.set(w, (v = ids.size % 0x20000)); // 17 bits: three fit in a safe integer
    return v;
  };
  const out = new Set<number>();
  if (words.length < 3) {
    if (words.length > 0) out.add(words.reduce((h, w) => h * 0x20000 + id(w), 1));
    return out;
  }
  let a = id(words[0]!);
  let b = id(words[1]!);
  for (let i = 2; i < words.length; i++) {
    const c = id(words[i]!);
    out.add((a * 0x20000 + b) * 0x20000 + c);
    a = b;
    b = c;
  }
  return out;
}

export function jaccard<T>(a: Set<T>, b: Set<T>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const s of small) if (large.has(s)) inter++;
  return inter / (a.size + b.size - inter);
}

export function collapseNearDuplicates<T extends { id: string }>(
  items: T[],
  textOf: (t: T) => string,
  threshold: number,
  /** Stop once this many groups are kept (later items cannot change them). */
  limit = Number.POSITIVE_INFINITY,
): { item: T; duplicates: string[] }[] {
  const kept: { item: T; duplicates: string[]; sh: Set<number> }[] = [];
  if (WORD_IDS.size >= MAX_WORDS || SHINGLES.size >= MAX_TEXTS) {
    WORD_IDS.clear();
    SHINGLES.clear();
  }
  for (const item of items) {
    if (kept.length >= limit) break;
    const sh = shinglesOf(textOf(item));
    // Jaccard is at most the smaller set's size over the larger's: most pairs are ruled out by size.
    const twin = kept.find((k) => Math.min(k.sh.size, sh.size) >= threshold * Math.max(k.sh.size, sh.size) && jaccard(k.sh, sh) >= threshold);
    if (twin) twin.duplicates.push(item.id);
    else kept.push({ item, duplicates: [], sh });
  }
  return kept.map(({ item, duplicates }) => ({ item, duplicates }));
}
