/**
 * A small line chart in SVG, rendered on the server (no script): the prompt hook's answer times
 * over a span of time, with lines at the median and the 95th percentile. Pure.
 */
import { html, type Html } from "./html.js";

export const CHART = { width: 600, height: 160, left: 40, right: 8, top: 8, bottom: 20 } as const;
/** Points drawn at most: past it, the span is cut in as many slices and each slice's slowest drawn. */
export const MAX_POINTS = 300;

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
export function latencyChart(samples: readonly Sample[], from: number, to: number, p50: number, p95: number): Html {
  const { width, height, left, right, top, bottom } = CHART;
  const drawn = thin(samples, from, to);
  const top95 = Math.max(1, ...drawn.map((s) => s.ms), p95);
  const yMax = niceCeil(top95);
  const x = (at: number) => r1(left + ((at - from) / Math.max(1, to - from)) * (width - left - right));
  const y = (ms: number) => r1(top + (1 - Math.min(ms, yMax) / yMax) * (height - top - bottom));
  const points = drawn.map((s) => `${x(s.at)},${y(s.ms)}`).join(" ");
  const day = (t: number) => new Date(t).toISOString().slice(0, 10);
  return html`<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="prompt hook latency: median ${p50} ms, 95th percentile ${p95} ms" data-points="${drawn.length}" data-max="${yMax}">
<line class="axis" x1="${left}" y1="${height - bottom}" x2="${width - right}" y2="${height - bottom}"></line>
<line class="axis" x1="${left}" y1="${top}" x2="${left}" y2="${height - bottom}"></line>
<text x="${left - 4}" y="${top + 8}" text-anchor="end">${yMax} ms</text>
<text x="${left - 4}" y="${height - bottom}" text-anchor="end">0</text>
<text x="${left}" y="${height - 6}">${day(from)}</text>
<text x="${width - right}" y="${height - 6}" text-anchor="end">${day(to)}</text>
<line class="p50" x1="${left}" y1="${y(p50)}" x2="${width - right}" y2="${y(p50)}"><title>median ${p50} ms</title></line>
<line class="p95" x1="${left}" y1="${y(p95)}" x2="${width - right}" y2="${y(p95)}"><title>95th percentile ${p95} ms</title></line>
<polyline points="${points}"></polyline>
</svg>`;
}

/** A round number at or above `n`: 1, 2 or 5 times a power of ten. */
export function niceCeil(n: number): number {
  const p = 10 ** Math.floor(Math.log10(Math.max(n, 1)));
  for (const m of [1, 2, 5, 10]) if (m * p >= n) return m * p;
  return 10 * p;
}
