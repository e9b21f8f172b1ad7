/** The latency chart's pure pieces: the scale's round top, the thinning of many runs, the percentiles. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { percentile } from "../../src/health/measures.js";
import { closeIn, FEW_POINTS, latencyChart, MAX_POINTS, niceCeil, thin } from "../../src/web/chart.js";

test("niceCeil: 1, 2 or 5 times a power of ten, at or above", () => {
  for (const [n, want] of [[0, 1], [1, 1], [1.5, 2], [3, 5], [7, 10], [10, 10], [11, 20], [200, 200], [201, 500], [999, 1000], [4_321, 5_000]] as const) assert.equal(niceCeil(n), want, String(n));
});

test("percentile: nearest rank", () => {
  const xs = [10, 20, 30, 40, 200];
  for (const [p, want] of [[0, 10], [0.2, 10], [0.5, 30], [0.8, 40], [0.95, 200], [1, 200]] as const) assert.equal(percentile(xs, p), want, String(p));
  assert.equal(percentile([], 0.5), undefined);
  assert.equal(percentile([7], 0.95), 7);
});

test("thin: every run when few; the slowest of each slice when many, oldest first", () => {
  const few = [{ at: 1, ms: 5 }, { at: 2, ms: 9 }];
  assert.deepEqual(thin(few, 0, 10), few);
  const many = Array.from({ length: 10_000 }, (_, i) => ({ at: i, ms: i % 7 === 0 ? 100 : 1 }));
  const drawn = thin(many, 0, 10_000);
  assert.equal(drawn.length, MAX_POINTS);
  for (let i = 1; i < drawn.length; i++) assert.ok(drawn[i]!.at > drawn[i - 1]!.at);
  assert.ok(drawn.every((s) => s.ms === 100), "a slice's slowest run is the one drawn");
});

test("latencyChart: an svg.chart, one point per run, escaped labels, the p95 line above the p50 line", () => {
  const svg = latencyChart([{ at: 0, ms: 10 }, { at: 50, ms: 40 }, { at: 100, ms: 80 }], 0, 100, 40, 80).value;
  assert.match(svg, /^<svg class="chart"/);
  assert.match(svg, /data-points="3"/);
  assert.match(svg, /data-shape="points"/, "three runs: dots, not a line");
  const points = [...svg.matchAll(/<circle class="point" cx="([\d.]+)" cy="([\d.]+)"/g)].map((m) => `${m[1]},${m[2]}`);
  assert.match(svg, /data-max="100"/, "80 ms rounds up to a 100 ms scale");
  assert.deepEqual(points, ["40,126.8", "316,87.2", "592,34.4"], "x across 40..592, y down from 8 (100 ms) to 140 (0)");
  const y = (cls: string) => Number(new RegExp(`<line class="${cls}" x1="[\\d.]+" y1="([\\d.]+)"`).exec(svg)![1]);
  assert.ok(y("p95") < y("p50"));
  assert.doesNotMatch(svg, /<script|style=/);
});

test("closeIn: the whole span, unless a few runs fill under a tenth of it; then theirs, a tenth of it (at least a second) wider each side", () => {
  const H = 3_600_000;
  const D = 24 * H;
  const cases: [string, number[], [number, number], [number, number]][] = [
    ["no run: the span", [], [0, 7 * D], [0, 7 * D]],
    ["runs across the span: the span", [D, 6 * D], [0, 7 * D], [0, 7 * D]],
    ["one run: a second each side", [3 * D], [0, 7 * D], [3 * D - 1_000, 3 * D + 1_000]],
    ["two runs two seconds apart: a second wider each side", [3 * D, 3 * D + 2_000], [0, 7 * D], [3 * D - 1_000, 3 * D + 3_000]],
    ["runs of five hours in a week: their hours, half an hour wider", [6 * D, 6 * D + 5 * H], [0, 7 * D], [6 * D - 0.5 * H, 6 * D + 5.5 * H]],
    ["never past the span's end", [7 * D - 500], [0, 7 * D], [7 * D - 1_500, 7 * D]],
  ];
  for (const [what, ats, span, want] of cases) assert.deepEqual(closeIn(ats.map((at) => ({ at, ms: 1 })), ...span), want, what);
});

test("latencyChart: a single run of a new store is a dot in the middle with its time, not a spike at the edge; many runs are a line", () => {
  const D = 86_400_000;
  const to = Date.UTC(2026, 10, 29, 12, 0);
  const one = latencyChart([{ at: to - 3_600_000, ms: 42 }], to - 7 * D, to, 42, 42).value;
  assert.match(one, /data-shape="points"/);
  const cx = Number(/<circle class="point" cx="([\d.]+)"/.exec(one)![1]);
  assert.equal(cx, (40 + 592) / 2, "in the middle of the plot");
  assert.match(one, /<title>42 ms at 2026-11-29 11:00:00 UTC<\/title>/, "its latency and time on hover");
  assert.match(one, />2026-11-29 10:59:59</, "the axis says the time of a span of seconds, to the second");
  assert.doesNotMatch(one, /<polyline/);
  const many = Array.from({ length: FEW_POINTS + 1 }, (_, i) => ({ at: to - 7 * D + i * D / 4, ms: 10 + i }));
  const line = latencyChart(many, to - 7 * D, to, 20, 30).value;
  assert.match(line, /data-shape="line"/);
  assert.equal((line.match(/<polyline points="/g) ?? []).length, 1);
  assert.doesNotMatch(line, /<circle/);
});
