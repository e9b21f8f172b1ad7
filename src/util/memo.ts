/**
 * A bounded memo for a pure function of a string: the daemon meets the same chunks prompt after
 * prompt (their redaction, their words), and a prompt's answer is on the hook's critical path.
 * Emptied when full (no LRU bookkeeping on the hot path).
 */
export function memoized<V>(f: (key: string) => V, max: number): ((key: string) => V) & { readonly size: number } {
  const seen = new Map<string, V>();
  const g = (key: string): V => {
    let v = seen.get(key);
    if (v === undefined && !seen.has(key)) {
      v = f(key);
      if (seen.size >= max) seen.clear();
      seen.set(key, v);
    }
    return v as V;
  };
  Object.defineProperty(g, "size", { get: () => seen.size });
  return g as typeof g & { readonly size: number };
}
