/**
 * Collapses near-duplicate results (the same note copied into two files, a session summary
 * repeating a decision verbatim). Pure: items in rank order in, first of each near-duplicate
 * group kept, with the ids it absorbed.
 */
function shingles(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const out = new Set<string>();
  if (words.length < 3) {
    if (words.length > 0) out.add(words.join(" "));
    return out;
  }
  for (let i = 0; i + 3 <= words.length; i++) out.add(`${words[i]} ${words[i + 1]} ${words[i + 2]}`);
  return out;
}

export function jaccard(a: Set<string>, b: Set<string>): number {
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
  limit = Infinity,
): { item: T; duplicates: string[] }[] {
  const kept: { item: T; duplicates: string[]; sh: Set<string> }[] = [];
  for (const item of items) {
    if (kept.length >= limit) break;
    const sh = shingles(textOf(item));
    const twin = kept.find((k) => jaccard(k.sh, sh) >= threshold);
    if (twin) twin.duplicates.push(item.id);
    else kept.push({ item, duplicates: [], sh });
  }
  return kept.map(({ item, duplicates }) => ({ item, duplicates }));
}
