import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { floorVerdict, formatInjection } from "../../src/inject/format.js";
import { rankedFloor } from "../../src/inject/ranked-floor.js";
import { recordFloor } from "../../src/inject/record-floor.js";
import { DEFAULT_FLOOR_RULES, DEFAULT_INJECT, type Candidate } from "../../src/inject/types.js";

const cand = (id: string, path: string, text: string, rank: number): Candidate => ({
  id,
  text,
  path,
  startLine: 1,
  endLine: 3,
  headingPath: [],
  kind: "markdown",
  date: "2026-10-02",
  project: "/p",
  legs: { bm25: { rank, score: 10 - rank } },
});

// The prompt's content stems: eight words, every word alike; a chunk alone needs 3 of them (35%).
const stems = ["break", "titl", "sentenc", "piec", "fix", "capit", "split", "rule"];
/** The floor as the hook runs it: each chunk, then its record, then the ranking's order. */
const verdicts = (cs: Candidate[]) => rankedFloor(recordFloor(cs, cs.map((c) => floorVerdict(c, stems, DEFAULT_INJECT)), stems, DEFAULT_INJECT));

const two = (id: string, path: string, rank: number) => cand(id, path, "A title with several sentences.", rank); // titl, sentenc: 2 of 8
const one = (id: string, path: string, rank: number) => cand(id, path, "Sentences everywhere.", rank); // sentenc: 1 of 8
const three = (id: string, path: string, rank: number) => cand(id, path, "Fix the capitalization of each piece.", rank); // fix, capit, piec: 3 of 8
const none = (id: string, path: string, rank: number) => cand(id, path, "Unrelated text about plants.", rank);

describe("rankedFloor: a result ranked above one that passed passes on two of the prompt's words", () => {
  const cases: { name: string; cands: Candidate[]; pass: boolean[]; by?: (string | undefined)[] }[] = [
    { name: "first holds 2 words, second passes: both", cands: [two("a", "/p/a.md", 1), three("b", "/p/b.md", 2)], pass: [true, true], by: ["ranked", "words"] },
    { name: "every result above the first that passed", cands: [two("a", "/p/a.md", 1), two("c", "/p/c.md", 2), three("b", "/p/b.md", 3)], pass: [true, true, true], by: ["ranked", "ranked", "words"] },
    { name: "not one below it", cands: [three("b", "/p/b.md", 1), two("a", "/p/a.md", 2)], pass: [true, false] },
    { name: "nor one that holds one word above it: one word alone cannot tell its sense", cands: [one("a", "/p/a.md", 1), three("b", "/p/b.md", 2)], pass: [false, true] },
    { name: "nor one that holds none", cands: [none("a", "/p/a.md", 1), three("b", "/p/b.md", 2)], pass: [false, true] },
    { name: "nothing passed: nothing is let in (a prompt about nothing stored still gets nothing)", cands: [two("a", "/p/a.md", 1), two("c", "/p/c.md", 2), one("d", "/p/d.md", 3)], pass: [false, false, false] },
    { name: "the first passed: nothing changes", cands: [three("b", "/p/b.md", 1), two("a", "/p/a.md", 2), one("d", "/p/d.md", 3)], pass: [true, false, false] },
    { name: "a pass by the record floor counts as a pass", cands: [two("a", "/p/a.md", 1), cand("r1", "/p/r.md", "Split on each rule.", 2), cand("r2", "/p/r.md", "Fix the capitalization.", 3)], pass: [true, true, true], by: ["ranked", "record", "record"] },
    { name: "no results", cands: [], pass: [] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const v = verdicts(c.cands);
      assert.deepEqual(v.map((x) => x.pass), c.pass, v.map((x) => x.reason).join(" | "));
      if (c.by) assert.deepEqual(v.map((x) => x.by), c.by);
    });
  }

  test("the verdict says why", () => {
    const [a] = verdicts([two("a", "/p/a.md", 1), three("b", "/p/b.md", 2)]);
    assert.match(a!.reason, /ranked above result 2, which passed/);
  });

  test("the hook injects the record the search put first, not only the lower one that passed; with the rule off, only the lower one", () => {
    const terms = ["break", "title", "sentences", "pieces", "fix", "capitalization", "split", "rule"];
    const cs = [cand("right", "/p/adr/0018-split-titles.md", "A title with several sentences.", 1), cand("other", "/p/adr/0067-pandoc.md", "Fix the capitalization of each piece.", 2)];
    assert.deepEqual(formatInjection(cs, terms, DEFAULT_INJECT, (s) => s)?.ids.sort(), ["other", "right"]);
    assert.deepEqual(formatInjection(cs, terms, DEFAULT_INJECT, (s) => s, { floorRules: { ...DEFAULT_FLOOR_RULES, ranked: false } })?.ids, ["other"]);
    assert.equal(formatInjection([cs[0]!], terms, DEFAULT_INJECT, (s) => s), undefined, "alone, the first still gets nothing");
  });
});
