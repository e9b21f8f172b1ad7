/**
 * Levenshtein distance between two short strings (insertions, deletions and substitutions cost 1),
 * with an early exit: past `max` it returns `max + 1`. Pure; O(a·b) time, O(b) memory.
 */
export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(d);
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
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
