import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { bm25Leg } from "../../src/retrieve/bm25.js";
import { searchConcepts } from "../../src/retrieve/fts-query.js";
import { spellingVariants } from "../../src/retrieve/spelling.js";
import { ChunkStore } from "../../src/store/chunks.js";
import { openDb } from "../../src/store/db.js";
import { clean } from "../../src/redact/clean.cjs";

describe("spellingVariants", () => {
  test("British and American spellings of one word find each other", () => {
    const cases: [string, string[]][] = [
      ["licence", ["license"]],
      ["licenses", ["licences"]],
      ["organise", ["organize"]],
      ["organization", ["organisation"]],
      ["serialized", ["serialised"]],
      ["analyse", ["analyze"]],
      ["colour", ["color"]],
      ["behavior", ["behaviour"]],
      ["favor", ["favour"]],
      ["centre", ["center"]],
      ["centers", ["centres"]],
      ["catalogue", ["catalog"]],
      ["dialog", ["dialogue"]],
      ["defence", ["defense"]],
    ];
    for (const [word, expected] of cases) assert.deepEqual(spellingVariants(word), expected, word);
  });

  test("short words, other endings and anything but lower-case letters are left alone", () => {
    for (const word of ["four", "our", "hour", "your", "log", "blog", "size", "prize", "raise", "after", "water", "keys", "days", "always", "since", "use", "db", "k8s", "café", "Licence", "get_user", ""]) {
      assert.deepEqual(spellingVariants(word), [], word);
    }
  });

  test("a variant is never the word itself, and the variant's variant is the word", () => {
    for (const word of ["licence", "organise", "colour", "centre", "catalogue", "analyse"]) {
      const [other] = spellingVariants(word);
      assert.ok(other && other !== word, word);
      assert.ok(spellingVariants(other).includes(word), `${other} → ${word}`);
    }
  });

  test("the search looks for both spellings as one word", () => {
    assert.deepEqual(searchConcepts("which licences ruled it out"), [["licences", "licenses"], ["ruled"], ["out"]]);
    // a spelling the question also writes stays its own word
    assert.deepEqual(searchConcepts("colour color"), [["colour"], ["color"]]);
  });
});

describe("the other spelling on a real FTS5 index", () => {
  test("a question written in British English finds the record written in American English, and back", () => {
    const dir = mkdtempSync(join(tmpdir(), "mem-spelling-"));
    const db = openDb(join(dir, "mem.sqlite"));
    try {
      const chunk = (id: string, text: string) => ({ id, kind: "markdown", tier: "warm", heading: "", startLine: 1, endLine: 1, text, tags: [], date: null, metadata: {} });
      new ChunkStore(db).replaceSource(
        clean({ project: "p1", path: "docs/ocr.md", kind: "markdown", tier: "warm", size: 1, mtimeMs: 1, hash: "h1", metadata: {} }),
        clean([chunk("c-us", "Two engines were ruled out because of their licenses."), chunk("c-uk", "The colour scheme follows the operating system."), chunk("c-other", "Tests run on every push.")]),
        1_000,
      );
      assert.deepEqual(bm25Leg(db, "which licences", {}, 10).map((h) => h.id), ["c-us"]);
      assert.deepEqual(bm25Leg(db, "color", {}, 10).map((h) => h.id), ["c-uk"]);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
