import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { leadShare, rrf, type Leg } from "../../src/retrieve/rrf.js";
import { fuse, fuseBy, type FusionLeg } from "../../src/retrieve/fusion.js";

const leg = (name: string, ids: string[], weight = 1, covers?: (id: string) => boolean): Leg => ({
  name,
  weight,
  hits: ids.map((id, i) => ({ id, score: 10 - i })),
  ...(covers ? { covers } : {}),
});

const close = (actual: number | undefined, expected: number) => assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-12, `${actual} ≠ ${expected}`);
const scores = (legs: Leg[], k: number) => Object.fromEntries(rrf(legs, k).map((f) => [f.id, f.score]));
const order = (legs: Leg[], k: number) => rrf(legs, k).map((f) => f.id);

describe("rrf: weighted reciprocal rank fusion over the legs present", () => {
  // Each row: the legs, k, and the scores expected: Σ over present legs of w/(k+rank), / Σ of their w, × (k+1).
  const cases: { name: string; legs: Leg[]; k: number; want: Record<string, number> }[] = [
    {
      name: "each leg adds weight × 1/(k + rank), rank from 1; absent from a leg that covers it: 0 from that leg",
      legs: [leg("bm25", ["a", "b", "c"]), leg("vector", ["c", "d"])],
      k: 60,
      want: { a: (61 * (1 / 61)) / 2, b: (61 * (1 / 62)) / 2, c: (61 * (1 / 63 + 1 / 61)) / 2, d: (61 * (1 / 62)) / 2 },
    },
    {
      name: "the weights weigh each leg's term",
      legs: [leg("bm25", ["a", "b"], 1), leg("vector", ["b", "a"], 0.25)],
      k: 60,
      want: { a: (61 * (1 / 61 + 0.25 / 62)) / 1.25, b: (61 * (1 / 62 + 0.25 / 61)) / 1.25 },
    },
    {
      name: "k is honoured: a small k makes the first rank count more",
      legs: [leg("bm25", ["a", "b"]), leg("vector", ["b", "a"])],
      k: 1,
      want: { a: (2 * (1 / 2 + 1 / 3)) / 2, b: (2 * (1 / 3 + 1 / 2)) / 2 },
    },
    {
      name: "an item the leg cannot hold (no vector yet) is ranked by the other legs alone",
      legs: [leg("bm25", ["fresh", "old"]), leg("vector", ["old"], 1, (id) => id !== "fresh")],
      k: 60,
      want: { fresh: 1, old: (61 * (1 / 62 + 1 / 61)) / 2 },
    },
    {
      name: "a leg of weight 0 adds nothing, not even its items",
      legs: [leg("bm25", ["a", "b"]), leg("vector", ["z", "a"], 0)],
      k: 60,
      want: { a: 1, b: 61 / 62 },
    },
    { name: "no legs, or empty legs: nothing", legs: [leg("bm25", []), leg("vector", [])], k: 60, want: {} },
  ];
  for (const c of cases) test(c.name, () => {
    const got = scores(c.legs, c.k);
    assert.deepEqual(Object.keys(got).sort(), Object.keys(c.want).sort());
    for (const [id, s] of Object.entries(c.want)) close(got[id], s);
  });

  test("an item every present leg ranked first scores 1: the 0-to-1 scale the priors expect", () => {
    for (const k of [1, 10, 60, 1000]) close(scores([leg("bm25", ["a", "b"], 1), leg("vector", ["a", "c"], 0.4)], k).a, 1);
  });

  const orders: { name: string; legs: Leg[]; k: number; top: string[] }[] = [
    { name: "found by both legs beats found by one at the same rank", legs: [leg("bm25", ["solo", "both"]), leg("vector", ["other", "both"])], k: 60, top: ["both"] },
    { name: "a heavier vector leg wins ties of rank, and its second beats BM25's first", legs: [leg("bm25", ["lexical", "x"], 1), leg("vector", ["semantic", "y"], 2)], k: 60, top: ["semantic", "y", "lexical"] },
    { name: "with k 60, a light leg (0.1) puts BM25's second and third above its first: ranks are all RRF sees", legs: [leg("bm25", ["win", "b", "c"], 1), leg("vector", ["c", "b", "x"], 0.1)], k: 60, top: ["b", "c", "win"] },
    { name: "with k 1, the same light leg leaves BM25's first in place", legs: [leg("bm25", ["win", "b", "c"], 1), leg("vector", ["c", "b", "x"], 0.1)], k: 1, top: ["win"] },
    { name: "with k 1 the first place outweighs two middle places", legs: [leg("bm25", ["top", "both"]), leg("vector", ["v1", "v2", "v3", "v4", "v5", "both"])], k: 1, top: ["top"] },
    { name: "with k 60 two middle places outweigh one first place", legs: [leg("bm25", ["top", "both"]), leg("vector", ["v1", "v2", "v3", "v4", "v5", "both"])], k: 60, top: ["both"] },
    { name: "a fresh chunk is not ranked as if the vector leg had put it last", legs: [leg("bm25", ["fresh", "old"]), leg("vector", ["x", "y", "old"], 1, (id) => id !== "fresh")], k: 60, top: ["fresh"] },
    { name: "equal scores: the better best rank, then the id", legs: [leg("bm25", ["x", "y"]), leg("vector", ["y", "x"])], k: 60, top: ["x", "y"] },
  ];
  for (const c of orders) test(`order: ${c.name}`, () => assert.deepEqual(order(c.legs, c.k).slice(0, c.top.length), c.top));

  test("each result reports its rank and own score in every leg that found it; a repeated id counts once, at its best rank", () => {
    const fused = rrf([{ name: "bm25", weight: 1, hits: [{ id: "a", score: 7.5 }, { id: "b", score: 3.25 }, { id: "a", score: 1 }] }, { name: "vector", weight: 1, hits: [{ id: "b", score: 0.91 }] }], 60);
    assert.deepEqual(fused.find((f) => f.id === "b")!.legs, { bm25: { rank: 2, score: 3.25 }, vector: { rank: 1, score: 0.91 } });
    assert.deepEqual(fused.find((f) => f.id === "a")!.legs, { bm25: { rank: 1, score: 7.5 } });
    assert.equal(fused.length, 2);
  });

  test("the input order of the legs does not matter", () => {
    const a = rrf([leg("bm25", ["x", "y", "z"]), leg("vector", ["z", "y"], 0.5)], 60);
    const b = rrf([leg("vector", ["z", "y"], 0.5), leg("bm25", ["x", "y", "z"])], 60);
    assert.deepEqual(a, b);
  });
});

