import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fuse, normalise, queryTrust, spread, standout, TRUST_DEFAULTS, type FusionLeg } from "../../src/retrieve/fusion.js";

const leg = (name: string, scored: [string, number][], weight: number, covers?: (id: string) => boolean): FusionLeg => ({
  name,
  weight,
  hits: scored.map(([id, score]) => ({ id, score })),
  ...(covers ? { covers } : {}),
});
const order = (legs: FusionLeg[]) => fuse(legs).map((f) => f.id);

describe("fuse: weighted convex combination of normalised scores", () => {
  const cases: { name: string; legs: FusionLeg[]; top: string[] }[] = [
    {
      name: "a leg of weight 0 (a broken model) changes nothing: BM25's order stands",
      legs: [leg("bm25", [["a", 9], ["b", 5], ["c", 1]], 1), leg("vector", [["z", 0.2], ["c", 0.19], ["b", 0.1]], 0)],
      top: ["a", "b", "c"],
    },
    {
      name: "a weak leg cannot push BM25's clear winner out of the top",
      legs: [leg("bm25", [["win", 20], ["b", 3], ["c", 2], ["d", 1]], 1), leg("vector", [["d", 0.9], ["c", 0.5], ["win", 0.1]], 0.3)],
      top: ["win"],
    },
    {
      name: "a trusted leg lifts what both legs found over what one found",
      legs: [leg("bm25", [["a", 5], ["b", 4.8], ["c", 1]], 1), leg("vector", [["b", 0.8], ["x", 0.7], ["c", 0.1]], 1)],
      top: ["b", "a"],
    },
    {
      name: "a chunk with no vector is ranked by BM25 alone, not as last in the vector leg",
      legs: [leg("bm25", [["fresh", 19.8], ["old", 2.1], ["o2", 1]], 1), leg("vector", [["old", 0.6], ["o2", 0.5], ["o3", 0.1]], 1, (id) => id !== "fresh")],
      top: ["fresh", "old"],
    },
    {
      name: "the same chunk without the missing-leg rule falls behind",
      legs: [leg("bm25", [["fresh", 19.8], ["old", 2.1], ["o2", 1]], 1), leg("vector", [["old", 0.6], ["o2", 0.5], ["o3", 0.1]], 1)],
      top: ["old", "fresh"],
    },
  ];
  for (const c of cases) test(c.name, () => assert.deepEqual(order(c.legs).slice(0, c.top.length), c.top));

  test("every item keeps its rank and score in each leg that found it", () => {
    const f = fuse([leg("bm25", [["a", 3], ["b", 1]], 1), leg("vector", [["b", 0.5]], 1)]);
    assert.deepEqual(f.find((x) => x.id === "b")!.legs, { bm25: { rank: 2, score: 1 }, vector: { rank: 1, score: 0.5 } });
  });
});

describe("normalise", () => {
  const cases: { hits: [string, number][]; want: Record<string, number> }[] = [
    { hits: [["a", 10], ["b", 5], ["c", 0]], want: { a: 1, b: 0.5, c: 0 } },
    { hits: [["a", 2], ["b", 2]], want: { a: 1, b: 1 } },
    { hits: [], want: {} },
  ];
  for (const c of cases) test(JSON.stringify(c.hits), () => assert.deepEqual(Object.fromEntries(normalise(c.hits.map(([id, score]) => ({ id, score })))), c.want));
});

describe("standout and queryTrust", () => {
  const flat = Array.from({ length: 30 }, (_, i) => 0.5 - i * 0.001);
  const clear = [0.9, ...flat];
  const cases: { name: string; scores: number[]; trust: (q: number) => boolean }[] = [
    { name: "a flat list earns only the floor", scores: flat, trust: (q) => q === TRUST_DEFAULTS.floor && q < 0.5 },
    { name: "a best hit half way out earns half way between the floor and the full weight", scores: [spread(flat).mean + 3 * spread(flat).sd, ...flat], trust: (q) => Math.abs(q - (TRUST_DEFAULTS.floor + 1) / 2) < 0.05 },
    { name: "a best hit far out of the rest earns the full weight", scores: clear, trust: (q) => q === 1 },
    { name: "fewer than three scores: nothing to judge by, the floor", scores: [0.9, 0.1], trust: (q) => q === TRUST_DEFAULTS.floor },
  ];
  for (const c of cases) test(c.name, () => assert.ok(c.trust(queryTrust(c.scores)), `${queryTrust(c.scores)} (standout ${standout(c.scores)})`));
});
