/**
 * A small chart in SVG, rendered on the server (no script): the prompt hook's answer times over a
 * span of time, with lines at the median and the 95th percentile. Many runs are a line; a few
 * (a new store's) are dots, each with its time and latency on hover, and the time axis closes in
 * on them when they fill a small part of the span, so a handful of runs never reads as one spike. Pure.
 */
import { html, type Html } from "./html.js";

export const CHART = { width: 600, height: 160, left: 40, right: 8, top: 8, bottom: 20 } as const;
/** Points drawn at most: past it, the span is cut in as many slices and each slice's slowest drawn. */
export const MAX_POINTS = 300;
/** Up to this many runs are drawn as dots, not a line. */
export const FEW_POINTS = 20;

export interface Sample {
  at: number;
  ms: number;
}

/** The samples to draw: all of them, or the slowest of each of MAX_POINTS slices of the span. */
export function thin(samples: readonly Sample[], from: number, to: number): Sample[] {
  if (samples.length <= MAX_POINTS) return [...samples];
  const width = Math.max(1, to - from) / MAX_POINTS;
  const slices = new Map<number, Sample>();
  for (const s of samples) {
    const k = Math.min(MAX_POINTS - 1, Math.max(0, Math.floor((s.at - from) / width)));
    const had = slices.get(k);
    if (!had || s.ms > had.ms) slices.set(k, s);
  }
  return [...slices.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => s);
}

const r1 = (n: number) => Math.round(n * 10) / 10;

/** The chart of `samples` (oldest first) between `from` and `to` (ms epoch), with `p50` and `p95` marked. */
export function latencyChart(samples: readonly Sample[], spanFrom: number, spanTo: number, p50: number, p95: number): Html {
  const { width, height, left, right, top, bottom } = CHART;
  const drawn = thin(samples, spanFrom, spanTo);
  const few = drawn.length <= FEW_POINTS;
  const [from, to] = few ? closeIn(drawn, spanFrom, spanTo) : [spanFrom, spanTo];
  const top95 = Math.max(1, ...drawn.map((s) => s.ms), p95);
  const yMax = niceCeil(top95);
  const x = (at: number) => r1(left + ((at - from) / Math.max(1, to - from)) * (width - left - right));
  const y = (ms: number) => r1(top + (1 - Math.min(ms, yMax) / yMax) * (height - top - bottom));
  const points = drawn.map((s) => `${x(s.at)},${y(s.ms)}`).join(" ");
  // A span of hours: the axis says the time too; of a minute or two, to the second.
  const digits = to - from < 2 * MINUTE_MS ? 19 : to - from < 2 * DAY_MS ? 16 : 10;
  const day = (t: number) => new Date(t).toISOString().slice(0, digits).replace("T", " ");
  const marks = few
    ? drawn.map((s) => html`<circle class="point" cx="${x(s.at)}" cy="${y(s.ms)}" r="3.5"><title>${r1(s.ms)} ms at ${new Date(s.at).toISOString().slice(0, 19).replace("T", " ")} UTC</title></circle>`)
    : html`<polyline points="${points}"></polyline>`;
  return html`<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="prompt hook latency: median ${p50} ms, 95th percentile ${p95} ms" data-points="${drawn.length}" data-max="${yMax}" data-shape="${few ? "points" : "line"}">
<line class="axis" x1="${left}" y1="${height - bottom}" x2="${width - right}" y2="${height - bottom}"></line>
<line class="axis" x1="${left}" y1="${top}" x2="${left}" y2="${height - bottom}"></line>
<text x="${left - 4}" y="${top + 8}" text-anchor="end">${yMax} ms</text>
<text x="${left - 4}" y="${height - bottom}" text-anchor="end">0</text>
<text x="${left}" y="${height - 6}">${day(from)}</text>
<text x="${width - right}" y="${height - 6}" text-anchor="end">${day(to)}</text>
<line class="p50" x1="${left}" y1="${y(p50)}" x2="${width - right}" y2="${y(p50)}"><title>median ${p50} ms</title></line>
<line class="p95" x1="${left}" y1="${y(p95)}" x2="${width - right}" y2="${y(p95)}"><title>95th percentile ${p95} ms</title></line>
${marks}
</svg>`;
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const SECOND_MS = 1_000;

/**
 * The time axis for a few runs: the whole span, unless they fill less than a tenth of it; then
 * their own span with a tenth of it (at least a second) each side, inside the whole span: runs
 * seconds apart are told apart, a lone one sits in the middle.
 */
export function closeIn(drawn: readonly Sample[], from: number, to: number): [number, number] {
  if (drawn.length === 0) return [from, to];
  const first = Math.min(...drawn.map((s) => s.at));
  const last = Math.max(...drawn.map((s) => s.at));
  if (last - first >= (to - from) / 10) return [from, to];
  const pad = Math.max(SECOND_MS, (last - first) * 0.1);
  return [Math.max(from, first - pad), Math.min(to, last + pad)];
}

/** A round number at or above `n`: 1, 2 or 5 times a power of ten. */
export function niceCeil(n: number): number {
  const p = 10 ** Math.floor(Math.log10(Math.max(n, 1)));
  for (const m of [1, 2, 5, 10]) if (m * p >= n) return m * p;
  return 10 * p;
}
