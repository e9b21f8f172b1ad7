import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { bm25Leg } from "../../src/retrieve/bm25.js";
import { countOnce } from "../../src/retrieve/count-once.js";
import { searchConcepts } from "../../src/retrieve/fts-query.js";
import { DEFAULT_QUERY_RULES, type QueryRules } from "../../src/retrieve/query-rules.js";
import { alternativesOf } from "../../src/retrieve/vocabulary.js";
import { ChunkStore, type NewChunk } from "../../src/store/chunks.js";
import { openDb, type Db } from "../../src/store/db.js";
import { clean } from "../../src/redact/clean.cjs";

const rules = (change: Partial<QueryRules>): QueryRules => ({ ...DEFAULT_QUERY_RULES, ...change });

describe("the query rules, each a switch", () => {
  test("what each switch takes away from the words searched for", () => {
    const cases: [string, string, Partial<QueryRules>, string[][]][] = [
      ["every rule on: what ships", "where is getUserName, postgres chose", {}, [["getusername", "get user name"], ["postgres", "postgresql", "psql"], ["chose", "choose", "chosen", "choice"]]],
      ["no identifier splitting", "where is getUserName, postgres chose", { identifierSplit: false }, [["getusername"], ["postgres", "postgresql", "psql"], ["chose", "choose", "chosen", "choice"]]],
      ["no identifier splitting: a name inside snake_case adds no word either", "old_getUserName", { identifierSplit: false }, [["old_getusername"]]],
      ["no aliases: the word forms stay", "where is getUserName, postgres chose", { aliases: false }, [["getusername", "get user name"], ["postgres"], ["chose", "choose", "chosen", "choice"]]],
      ["no word forms: the aliases stay", "where is getUserName, postgres chose", { wordForms: false }, [["getusername", "get user name"], ["postgres", "postgresql", "psql"], ["chose"]]],
      ["nothing but the question's words", "where is getUserName, postgres chose", { identifierSplit: false, aliases: false, wordForms: false }, [["getusername"], ["postgres"], ["chose"]]],
    ];
    for (const [what, text, change, expected] of cases) assert.deepEqual(searchConcepts(text, rules(change)), expected, what);
  });

  test("the defaults are what searchConcepts does without rules", () => {
    for (const text of ["where is getUserName", "k8s deploy", "the db chose postgres", ""]) assert.deepEqual(searchConcepts(text, DEFAULT_QUERY_RULES), searchConcepts(text), text);
  });

  test("alternativesOf takes one table, the other, both or none", () => {
    const cases: [string, { aliases: boolean; wordForms: boolean }, string[]][] = [
      ["db", { aliases: true, wordForms: true }, ["database"]],
      ["db", { aliases: false, wordForms: true }, []],
      ["chose", { aliases: true, wordForms: false }, []],
      ["chose", { aliases: false, wordForms: true }, ["choose", "chosen", "choice"]],
      ["chose", { aliases: false, wordForms: false }, []],
      ["postgres", { aliases: true, wordForms: false }, ["postgresql", "psql"]],
    ];
    for (const [word, tables, expected] of cases) assert.deepEqual(alternativesOf(word, tables).sort(), [...expected].sort(), `${word} ${JSON.stringify(tables)}`);
    assert.deepEqual(alternativesOf("chose").sort(), ["choice", "choose", "chosen"]);
  });

  test("countOnce weighs a word's other forms against the word as written", () => {
    const cases: [string, number, number[][], number, number][] = [
      ["weight 1: the best form, whichever it is", 10, [[3, 4]], 1, 10 - 3],
      ["half: the other form's 4 counts 2, under the word's own 3", 10, [[3, 4]], 0.5, 10 - 7 + 3],
      ["half: an other form far above the word still wins, halved", 10, [[1, 8]], 0.5, 10 - 9 + 4],
      ["the word absent: its other form, weighed", 10, [[0, 6]], 0.5, 10 - 6 + 3],
      ["the word's own form is never weighed down", 10, [[5, 0, 0]], 0.25, 10],
    ];
    for (const [what, total, words, others, expected] of cases) assert.ok(Math.abs(countOnce(total, words, others) - expected) < 1e-12, `${what}: ${countOnce(total, words, others)} ≠ ${expected}`);
  });
});

