/** The latency chart's pure pieces: the scale's round top, the thinning of many runs, the percentiles. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { percentile } from "../../src/health/measures.js";
import { latencyChart, MAX_POINTS, niceCeil, thin } from "../../src/web/chart.js";

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
  const points = /<polyline points="([^"]+)"/.exec(svg)![1]!.split(" ");
  assert.match(svg, /data-max="100"/, "80 ms rounds up to a 100 ms scale");
  assert.deepEqual(points, ["40,126.8", "316,87.2", "592,34.4"], "x across 40..592, y down from 8 (100 ms) to 140 (0)");
  const y = (cls: string) => Number(new RegExp(`<line class="${cls}" x1="[\\d.]+" y1="([\\d.]+)"`).exec(svg)![1]);
  assert.ok(y("p95") < y("p50"));
  assert.doesNotMatch(svg, /<script|style=/);
});