describe("fuseBy: the fusion chosen, and the noise-leg guarantee of both", () => {
  const bm25: FusionLeg = { name: "bm25", weight: 1, scale: "ratio", hits: [{ id: "a", score: 9 }, { id: "b", score: 8.9 }, { id: "c", score: 2 }] };
  const vector: FusionLeg = { name: "vector", weight: 0.6, hits: [{ id: "c", score: 0.9 }, { id: "b", score: 0.5 }, { id: "z", score: 0.1 }] };
  const cases: { name: string; method: "rrf" | "calibrated"; legs: FusionLeg[]; same: (legs: FusionLeg[]) => unknown }[] = [
    { name: "rrf with two legs is weighted RRF", method: "rrf", legs: [bm25, vector], same: (l) => rrf(l, 60) },
    { name: "calibrated with two legs is the convex combination", method: "calibrated", legs: [bm25, vector], same: (l) => fuse(l) },
    { name: "rrf with the vector leg left out (weight 0) ranks as BM25 alone", method: "rrf", legs: [bm25, { ...vector, weight: 0 }], same: () => fuse([bm25]) },
    { name: "calibrated with the vector leg left out ranks as BM25 alone", method: "calibrated", legs: [bm25, { ...vector, weight: 0 }], same: () => fuse([bm25]) },
    { name: "rrf with BM25 only keeps BM25's own scores", method: "rrf", legs: [bm25], same: () => fuse([bm25]) },
  ];
  for (const c of cases) test(c.name, () => assert.deepEqual(fuseBy(c.method, c.legs, 60), c.same(c.legs)));

  test("the two fusions can disagree: the one chosen is the one used", () => {
    const legs: FusionLeg[] = [
      { name: "bm25", weight: 1, scale: "ratio", hits: [{ id: "a", score: 10 }, { id: "b", score: 2 }] },
      { name: "vector", weight: 0.5, hits: [{ id: "b", score: 0.9 }, { id: "x", score: 0.85 }, { id: "y", score: 0.8 }, { id: "z", score: 0.7 }, { id: "a", score: 0.1 }] },
    ];
    assert.equal(fuseBy("calibrated", legs, 60)[0]!.id, "a", "calibrated: a's BM25 margin (10 against 2) carries it");
    assert.equal(fuseBy("rrf", legs, 60)[0]!.id, "b", "rrf: ranks only, and b is first and second");
  });
});

