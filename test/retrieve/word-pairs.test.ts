import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { bm25Leg } from "../../src/retrieve/bm25.js";
import { DEFAULT_QUERY_RULES, PAIR_WEIGHT, type QueryRules } from "../../src/retrieve/query-rules.js";
import { adjacentPairs, MAX_PAIRS, pairsMatch, withPairs } from "../../src/retrieve/word-pairs.js";
import { ChunkStore, type NewChunk } from "../../src/store/chunks.js";
import { openDb, type Db } from "../../src/store/db.js";
import { clean } from "../../src/redact/clean.cjs";

describe("the question's adjacent words", () => {
  test("adjacentPairs: two searched words side by side, each pair once", () => {
    const cases: [string, string, string[]][] = [
      ["two content words side by side", "release notes", ["release notes"]],
      ["a run of three gives two pairs", "Which static analyzer runs?", ["static analyzer", "analyzer runs"]],
      ["a stop word parts them", "the choice of broker", []],
      ["stop words around a pair do not matter", "Is there a rule for the release notes?", ["release notes"]],
      ["lower case, as the index compares them", "Dance Studio", ["dance studio"]],
      ["a pair asked twice is looked for once", "dance studio, and the dance studio", ["dance studio"]],
      ["a word next to itself is no pair", "very very fast build build", ["fast build"]],
      ["punctuation between two words does not part them (the index does not see it)", "postgres: deploy", ["postgres deploy"]],
      ["one word: no pair", "postgres", []],
      ["nothing to search", "", []],
      ["only stop words: they are the words searched, and pair up", "what is it", ["what is", "is it"]],
      ["snake_case stays one word", "get_user_name fails", ["get_user_name fails"]],
    ];
    for (const [what, text, expected] of cases) assert.deepEqual(adjacentPairs(text), expected, what);
  });

  test("at most MAX_PAIRS pairs, the first ones", () => {
    const words = Array.from({ length: 50 }, (_, i) => `w${i}x`);
    const pairs = adjacentPairs(words.join(" "));
    assert.equal(pairs.length, MAX_PAIRS);
    assert.equal(pairs[0], "w0x w1x");
  });

  test("pairsMatch quotes each pair as a phrase; withPairs adds the weighed phrase score", () => {
    assert.equal(pairsMatch([]), undefined);
    assert.equal(pairsMatch(["release notes", "dance studio"]), '"release notes" OR "dance studio"');
    const cases: [string, number, number, number, number][] = [
      ["no pair held: the words' score stands", 7, 0, 0.3, 7],
      ["a pair held adds weight × its score", 7, 4, 0.3, 7 + 1.2],
      ["weight 0 (switched off): unchanged", 7, 4, 0, 7],
      ["weight 1: the phrase counts as a word", 7, 4, 1, 11],
    ];
    for (const [what, score, pair, weight, expected] of cases) assert.ok(Math.abs(withPairs(score, pair, weight) - expected) < 1e-12, `${what}: ${withPairs(score, pair, weight)} ≠ ${expected}`);
  });
});

describe("adjacent words on a real FTS5 index", () => {
  let dir = "";
  let db: Db;
  const chunk = (id: string, text: string): NewChunk => ({ id, kind: "markdown", tier: "warm", heading: "", startLine: 1, endLine: 1, text, tags: [], date: null, metadata: {} });
  const rules = (change: Partial<QueryRules>): QueryRules => ({ ...DEFAULT_QUERY_RULES, ...change });

  before(() => {
    dir = mkdtempSync(join(tmpdir(), "mem-word-pairs-"));
    db = openDb(join(dir, "mem.sqlite"));
    const filler = ["The build pipeline runs the unit tests.", "Caching sits in front of the API.", "Logs rotate daily on every host.", "Hosts are patched on Mondays.", "The API answers in JSON."];
    new ChunkStore(db).replaceSource(
      clean({ project: "p1", path: "notes/x.md", kind: "markdown", tier: "warm", size: 100, mtimeMs: 1, hash: "h1", metadata: {} }),
      clean([
        chunk("c-apart", "Each release is tagged; notes on a release are kept."),
        chunk("c-side", "Our release notes are written for users of the app."),
        ...filler.map((t, i) => chunk(`c-filler-${i}`, t)),
      ]),
      1_000,
    );
  });

  after(() => {
    db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("the text that says the two words side by side ranks first; with the rule off, the one that says them more often but apart", () => {
    assert.ok(PAIR_WEIGHT > 0);
    const on = bm25Leg(db, "where are the release notes?", {}, 10);
    const off = bm25Leg(db, "where are the release notes?", {}, 10, undefined, rules({ pairs: 0 }));
    assert.deepEqual(off.map((h) => h.id), ["c-apart", "c-side"], "without pairs, BM25 alone");
    assert.deepEqual(on.map((h) => h.id), ["c-side", "c-apart"], "the pair lifts the text holding it");
    const apart = (hs: typeof on) => hs.find((h) => h.id === "c-apart")!.score;
    assert.ok(Math.abs(apart(on) - apart(off)) < 1e-9, "a text without the pair keeps its score");
  });

  test("pairs only reorder: they find nothing the words did not", () => {
    const on = bm25Leg(db, "notes rotate", {}, 10).map((h) => h.id).sort();
    const off = bm25Leg(db, "notes rotate", {}, 10, undefined, rules({ pairs: 0 })).map((h) => h.id).sort();
    assert.deepEqual(on, off);
  });
});
