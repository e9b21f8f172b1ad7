import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { floorVerdict, passesFloor, SPREAD_ANSWERS, VECTOR_STANDOUT, VECTOR_TRUST, type VectorFloor } from "../../src/inject/floor.js";
import { DEFAULT_INJECT, type Candidate } from "../../src/inject/types.js";

const cand = (text: string, similarity?: number): Candidate => ({
  id: "c1",
  text,
  path: "/p/notes.md",
  startLine: 1,
  endLine: 2,
  headingPath: [],
  kind: "markdown",
  date: "2026-10-02",
  project: "/p",
  legs: { bm25: { rank: 3, score: 2 }, ...(similarity !== undefined ? { vector: { rank: 1, score: similarity } } : {}) },
});

describe("the floor's calibrated vector similarity", () => {
  // The prompt's content stems: "cutover" and "migrat" (the result holds "migration" only, or nothing).
  const stems = ["cutov", "migrat", "app"];
  const leg = (weight: number, mean = 0.1, sd = 0.02): VectorFloor => ({ weight, spread: { mean, sd } });
  const holdsOne = "The migration moves one service at a time.";
  const holdsNone = "Unrelated text about plants.";

  test("a similarity passes by how far it stands out of the leg's other answers, with a trusted leg and one word held (table)", () => {
    const cases: [string, string, number, VectorFloor | undefined, boolean][] = [
      ["stands out by 5 spreads, leg trusted, one word", holdsOne, 0.2, leg(0.8), true],
      [`exactly ${VECTOR_STANDOUT} spreads`, holdsOne, VECTOR_STANDOUT * 0.25, leg(0.8, 0, 0.25), true],
      ["2 spreads: one of the pack", holdsOne, 0.14, leg(0.8), false],
      [`a leg trusted under ${VECTOR_TRUST} (a broken or weak model)`, holdsOne, 0.3, leg(VECTOR_TRUST - 0.1), false],
      ["no word of the prompt held: a random vector's best answer may stand out by chance", holdsNone, 0.3, leg(0.9), false],
      ["a raw cosine of 0.8 that does not stand out (a model whose cosines are all high)", holdsOne, 0.8, leg(0.9, 0.79, 0.02), false],
      ["a raw cosine of 0.2 that stands out far (a model whose cosines are all low)", holdsOne, 0.2, leg(0.9, 0.05, 0.01), true],
      ["a leg with no spread (every answer alike)", holdsOne, 0.5, leg(0.9, 0.5, 0), false],
      ["a spread of two other answers (a store of three chunks): any first answer stands out of it", holdsOne, 0.35, { weight: 0.5, spread: { mean: 0.305, sd: 0.005, n: 2 } }, false],
      [`a spread of ${SPREAD_ANSWERS} other answers`, holdsOne, 0.2, { weight: 0.8, spread: { mean: 0.1, sd: 0.02, n: SPREAD_ANSWERS } }, true],
      ["without the leg's calibration: the raw similarity against minSimilarity", holdsNone, 0.5, undefined, true],
      ["without the leg's calibration, below minSimilarity", holdsNone, 0.3, undefined, false],
    ];
    for (const [why, text, sim, v, pass] of cases) {
      const c = cand(text, sim);
      const verdict = floorVerdict(c, stems, DEFAULT_INJECT, undefined, v);
      assert.equal(verdict.pass, pass, `${why}: ${verdict.reason}`);
      assert.equal(passesFloor(c, stems, DEFAULT_INJECT, undefined, v), pass, why);
      if (pass) assert.equal(verdict.by, "vector", why);
    }
  });

  test("the verdict says how far the similarity stood out and how far the leg was trusted", () => {
    const pass = floorVerdict(cand(holdsOne, 0.2), stems, DEFAULT_INJECT, undefined, leg(0.8));
    assert.match(pass.reason, /vector similarity 0\.20, 5\.0 spreads above the leg's other answers \(needs 4, the leg trusted 0\.80\)/);
    const weak = floorVerdict(cand(holdsOne, 0.3), stems, DEFAULT_INJECT, undefined, leg(0.1));
    assert.equal(weak.pass, false);
    assert.match(weak.reason, /the leg trusted 0\.10 < 0\.4/);
  });

  test("both legs' first answer passes when the vector leg is trusted and it holds one of the prompt's words (table)", () => {
    const first = (text: string, bm25Rank: number, vectorRank: number): Candidate => ({ ...cand(text, 0.11), legs: { bm25: { rank: bm25Rank, score: 3 }, vector: { rank: vectorRank, score: 0.11 } } });
    const cases: [string, Candidate, VectorFloor | undefined, boolean][] = [
      ["both first, trusted, one word", first(holdsOne, 1, 1), leg(0.8), true],
      ["BM25 first, the vector leg's second", first(holdsOne, 1, 2), leg(0.8), false],
      ["the vector leg's first, BM25's second", first(holdsOne, 2, 1), leg(0.8), false],
      ["both first, the vector leg not trusted", first(holdsOne, 1, 1), leg(0.2), false],
      ["both first, no word held", first(holdsNone, 1, 1), leg(0.8), false],
      ["both first, no calibration for the query", first(holdsOne, 1, 1), undefined, false],
      ["both first in a store of three chunks (the vector leg's first is BM25's one time in three by chance)", first(holdsOne, 1, 1), { weight: 0.5, spread: { mean: 0.1, sd: 0.02, n: 2 } }, false],
    ];
    for (const [why, c, v, pass] of cases) {
      const verdict = floorVerdict(c, stems, DEFAULT_INJECT, undefined, v);
      assert.equal(verdict.pass, pass, `${why}: ${verdict.reason}`);
      assert.equal(passesFloor(c, stems, DEFAULT_INJECT, undefined, v), pass, why);
      if (pass) {
        assert.equal(verdict.by, "agreement");
        assert.match(verdict.reason, /both legs put it first \(the vector leg trusted 0\.80\) and it holds migrat/);
      }
    }
  });

  test("a result the vector leg did not find is judged by its words alone", () => {
    const c = cand("The migration of every app happens in one cutover weekend.");
    assert.equal(floorVerdict(c, stems, DEFAULT_INJECT, undefined, leg(0.9)).by, "words");
  });
});
