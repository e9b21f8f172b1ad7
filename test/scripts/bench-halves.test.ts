/**
 * The benches' held-out discipline (scripts/bench/split.ts) and adr-2's scoring
 * (scripts/bench/fusion-adr.ts `shareRanks`, `anyRanks`; recordsIn for a record named with `#`). Pure.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { describe, test } from "node:test";
import { fnv1a, halfOf, inHalf } from "../../scripts/bench/split.js";
import { anyRanks, shareRanks } from "../../scripts/bench/fusion-adr.js";
import { recordsIn } from "../../scripts/bench/fusion-metrics.js";
import { adr2Dir, loadAdr2Questions } from "../../scripts/bench/adr2.js";

describe("the halves, fixed once by the question's id", () => {
  const known: { s: string; h: number }[] = [
    { s: "", h: 0x811c9dc5 },
    { s: "a", h: 0xe40c292c },
    { s: "foobar", h: 0xbf9cf968 },
  ];
  for (const k of known) test(`FNV-1a of ${JSON.stringify(k.s)} is the published value`, () => assert.equal(fnv1a(k.s), k.h));

  test("a question's half depends on its id alone, and the halves split a set about evenly", () => {
    const ids = Array.from({ length: 400 }, (_, i) => `q${i}`);
    const tuning = inHalf(ids, "tuning");
    const checking = inHalf(ids, "checking");
    assert.equal(tuning.length + checking.length, ids.length);
    assert.ok(tuning.length > 160 && checking.length > 160, `${tuning.length} / ${checking.length}`);
    assert.deepEqual(inHalf([...ids].reverse(), "tuning"), [...tuning].reverse(), "the order does not choose");
    for (const id of ids) assert.equal(halfOf(id), tuning.includes(id) ? "tuning" : "checking");
  });
});

describe("adr-2's scoring: records, not chunks", () => {
  const hits = (...files: string[]) => files.map((f) => ({ path: `/x/corpus/${f}` }));
  const cases: { name: string; hits: { path: string }[]; answers: string[]; share: { r1: number; r5: number; rr: number }; any: { r1: number; r5: number; rr: number } }[] = [
    { name: "one answer, first", hits: hits("a.md", "b.md"), answers: ["a.md"], share: { r1: 1, r5: 1, rr: 1 }, any: { r1: 1, r5: 1, rr: 1 } },
    { name: "two chunks of one record count as one record", hits: hits("b.md", "b.md", "a.md"), answers: ["a.md"], share: { r1: 0, r5: 1, rr: 0.5 }, any: { r1: 0, r5: 1, rr: 1 / 3 } },
    { name: "two answers: R@k is the share found", hits: hits("a.md", "c.md", "d.md", "e.md", "f.md", "b.md"), answers: ["a.md", "b.md"], share: { r1: 0.5, r5: 0.5, rr: 1 }, any: { r1: 1, r5: 1, rr: 1 } },
    { name: "nothing found", hits: hits("c.md"), answers: ["a.md"], share: { r1: 0, r5: 0, rr: 0 }, any: { r1: 0, r5: 0, rr: 0 } },
  ];
  for (const c of cases) {
    test(`share: ${c.name}`, () => assert.deepEqual(shareRanks(c.hits, c.answers), c.share));
    test(`any: ${c.name}`, () => assert.deepEqual(anyRanks(c.hits, c.answers), c.any));
  }

  test("a record named with # is read from what the hook injects", () => {
    assert.deepEqual([...recordsIn("- [note] corpus/0024-use-#-as-indicator-for-BibTeX-string-constants.md:12 …\n- corpus/0002-use-slf4j-for-logging.md:3")], ["0024-use-#-as-indicator-for-BibTeX-string-constants.md", "0002-use-slf4j-for-logging.md"]);
  });

  test("adr-2's questions load with their records (when ../shared holds them)", (t) => {
    const dir = adr2Dir();
    if (!dir || !existsSync(dir)) return t.skip("../shared/data/adr-2 not found");
    const qs = loadAdr2Questions(dir);
    assert.equal(qs.length, 60);
    assert.ok(qs.every((q) => q.share && q.answers.length >= 1 && q.answers.every((a) => /^\d{4}-.*\.md$/.test(a))));
  });
});
