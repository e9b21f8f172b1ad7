/**
 * What became of each result of a prompt's search, in words: put before the prompt, stopped by the
 * relevance floor (its verdict), left out by the selection (the budget, the item cap, or no line
 * of it worth showing), or excluded before the floor (already shown in this session, another
 * user's profile). Read off the trace the injection itself was made with (`traceInjection`), so
 * the prompt log says exactly what the hook did. Pure; a small array per prompt.
 */
import type { EvidenceTrace, InjectionTrace } from "./format.js";

/** One result's fate (the prompt log's shape, src/store/prompt-log.ts). */
export interface Fate {
  id: string;
  /** 1-based, in the search's order. */
  rank: number;
  fate: "injected" | "floor" | "budget" | "excluded";
  why: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Why the selection left some (or all) of a result's pieces out. */
function leftOut(e: EvidenceTrace): string[] {
  const parts: string[] = [];
  if (e.budget > 0) parts.push(`${plural(e.budget, "piece")} cut by the budget`);
  if (e.maxItems > 0) parts.push(`${plural(e.maxItems, "piece")} cut by the item cap`);
  if (e.unscored > 0) parts.push(`${plural(e.unscored, "piece")} holding no word of the prompt`);
  if (e.elsewhere > 0) parts.push(`${plural(e.elsewhere, "piece")} shown from a better ranked result`);
  return parts;
}

/**
 * The fates of `results` (every result of the search, in order): `excluded` says why one was left
 * out before the floor; the others are `traced` (the candidates the trace ran on, in its order).
 */
export function fatesOf(results: readonly { id: string }[], excluded: (id: string) => string | undefined, traced: readonly { id: string }[], trace: InjectionTrace): Fate[] {
  const at = new Map(traced.map((r, i) => [r.id, i]));
  const injected = new Set(trace.injection?.ids ?? []);
  return results.map((r, i): Fate => {
    const rank = i + 1;
    const ex = excluded(r.id);
    const k = at.get(r.id);
    if (ex !== undefined || k === undefined) return { id: r.id, rank, fate: "excluded", why: ex ?? "excluded before the floor" };
    const verdict = trace.floor[k];
    if (verdict && !verdict.pass) return { id: r.id, rank, fate: "floor", why: `missed the floor: ${verdict.reason}` };
    const passed = verdict ? `passed the floor: ${verdict.reason}` : "passed the floor";
    const e = trace.evidence[k];
    if (injected.has(r.id)) {
      const shown = e ? `${plural(e.linesShown, "line")} shown` : "shown";
      const rest = e ? leftOut(e) : [];
      return { id: r.id, rank, fate: "injected", why: [shown, ...rest].join("; ") };
    }
    const why = e ? leftOut(e) : [];
    return { id: r.id, rank, fate: "budget", why: `${passed}; left out by the selection${why.length > 0 ? `: ${why.join(", ")}` : ""}` };
  });
}