describe("leadShare: the share of its weight the vector leg keeps in RRF against BM25's lead at the top", () => {
  // Each row: BM25's scores (best first), k, and the share expected: 1/(k+2) over the lead 1 − second/first when that is larger, else 1.
  const cases: { name: string; scores: number[]; k: number; want: number }[] = [
    { name: "a clear lead (second 30% of first): the rank lead 1/12 over the score lead 0.7", scores: [10, 3, 2], k: 10, want: 1 / 12 / 0.7 },
    { name: "the first alone holds the question's words (second 0): 1/(k+2)", scores: [4, 0], k: 10, want: 1 / 12 },
    { name: "a lead smaller than RRF's own rank lead: the weight stays whole", scores: [10, 9.5], k: 10, want: 1 },
    { name: "exactly the rank lead: whole", scores: [12, 11], k: 10, want: 1 },
    { name: "k is honoured: with k 60 the same lead costs more", scores: [10, 3], k: 60, want: 1 / 62 / 0.7 },
    { name: "a tie: whole", scores: [5, 5, 5], k: 10, want: 1 },
    { name: "one result: nothing to lead, whole", scores: [5], k: 10, want: 1 },
    { name: "no results: whole", scores: [], k: 10, want: 1 },
    { name: "a best score of 0 or less (no ratio to take): whole", scores: [0, 0], k: 10, want: 1 },
    { name: "a negative second counts as 0", scores: [2, -1], k: 10, want: 1 / 12 },
    { name: "a non-finite score: whole", scores: [Number.NaN, 1], k: 10, want: 1 },
  ];
  for (const c of cases) test(c.name, () => close(leadShare(c.scores, c.k), c.want));

  test("scaled by it, a light leg no longer puts BM25's clear second above its first; with close scores it still may", () => {
    const bm = (scores: number[]): Leg => ({ name: "bm25", weight: 1, hits: scores.map((score, i) => ({ id: ["first", "second", "third"][i]!, score })) });
    const vec = (w: number): Leg => ({ name: "vector", weight: w, hits: [{ id: "second", score: 0.9 }, { id: "x", score: 0.5 }, { id: "y", score: 0.4 }, { id: "first", score: 0.1 }] });
    const clear = [9, 2, 1];
    assert.equal(rrf([bm(clear), vec(0.4)], 10)[0]?.id, "second", "plain weighted RRF: ranks only, the light leg wins");
    assert.equal(rrf([bm(clear), vec(0.4 * leadShare(clear, 10))], 10)[0]?.id, "first");
    const close_ = [9, 8.5, 1];
    assert.equal(rrf([bm(close_), vec(0.4 * leadShare(close_, 10))], 10)[0]?.id, "second");
  });
});
