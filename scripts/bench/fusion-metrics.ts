/**
 * bench:fusion's measures, per question and in the table. Pure.
 *  - Ranking (`mem query`, k 10): R@1 and R@5 the share of the question's evidence in the top 1 /
 *    5 results (LoCoMo: evidence turns, as bench:locomo's R@5; ADR: whether an answer record is
 *    there, any of them), MRR the reciprocal rank of the first result holding some evidence (0
 *    past the 10th).
 *  - The prompt hook: context recall (LoCoMo: share of evidence turns in what it injects; ADR: an
 *    answer record among the files it shows), hit (some evidence injected), nothing injected.
 *  - Off-topic: the share of prompts no memory answers that got something injected.
 */
export interface Ranks {
  r1: number;
  r5: number;
  rr: number;
}

export interface HookOutcome {
  recall: number;
  nothing: boolean;
}

/** 1 / the rank of the first item that `relevant` accepts, 0 when none does. */
export function reciprocalRank<T>(items: readonly T[], relevant: (x: T) => boolean): number {
  const i = items.findIndex(relevant);
  return i < 0 ? 0 : 1 / (i + 1);
}

export const mean = (xs: readonly number[]) => (xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length);

/** The decision records (`0008-name.md`) an injected context shows, by their file name. */
export function recordsIn(context: string): Set<string> {
  return new Set([...context.matchAll(/\b(\d{4}-[^\s:/]+?\.md):\d+/g)].map((m) => m[1]!));
}

export interface Row {
  set: string;
  leg: string;
  mode: string;
  n: number;
  r1: number;
  r5: number;
  mrr: number;
  /** Undefined when the prompt hook was not asked (a vector-only ranking). */
  hook?: { recall: number; hit: number; nothing: number };
  offTopic?: { n: number; injected: number };
}

/** A row over the questions `ids` (those with no ranking count as missed). */
export function row(set: string, leg: string, mode: string, ids: readonly string[], ranks: ReadonlyMap<string, Ranks>, hook?: ReadonlyMap<string, HookOutcome>, offTopic?: readonly boolean[]): Row {
  const rk = ids.map((id) => ranks.get(id) ?? { r1: 0, r5: 0, rr: 0 });
  const hk = hook ? ids.map((id) => hook.get(id) ?? { recall: 0, nothing: true }) : undefined;
  return {
    set,
    leg,
    mode,
    n: ids.length,
    r1: mean(rk.map((r) => r.r1)),
    r5: mean(rk.map((r) => r.r5)),
    mrr: mean(rk.map((r) => r.rr)),
    ...(hk ? { hook: { recall: mean(hk.map((h) => h.recall)), hit: mean(hk.map((h) => (h.recall > 0 ? 1 : 0))), nothing: mean(hk.map((h) => (h.nothing ? 1 : 0))) } } : {}),
    ...(offTopic && offTopic.length > 0 ? { offTopic: { n: offTopic.length, injected: mean(offTopic.map((x) => (x ? 1 : 0))) } } : {}),
  };
}

const pct = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? "-" : (100 * x).toFixed(1));

/** The rows as a markdown table. */
export function table(rows: readonly Row[]): string[] {
  const out = [
    "| set | vector leg | ranking | n | R@1 | R@5 | MRR | context recall | hook hit | nothing injected | off-topic injected |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    const off = r.offTopic ? `${pct(r.offTopic.injected)} (of ${r.offTopic.n})` : "-";
    out.push(`| ${r.set} | ${r.leg} | ${r.mode} | ${r.n} | ${pct(r.r1)} | ${pct(r.r5)} | ${pct(r.mrr)} | ${pct(r.hook?.recall)} | ${pct(r.hook?.hit)} | ${pct(r.hook?.nothing)} | ${off} |`);
  }
  return out;
}
