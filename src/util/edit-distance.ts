/**
 * Edit distance between two short strings: insertions, deletions, substitutions and swaps of two
 * neighbouring characters cost 1 ("clinet" is one edit from "client"; optimal string alignment),
 * with an early exit: past `max` it returns `max + 1`. Pure; O(a·b) time, O(b) memory.
 */
export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      cur.push(d);
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    before = prev;
    prev = cur;
  }
  return Math.min(prev[b.length]!, max + 1);
}

/**
 * The candidates a user most likely meant by `typed`: those within a few edits (one per four
 * characters, at least one), case aside, closest first; at most `limit`.
 */
export function closeMatches(typed: string, candidates: readonly string[], limit = 3): string[] {
  const t = typed.toLowerCase();
  const max = Math.max(1, Math.floor(t.length / 4));
  return candidates
    .map((c) => ({ c, d: editDistance(t, c.toLowerCase(), max) }))
    .filter((x) => x.d <= max)
    .sort((x, y) => x.d - y.d || x.c.localeCompare(y.c))
    .slice(0, limit)
    .map((x) => x.c);
}
