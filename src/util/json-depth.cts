/**
 * Bounds the nesting of parsed JSON. JSON.parse reads a document nested thousands of levels deep,
 * but JSON.stringify and every recursive walk after it (redaction, extraction) overflow the stack
 * on it. Hook payloads and transcript lines go through `truncateDeep` right after parsing, so a
 * pathological one is stored with its deep part cut, never dropped. CommonJS: the hook entry
 * bundles it.
 */

/** Objects and arrays are kept down to this level (the root is level 0); deeper ones become DEPTH_MARKER. */
export const MAX_JSON_DEPTH = 64;
export const DEPTH_MARKER = `[truncated: nested deeper than ${MAX_JSON_DEPTH} levels]`;

/**
 * `value` with every object or array at level `maxDepth` or deeper replaced by DEPTH_MARKER.
 * Never mutates: what has nothing to cut is returned as is, and only the path to a cut is copied.
 * Recursion never goes deeper than `maxDepth`.
 */
export function truncateDeep<T>(value: T, maxDepth = MAX_JSON_DEPTH): T {
  const cut = (v: unknown, depth: number): unknown => {
    if (v === null || typeof v !== "object") return v;
    if (depth >= maxDepth) return DEPTH_MARKER;
    if (Array.isArray(v)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const c = cut(v[i], depth + 1);
        if (c !== v[i]) (out ??= v.slice())[i] = c;
      }
      return out ?? v;
    }
    let out: Record<string, unknown> | undefined;
    for (const [k, x] of Object.entries(v)) {
      const c = cut(x, depth + 1);
      // defineProperty: a "__proto__" key from JSON.parse stays a plain own property
      if (c !== x) Object.defineProperty((out ??= { ...v }), k, { value: c, enumerable: true, writable: true, configurable: true });
    }
    return out ?? v;
  };
  return cut(value, 0) as T;
}
