import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { rrf, type Leg } from "../../src/retrieve/rrf.js";

const leg = (name: string, ids: string[], weight = 1): Leg => ({
  name,
  weight,
  hits: ids.map((id, i) => ({ id, score: 10 - i })),
});

const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} ≠ ${expected}`);

describe("rrf", () => {
  test("each leg adds weight / (k + rank) for every item, rank starting at 1", () => {
    const fused = rrf([leg("bm25", ["a", "b", "c"]), leg("vector", ["c", "d"])], 60);
    const score = Object.fromEntries(fused.map((f) => [f.id, f.score]));
    close(score.a!, 1 / 61);
    close(score.b!, 1 / 62);
    close(score.c!, 1 / 63 + 1 / 61);
    close(score.d!, 1 / 62);
    assert.deepEqual(
      fused.map((f) => f.id),
      ["c", "a", "b", "d"],
    );
  });

  test("an item found by both legs beats items found by one leg at similar ranks", () => {
    const fused = rrf([leg("bm25", ["solo-bm25", "both"]), leg("vector", ["solo-vec", "both"])], 60);
    assert.equal(fused[0]!.id, "both");
    close(fused[0]!.score, 2 / 62);
  });

  test("weights shift the order towards the heavier leg", () => {
    const legs = (wb: number, wv: number) => [leg("bm25", ["lexical", "x1", "x2"], wb), leg("vector", ["semantic", "y1", "y2"], wv)];
    assert.equal(rrf(legs(1, 1), 60)[0]!.id, "lexical", "equal weights: ties go by id");
    assert.equal(rrf(legs(1, 2), 60)[0]!.id, "semantic");
    assert.equal(rrf(legs(3, 1), 60)[0]!.id, "lexical");
    const weighted = rrf(legs(1, 2), 60);
    close(weighted.find((f) => f.id === "semantic")!.score, 2 / 61);
    // A rank-3 vector hit at weight 2 outranks a rank-1 BM25 hit at weight 1.
    assert.ok(weighted.findIndex((f) => f.id === "y2") < weighted.findIndex((f) => f.id === "lexical"));
  });

  test("a zero-weight leg still reports its ranks but adds nothing", () => {
    const fused = rrf([leg("bm25", ["a"]), leg("vector", ["b", "a"], 0)], 60);
    const a = fused.find((f) => f.id === "a")!;
    const b = fused.find((f) => f.id === "b")!;
    close(a.score, 1 / 61);
    assert.equal(b.score, 0);
    assert.deepEqual(a.legs.vector, { rank: 2, score: 9 });
  });

  test("the smaller k is, the more the top rank dominates", () => {
    const legs = [leg("bm25", ["top", "both"]), leg("vector", ["v1", "v2", "v3", "v4", "v5", "both"])];
    assert.equal(rrf(legs, 60)[0]!.id, "both", "with k=60, two mid ranks beat one first place");
    assert.equal(rrf(legs, 1)[0]!.id, "top", "with k=1, first place wins");
    close(rrf(legs, 1).find((f) => f.id === "both")!.score, 1 / 3 + 1 / 7);
    close(rrf(legs, 60).find((f) => f.id === "both")!.score, 1 / 62 + 1 / 66);
  });

  test("each result reports its rank and own score in every leg that found it", () => {
    const fused = rrf(
      [
        { name: "bm25", weight: 1, hits: [{ id: "a", score: 7.5 }, { id: "b", score: 3.25 }] },
        { name: "vector", weight: 1, hits: [{ id: "b", score: 0.91 }] },
      ],
      60,
    );
    const b = fused.find((f) => f.id === "b")!;
    assert.deepEqual(b.legs, { bm25: { rank: 2, score: 3.25 }, vector: { rank: 1, score: 0.91 } });
    assert.deepEqual(fused.find((f) => f.id === "a")!.legs, { bm25: { rank: 1, score: 7.5 } });
  });

  test("an id repeated within one leg counts once, at its best rank", () => {
    const fused = rrf([{ name: "vector", weight: 1, hits: [{ id: "a", score: 0.9 }, { id: "b", score: 0.8 }, { id: "a", score: 0.7 }] }], 60);
    const a = fused.find((f) => f.id === "a")!;
    close(a.score, 1 / 61);
    assert.deepEqual(a.legs.vector, { rank: 1, score: 0.9 });
    assert.equal(fused.length, 2);
    // Later hits keep their positional rank: b stays at rank 2.
    assert.deepEqual(fused.find((f) => f.id === "b")!.legs.vector, { rank: 2, score: 0.8 });
  });

  test("equal scores are ordered by best rank, then by id, whatever the input order", () => {
    // Leg "wide" has weight 2, so rank 62 there is worth 2/122 = 1/61: the same as rank 1 in "narrow".
    const filler = Array.from({ length: 61 }, (_, i) => `f${String(i).padStart(2, "0")}`);
    const fused = rrf([leg("wide", [...filler, "a-late"], 2), leg("narrow", ["z-early"])], 60);
    const late = fused.find((f) => f.id === "a-late")!;
    const early = fused.find((f) => f.id === "z-early")!;
    assert.equal(late.score, early.score);
    assert.ok(fused.indexOf(early) < fused.indexOf(late), "the better best rank wins the tie");

    const one = rrf([leg("bm25", ["x", "y"]), leg("vector", ["y", "x"])], 60);
    const two = rrf([leg("vector", ["y", "x"]), leg("bm25", ["x", "y"])], 60);
    assert.deepEqual(
      one.map((f) => f.id),
      ["x", "y"],
    );
    assert.deepEqual(
      two.map((f) => f.id),
      ["x", "y"],
    );
  });

  test("empty legs or no legs give no results, and an empty leg does not disturb the others", () => {
    assert.deepEqual(rrf([], 60), []);
    assert.deepEqual(rrf([leg("bm25", []), leg("vector", [])], 60), []);
    const fused = rrf([leg("bm25", []), leg("vector", ["a", "b"])], 60);
    assert.deepEqual(
      fused.map((f) => [f.id, Object.keys(f.legs)]),
      [
        ["a", ["vector"]],
        ["b", ["vector"]],
      ],
    );
  });
});
