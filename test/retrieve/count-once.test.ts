import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { bm25Leg, DEFAULT_BM25_WEIGHTS } from "../../src/retrieve/bm25.js";
import { countOnce } from "../../src/retrieve/count-once.js";
import { searchConcepts, searchForms, toMatchExpression } from "../../src/retrieve/fts-query.js";
import { ChunkStore, type NewChunk } from "../../src/store/chunks.js";
import { openDb, type Db } from "../../src/store/db.js";
import { clean } from "../../src/redact/clean.cjs";

describe("countOnce", () => {
  test("each word searched in several forms counts by its best form", () => {
    const cases: [string, number, number[][], number][] = [
      ["no word with several forms: the total stands", 7, [], 7],
      ["a word with one form is left alone", 7, [[3]], 7],
      ["two forms present: the smaller one is taken off", 10, [[4, 3]], 7],
      ["three forms, one absent (0)", 10, [[2, 0, 5]], 5 + 10 - 7],
      ["only one form present: nothing changes", 10, [[0, 4, 0]], 10],
      ["no form present", 10, [[0, 0]], 10],
      ["two words, each counted once", 20, [[4, 3], [1, 2, 6]], 20 - 3 - 3],
      ["equal forms: one of them counts", 8, [[2, 2]], 6],
    ];
    for (const [what, total, words, expected] of cases) assert.ok(Math.abs(countOnce(total, words) - expected) < 1e-12, `${what}: ${countOnce(total, words)} ≠ ${expected}`);
  });

  test("never more than the sum, never less than the sum without the extra forms", () => {
    const cases: [number, number[][]][] = [
      [12, [[5, 4]]],
      [9.5, [[0.5, 3, 2], [1, 1]]],
      [3, [[1, 1, 1]]],
    ];
    for (const [total, words] of cases) {
      const s = countOnce(total, words);
      assert.ok(s <= total, `${s} > ${total}`);
      const extras = words.reduce((a, fs) => a + fs.reduce((x, y) => x + y, 0) - Math.max(...fs), 0);
      assert.ok(Math.abs(s - (total - extras)) < 1e-12);
    }
  });
});

describe("searchConcepts", () => {
  test("each of the query's words with the forms it stands for, each form once", () => {
    const cases: [string, string[][]][] = [
      ["sqlite wal mode", [["sqlite"], ["wal"], ["mode"]]],
      ["why postgres", [["postgres", "postgresql", "psql"]]],
      // a form that is a word of the query stays that word's own
      ["postgres or postgresql", [["postgres", "psql"], ["postgresql"]]],
      ["the db chose", [["db", "database"], ["chose", "choose", "chosen", "choice"]]],
      // an identifier's words are a form of the identifier
      ["where is getUserName called", [["getusername", "get user name"], ["called"]]],
      // an identifier inside a snake_case name is no word of the query: its words are a word of their own
      ["old_getUserName", [["old_getusername"], ["get user name"]]],
      // a one-word name is not split
      ["JavaScript bundles", [["javascript", "js"], ["bundles"]]],
      ["", []],
    ];
    for (const [text, expected] of cases) assert.deepEqual(searchConcepts(text), expected, text);
  });

  test("the forms searched for are the concepts' forms, each once", () => {
    for (const text of ["postgres postgresql db database chose choose", "getUserName get user name", "k8s kubernetes tf"]) {
      const flat = searchConcepts(text).flat();
      assert.deepEqual(searchForms(text), flat);
      assert.equal(new Set(flat).size, flat.length, text);
      assert.equal(toMatchExpression(text), flat.map((f) => `"${f}"`).join(" OR "));
    }
  });
});

describe("bm25Leg counts a word once on a real FTS5 index", () => {
  let dir = "";
  let db: Db;
  const chunk = (id: string, text: string): NewChunk => ({ id, kind: "markdown", tier: "warm", heading: "", startLine: 1, endLine: 1, text, tags: [], date: null, metadata: {} });

  before(() => {
    dir = mkdtempSync(join(tmpdir(), "mem-count-once-"));
    db = openDb(join(dir, "mem.sqlite"));
    const filler = ["The build pipeline runs the unit tests.", "Caching sits in front of the API.", "Logs rotate daily on every host.", "Releases are tagged from the main branch.", "The queue workers scale with load."];
    new ChunkStore(db).replaceSource(
      clean({ project: "p1", path: "notes/db.md", kind: "markdown", tier: "warm", size: 100, mtimeMs: 1, hash: "h1", metadata: {} }),
      clean([
        // one word written three ways, and nothing else of the question
        chunk("c-spellings", "PostgreSQL is the store. Postgres got tuned, and psql is the shell for it."),
        // the word once, and the question's other word
        chunk("c-answer", "Postgres replicas serve the reporting queries."),
        ...filler.map((t, i) => chunk(`c-filler-${i}`, t)),
      ]),
      1_000,
    );
  });

  after(() => {
    db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const raw = (text: string) =>
    new Map(
      (db
        .prepare(`SELECT c.id AS id, bm25(chunks_fts, ${DEFAULT_BM25_WEIGHTS.heading}, ${DEFAULT_BM25_WEIGHTS.text}, ${DEFAULT_BM25_WEIGHTS.idents}) AS s FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid WHERE chunks_fts MATCH ?`)
        .all(toMatchExpression(text)!) as { id: string; s: number }[]).map((r) => [r.id, -r.s]),
    );

  test("a text holding more of the question's words outranks one writing a single word three ways", () => {
    const q = "postgres reporting";
    const summed = raw(q);
    // The index's own sum counts PostgreSQL, Postgres and psql three times: the spellings first.
    assert.ok(summed.get("c-spellings")! > summed.get("c-answer")!, `summed: ${[...summed].join(" ")}`);
    assert.deepEqual(bm25Leg(db, q, {}, 10).map((h) => h.id), ["c-answer", "c-spellings"]);
  });

  test("a word's score is its best form's: never above the index's sum, equal to it without other forms", () => {
    const q = "postgres reporting";
    const summed = raw(q);
    for (const h of bm25Leg(db, q, {}, 10)) assert.ok(h.score <= summed.get(h.id)! + 1e-9, h.id);
    const plain = raw("replicas reporting queries");
    const hits = bm25Leg(db, "replicas reporting queries", {}, 10);
    assert.ok(hits.length > 0);
    for (const h of hits) assert.ok(Math.abs(h.score - plain.get(h.id)!) < 1e-9, h.id);
  });

  test("the text that writes the word one way loses nothing: its score is the index's", () => {
    const summed = raw("postgres reporting");
    const answer = bm25Leg(db, "postgres reporting", {}, 10).find((h) => h.id === "c-answer")!;
    assert.ok(Math.abs(answer.score - summed.get("c-answer")!) < 1e-9);
  });
});
