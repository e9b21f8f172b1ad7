import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { calibrate, pseudoQueryText, sampleIds, scoreLeg } from "../../src/retrieve/calibration.js";

describe("calibrate: the vector leg's weight from pseudo-queries", () => {
  const cases: { name: string; bm25: number; vector: number; chunks: number; want: (w: number) => boolean }[] = [
    { name: "a leg at chance (random vectors) gets 0", bm25: 0.95, vector: 0.1, chunks: 50, want: (w) => w < 0.02 },
    { name: "a leg as good as BM25 gets 1", bm25: 0.9, vector: 0.9, chunks: 500, want: (w) => w === 1 },
    { name: "a leg better than BM25 gets 1 (capped)", bm25: 0.7, vector: 0.9, chunks: 500, want: (w) => w === 1 },
    { name: "half as good above chance: about a half", bm25: 1, vector: 0.5 + 0.01 / 2, chunks: 500, want: (w) => Math.abs(w - 0.5) < 0.01 },
    { name: "a store too small for chance to tell: 0", bm25: 1, vector: 1, chunks: 4, want: (w) => w === 0 },
  ];
  for (const c of cases)
    test(c.name, () => {
      const w = calibrate({ top1: 0, top5: c.bm25 }, { top1: 0, top5: c.vector }, 40, c.chunks).weight;
      assert.ok(c.want(w), String(w));
    });
});

describe("pseudoQueryText", () => {
  const rarity = (w: string) => (["postgres", "advisory", "locks", "pgbouncer"].includes(w) ? 5 : 0.1);
  const cases: { name: string; text: string; want: string | undefined }[] = [
    { name: "the window holding the rare words", text: "We talked a lot about it and the team agreed to it in the end. We use advisory locks in postgres for the job queue behind pgbouncer today.", want: "advisory locks in postgres for the job queue behind pgbouncer" },
    { name: "no sentence long enough", text: "Yes. No. Fine by me.", want: undefined },
  ];
  for (const c of cases) test(c.name, () => assert.equal(pseudoQueryText(c.text, rarity, 10, 5), c.want));
});

describe("scoreLeg and sampleIds", () => {
  test("top-1 and top-5 shares of the source chunk", () => {
    const qs = [{ source: "a", text: "" }, { source: "b", text: "" }, { source: "c", text: "" }, { source: "d", text: "" }];
    const hits = (ids: string[]) => ids.map((id) => ({ id, score: 1 }));
    assert.deepEqual(scoreLeg(qs, [hits(["a"]), hits(["x", "b"]), hits(["1", "2", "3", "4", "5", "c"]), []]), { top1: 0.25, top5: 0.5 });
  });
  test("a spread of at most max ids, the same whatever order they come in", () => {
    const ids = Array.from({ length: 100 }, (_, i) => `id${String(i).padStart(3, "0")}`);
    assert.equal(sampleIds(ids, 10).length, 10);
    assert.deepEqual(sampleIds([...ids].reverse(), 10), sampleIds(ids, 10));
    assert.deepEqual(sampleIds(["b", "a"], 10), ["a", "b"]);
  });
  test("another offset is another sample of the same spread; every id when they are fewer than max (table)", () => {
    const ids = Array.from({ length: 20 }, (_, i) => `id${String(i).padStart(2, "0")}`);
    const cases: [number, number, number[]][] = [
      [5, 0, [0, 4, 8, 12, 16]],
      [5, 0.5, [2, 6, 10, 14, 18]],
      [5, 0.99, [3, 7, 11, 15, 19]],
      [5, 1, [3, 7, 11, 15, 19]], // clamped within the step
      [5, -1, [0, 4, 8, 12, 16]],
      [20, 0.5, Array.from({ length: 20 }, (_, i) => i)],
      [30, 0.5, Array.from({ length: 20 }, (_, i) => i)],
    ];
    for (const [max, offset, want] of cases) assert.deepEqual(sampleIds(ids, max, offset), want.map((i) => ids[i]), `${max} at ${offset}`);
  });
});