describe("the query rules on a real FTS5 index", () => {
  let dir = "";
  let db: Db;
  const chunk = (id: string, text: string): NewChunk => ({ id, kind: "markdown", tier: "warm", heading: "", startLine: 1, endLine: 1, text, tags: [], date: null, metadata: {} });

  before(() => {
    dir = mkdtempSync(join(tmpdir(), "mem-query-rules-"));
    db = openDb(join(dir, "mem.sqlite"));
    const filler = ["The build pipeline runs the unit tests.", "Caching sits in front of the API.", "Logs rotate daily on every host.", "Releases are tagged from the main branch."];
    new ChunkStore(db).replaceSource(
      clean({ project: "p1", path: "notes/x.md", kind: "markdown", tier: "warm", size: 100, mtimeMs: 1, hash: "h1", metadata: {} }),
      clean([
        chunk("c-pg", "PostgreSQL holds the billing ledger."),
        chunk("c-choice", "Our choice for the queue was the broker."),
        chunk("c-name", "The handler calls get_user_name on login."),
        chunk("c-two", "PostgreSQL, and psql for the reporting shell."),
        ...filler.map((t, i) => chunk(`c-filler-${i}`, t)),
      ]),
      1_000,
    );
  });

  after(() => {
    db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const ids = (text: string, change: Partial<QueryRules> = {}) => bm25Leg(db, text, {}, 10, undefined, rules(change)).map((h) => h.id).sort();

  test("each switch off, the text only its rule found is not found", () => {
    const cases: [string, string, Partial<QueryRules>, string[]][] = [
      ["aliases on: psql finds PostgreSQL", "psql", {}, ["c-pg", "c-two"]],
      ["aliases off", "psql", { aliases: false }, ["c-two"]],
      ["word forms on: chose finds choice", "chose", {}, ["c-choice"]],
      ["word forms off", "chose", { wordForms: false }, []],
      ["identifier splitting on: getUserName finds get_user_name", "getUserName", {}, ["c-name"]],
      ["identifier splitting off", "getUserName", { identifierSplit: false }, []],
    ];
    for (const [what, text, change, expected] of cases) assert.deepEqual(ids(text, change), expected, what);
  });

  test("count-once off: a word's forms add up as the index sums them; on, a text writing it two ways scores less", () => {
    const summed = new Map((db.prepare("SELECT c.id AS id, bm25(chunks_fts, 2, 1, 0.5) AS s FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid WHERE chunks_fts MATCH ?").all('"postgres" OR "postgresql" OR "psql" OR "billing"') as { id: string; s: number }[]).map((r) => [r.id, -r.s]));
    const off = bm25Leg(db, "postgres billing", {}, 10, undefined, rules({ countOnce: false }));
    assert.deepEqual(off.map((h) => h.id).sort(), ["c-pg", "c-two"]);
    for (const h of off) assert.ok(Math.abs(h.score - summed.get(h.id)!) < 1e-9, h.id);
    const on = new Map(bm25Leg(db, "postgres billing", {}, 10).map((h) => [h.id, h.score]));
    assert.ok(on.get("c-two")! < summed.get("c-two")! - 1e-6, "PostgreSQL and psql count once");
  });

  test("other forms weighed down: a text that writes the word another way scores less, one that writes it as asked does not", () => {
    const full = new Map(bm25Leg(db, "postgresql billing", {}, 10).map((h) => [h.id, h.score]));
    const half = new Map(bm25Leg(db, "postgres reporting", {}, 10, undefined, rules({ otherForms: 0.5 })).map((h) => [h.id, h.score]));
    const same = new Map(bm25Leg(db, "postgres reporting", {}, 10).map((h) => [h.id, h.score]));
    assert.ok(half.get("c-two")! < same.get("c-two")! - 1e-6);
    const asked = new Map(bm25Leg(db, "postgresql billing", {}, 10, undefined, rules({ otherForms: 0.5 })).map((h) => [h.id, h.score]));
    assert.ok(Math.abs(asked.get("c-pg")! - full.get("c-pg")!) < 1e-9, "the word as written is not weighed down");
  });
});
