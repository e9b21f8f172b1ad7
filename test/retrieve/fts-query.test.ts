import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { bm25Leg } from "../../src/retrieve/bm25.js";
import { MAX_QUERY_TERMS, queryTerms, toMatchExpression } from "../../src/retrieve/fts-query.js";
import { ChunkStore, type NewChunk } from "../../src/store/chunks.js";
import { openDb, type Db } from "../../src/store/db.js";
import { clean } from "../../src/redact/clean.cjs";

describe("queryTerms", () => {
  test("lower-cases words and drops stop words", () => {
    assert.deepEqual(queryTerms("Why did we choose SQLite for the metadata?"), ["choose", "sqlite", "metadata"]);
  });

  test("keeps the stop words when the query is nothing but stop words", () => {
    assert.deepEqual(queryTerms("What is the"), ["what", "is", "the"]);
  });

  test("drops repeated words", () => {
    assert.deepEqual(queryTerms("sqlite SQLite Sqlite wal"), ["sqlite", "wal"]);
  });

  test("keeps unicode words, digits and underscores", () => {
    assert.deepEqual(queryTerms("Café naïve 東京 größe user_version v2"), ["café", "naïve", "東京", "größe", "user_version", "v2"]);
  });

  test("drops words of 64 characters or more", () => {
    const long = "x".repeat(64);
    const fine = "y".repeat(63);
    assert.deepEqual(queryTerms(`${long} ${fine} lancedb`), [fine, "lancedb"]);
  });

  test(`keeps at most ${MAX_QUERY_TERMS} terms, the first ones`, () => {
    const words = Array.from({ length: 100 }, (_, i) => `term${i}`);
    const terms = queryTerms(words.join(" "));
    assert.equal(terms.length, MAX_QUERY_TERMS);
    assert.deepEqual(terms, words.slice(0, MAX_QUERY_TERMS));
  });
});

describe("toMatchExpression", () => {
  test("quotes every term and joins them with OR", () => {
    assert.equal(toMatchExpression("sqlite wal mode"), '"sqlite" OR "wal" OR "mode"');
  });

  test("FTS5 syntax in the input becomes plain quoted terms", () => {
    const cases: [string, string | undefined][] = [
      ['"unterminated', '"unterminated"'],
      ['say "hello world"', '"say" OR "hello" OR "world"'],
      ["a OR", '"a" OR "or"'],
      ["sqlite AND lancedb NOT postgres", '"sqlite" OR "lancedb" OR "postgres" OR "postgresql" OR "psql"'],
      ["NEAR(sqlite lancedb, 3)", '"near" OR "sqlite" OR "lancedb" OR "3"'],
      ["NEAR(", '"near"'],
      ["heading:storage", '"heading" OR "storage"'],
      ["col:foo", '"col" OR "foo"'],
      ["embed*", '"embed"'],
      ["-x", '"x"'],
      ["(sqlite OR lancedb) -postgres", '"sqlite" OR "lancedb" OR "postgres" OR "postgresql" OR "psql"'],
      ["^start + {heading text} : sqlite", '"start" OR "heading" OR "text" OR "sqlite"'],
    ];
    for (const [input, expected] of cases) assert.equal(toMatchExpression(input), expected, input);
  });

  test("no term ever carries a quote, an operator character or whitespace", () => {
    const hostile = `"'*:-^+(){}[]\\ NEAR/3 x"y z*"`;
    const expr = toMatchExpression(hostile)!;
    for (const term of expr.split(" OR ")) assert.match(term, /^"[\p{L}\p{N}_]+"$/u);
  });

  test("empty, blank or punctuation-only input has no expression", () => {
    for (const input of ["", "   ", "\n\t", "*", '"', "-", "()", "?!.,;:", "— … ·"]) assert.equal(toMatchExpression(input), undefined, JSON.stringify(input));
  });
});

describe("bm25Leg with hostile queries on a real FTS5 index", () => {
  let dir = "";
  let db: Db;

  const chunk = (id: string, heading: string, text: string): NewChunk => ({
    id,
    kind: "decision",
    tier: "warm",
    heading,
    startLine: 1,
    endLine: 3,
    text,
    tags: ["storage"],
    date: "2026-10-02",
    metadata: {},
  });

  before(() => {
    dir = mkdtempSync(join(tmpdir(), "mem-fts-query-"));
    db = openDb(join(dir, "mem.sqlite"));
    new ChunkStore(db).replaceSource(
      clean({ project: "p1", path: "reference/storage.md", kind: "markdown", tier: "warm", size: 100, mtimeMs: 1, hash: "h1", metadata: {} }),
      clean([
        chunk("c-sqlite", "Storage decisions > Why SQLite", "We chose SQLite in WAL mode so hooks write events while the indexer reads. Column col foo."),
        chunk("c-lance", "Storage decisions > Why LanceDB", "Vectors live in LanceDB, one table per embedding model. NEAR the end: unterminated quotes."),
      ]),
      1_000,
    );
  });

  after(() => {
    db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("the raw hostile inputs really are FTS5 syntax errors when passed unquoted", () => {
    const raw = db.prepare("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?");
    for (const input of ['"unterminated', "a OR", "NEAR(", "col:foo", "*", "-x"]) {
      assert.throws(() => raw.all(input), /fts5|syntax|no such column|unterminated|special query/i, input);
    }
  });

  test("hostile inputs run through bm25Leg without a SQLite error", () => {
    const hostile = ['"unterminated', "a OR", "NEAR(", "col:foo", "*", "-x", "sqlite AND", "OR OR OR", "heading:", '""', "NOT lancedb", "(((", "embed* ^wal"];
    for (const input of hostile) {
      assert.doesNotThrow(() => bm25Leg(db, input, {}, 10), input);
    }
  });

  test("operator words and column syntax are searched as plain words", () => {
    assert.deepEqual(
      bm25Leg(db, "col:foo", {}, 10).map((h) => h.id),
      ["c-sqlite"],
    );
    assert.deepEqual(
      bm25Leg(db, '"unterminated', {}, 10).map((h) => h.id),
      ["c-lance"],
    );
    assert.deepEqual(
      bm25Leg(db, "NEAR(", {}, 10).map((h) => h.id),
      ["c-lance"],
    );
  });

  test("a query with no searchable word returns nothing without touching SQLite", () => {
    assert.deepEqual(bm25Leg(db, "*", {}, 10), []);
    assert.deepEqual(bm25Leg(db, "", {}, 10), []);
  });

  test("an ordinary query ranks the matching chunk first with a positive score", () => {
    const hits = bm25Leg(db, "Why did we choose SQLite?", {}, 10);
    assert.equal(hits[0]?.id, "c-sqlite");
    assert.ok(hits[0]!.score > 0, "scores are negated bm25 so higher is better");
    assert.ok(!hits.some((h) => h.id === "c-lance"));
  });

  test("non-finite or negative column weights fall back to 1 instead of reaching the SQL", () => {
    assert.doesNotThrow(() => bm25Leg(db, "sqlite", {}, 10, { heading: Number.NaN, text: -5, idents: Number.NEGATIVE_INFINITY }));
    assert.equal(bm25Leg(db, "sqlite", {}, 10, { heading: Number.POSITIVE_INFINITY, text: 1, idents: 1 })[0]?.id, "c-sqlite");
  });
});
