/**
 * Collapses near-duplicate results (the same note copied into two files, a session summary
 * repeating a decision verbatim). Pure: items in rank order in, first of each near-duplicate
 * group kept, with the ids it absorbed.
 */
/** Word 3-grams as numbers: each word gets a small id (per call), a 3-gram packs three ids. */
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
  const ids = new Map<string, number>();
  for (const item of items) {
    if (kept.length >= limit) break;
    const sh = shingles(textOf(item), ids);
    const twin = kept.find((k) => jaccard(k.sh, sh) >= threshold);
    if (twin) twin.duplicates.push(item.id);
    else kept.push({ item, duplicates: [], sh });
  }
  return kept.map(({ item, duplicates }) => ({ item, duplicates }));
}
