import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DEFAULT_INJECT, formatInjection, passesFloor, termCoverage, type Candidate } from "../../src/inject/format.js";
import { skipReason } from "../../src/inject/prompt-filter.cjs";
import { queryTerms } from "../../src/retrieve/fts-query.js";

describe("which prompts get no memory", () => {
  test("acknowledgements, short prompts, slash commands and Claude Code's own injections are skipped", () => {
    for (const p of ["ok", "Thanks!", "yes please", "go ahead", "lgtm", "", "   ", "fix it", "/compact", "/deploy staging now please", "<task-notification>\n<task-id>1</task-id> done</task-notification>", "<command-name>/clear</command-name>", "why?!?! ...", "ok... fine", "été été", "-- -- -- --"]) {
      assert.ok(skipReason(p), `should skip: ${JSON.stringify(p)}`);
    }
  });
  test("a real question is not skipped", () => {
    for (const p of ["why did we choose SQLite over Postgres?", "refactor the indexer to use p-queue", "what was the root cause of the flaky LanceDB test", "¿por qué elegimos SQLite?", "почему мы выбрали SQLite", "why_did we-choose it"]) {
      assert.equal(skipReason(p), undefined, p);
    }
  });
});

const cand = (over: Partial<Candidate>): Candidate => ({
  id: "c1",
  text: "We chose SQLite over Postgres because mem runs on a laptop.",
  path: "/p/memory/reference/storage.md",
  startLine: 6,
  endLine: 15,
  headingPath: ["Storage decisions", "Why SQLite"],
  kind: "decision",
  date: "2026-10-02",
  project: "/p",
  legs: { bm25: { rank: 1, score: 5 } },
  ...over,
});

describe("the relevance floor", () => {
  test("term coverage counts stems of the query's content words", () => {
    assert.equal(termCoverage(["chose", "sqlite", "postgres"], "We chose SQLite over Postgres"), 1);
    assert.equal(termCoverage(["indexing", "sqlite"], "the indexer uses sqlite"), 1);
    assert.equal(termCoverage(["bread", "sourdough"], "We chose SQLite"), 0);
  });
  test("a weak lexical match (one word of many) is dropped; a strong one passes", () => {
    const terms = queryTerms("why did we choose SQLite for metadata storage");
    assert.ok(passesFloor(cand({}), terms, DEFAULT_INJECT));
    assert.ok(!passesFloor(cand({ text: "SQLite is a database." , headingPath: [] }), queryTerms("how do we deploy the sqlite backup job to kubernetes"), DEFAULT_INJECT));
  });
  test("a vector-only match passes on similarity alone", () => {
    assert.ok(passesFloor(cand({ text: "unrelated words", headingPath: [], legs: { vector: { rank: 1, score: 0.8 } } }), ["sqlite"], DEFAULT_INJECT));
    assert.ok(!passesFloor(cand({ text: "unrelated words", headingPath: [], legs: { vector: { rank: 1, score: 0.2 } } }), ["sqlite"], DEFAULT_INJECT));
  });
});

describe("formatting an injection", () => {
  const terms = queryTerms("why did we choose SQLite over Postgres");
  test("compact markdown with kind, relative source, line and date; ids of what was injected", () => {
    const out = formatInjection([cand({})], terms, DEFAULT_INJECT, (s) => s)!;
    assert.match(out.text, /^Possibly relevant project memory .*may be outdated/);
    assert.match(out.text, /\n- \[decision · memory\/reference\/storage\.md:6 · 2026-10-02\] Why SQLite: We chose SQLite over Postgres/);
    assert.deepEqual(out.ids, ["c1"]);
  });
  test("nothing passes the floor: nothing is injected", () => {
    assert.equal(formatInjection([cand({ text: "bread", headingPath: [] })], terms, DEFAULT_INJECT, (s) => s), undefined);
  });
  test("the character budget holds however many and however long the matches", () => {
    const many = Array.from({ length: 20 }, (_, i) => cand({ id: `c${i}`, text: `We chose SQLite over Postgres ${"because it is embedded ".repeat(80)}` }));
    const out = formatInjection(many, terms, { ...DEFAULT_INJECT, budgetChars: 1_000, maxItems: 20 }, (s) => s)!;
    assert.ok(out.text.length <= 1_000, `${out.text.length}`);
    assert.ok(out.ids.length >= 1);
  });
  test("redaction runs on every snippet", () => {
    const out = formatInjection([cand({ text: "We chose SQLite over Postgres; token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB" })], terms, DEFAULT_INJECT, (s) => s.replace(/ghp_\w+/g, "[REDACTED]"))!;
    assert.ok(!out.text.includes("ghp_"));
    assert.match(out.text, /\[REDACTED\]/);
  });
});
