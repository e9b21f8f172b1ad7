import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { collapseNearDuplicates, jaccard } from "../../src/retrieve/dedupe.js";

interface Hit {
  id: string;
  text: string;
}

const DECISION =
  "We chose SQLite over Postgres because mem runs on a laptop with no server to manage. SQLite in WAL mode lets the hooks " +
  "write events while the indexer reads, and FTS5 gives us BM25 ranking without another service.";

const collapse = (items: Hit[], threshold = 0.9) => collapseNearDuplicates(items, (h) => h.text, threshold);
const summary = (out: ReturnType<typeof collapse>) => out.map((g) => [g.item.id, g.duplicates]);

describe("jaccard", () => {
  test("is the size of the intersection over the size of the union", () => {
    assert.equal(jaccard(new Set(["a", "b"]), new Set(["b", "c"])), 1 / 3);
    assert.equal(jaccard(new Set(["a", "b"]), new Set(["a", "b"])), 1);
    assert.equal(jaccard(new Set(["a"]), new Set(["b"])), 0);
    assert.equal(jaccard(new Set(["a"]), new Set()), 0);
  });
});

describe("collapseNearDuplicates", () => {
  test("identical texts collapse into the first, higher-ranked item", () => {
    const out = collapse([
      { id: "reference/storage.md#1", text: DECISION },
      { id: "notes/copy.md#1", text: DECISION },
    ]);
    assert.deepEqual(summary(out), [["reference/storage.md#1", ["notes/copy.md#1"]]]);
  });

  test("texts that differ only in case, punctuation and spacing are identical", () => {
    const out = collapse([
      { id: "a", text: DECISION },
      { id: "b", text: `  ${DECISION.toUpperCase().replace(/[.,]/g, " ;")}\n\n` },
    ]);
    assert.deepEqual(summary(out), [["a", ["b"]]]);
  });

  test("a near-identical copy with one word changed collapses, and the absorbed ids are listed in rank order", () => {
    const out = collapse([
      { id: "first", text: DECISION },
      { id: "other", text: "Benchmarks print figures; unit tests never time anything and never sleep." },
      { id: "edited", text: DECISION.replace("another service", "another daemon") },
      { id: "copy", text: DECISION },
    ]);
    assert.deepEqual(summary(out), [
      ["first", ["edited", "copy"]],
      ["other", []],
    ]);
    assert.equal(out[0]!.item.text, DECISION, "the kept item is the original, not a copy");
  });

  test("different texts are all kept, in their original order", () => {
    const items = [
      { id: "1", text: DECISION },
      { id: "2", text: "LanceDB is embedded and stores vectors on disk in the Lance columnar format." },
      { id: "3", text: "Chose p-queue with a concurrency of two for embedding batches." },
    ];
    assert.deepEqual(summary(collapse(items)), [
      ["1", []],
      ["2", []],
      ["3", []],
    ]);
  });

  test("the threshold decides how similar is similar enough", () => {
    // Changing one of the last words of a 40-word text keeps about 93% of its word triples.
    const edited = DECISION.replace("another service", "another daemon");
    const items = [
      { id: "a", text: DECISION },
      { id: "b", text: edited },
    ];
    assert.equal(collapse(items, 0.9).length, 1);
    assert.equal(collapse(items, 0.95).length, 2);
    assert.equal(collapse(items, 1).length, 2);
    // Half the text shared is not a duplicate at the default 0.9, but is at 0.3.
    const half = [
      { id: "a", text: DECISION },
      { id: "b", text: `${DECISION.slice(0, DECISION.length / 2)} and then something else entirely happened to the project plan today` },
    ];
    assert.equal(collapse(half, 0.9).length, 2);
    assert.equal(collapse(half, 0.3).length, 1);
  });

  test("each item is compared with the kept items only, so duplicates do not chain", () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
    const a = words.join(" ");
    const b = [...words.slice(0, 38), "x1", "x2"].join(" "); // 36 of 40 triples shared with a: 0.9
    const c = ["y1", "y2", ...b.split(" ").slice(2)].join(" "); // 0.9 with b, but only 34/42 ≈ 0.81 with a
    const items = [
      { id: "a", text: a },
      { id: "b", text: b },
      { id: "c", text: c },
    ];
    assert.deepEqual(summary(collapse(items.slice(1), 0.85)), [["b", ["c"]]], "c is a near-duplicate of b");
    assert.deepEqual(summary(collapse(items, 0.85)), [
      ["a", ["b"]],
      ["c", []],
    ]);
  });

  test("short texts of one or two words compare as a whole", () => {
    const out = collapse([
      { id: "a", text: "Use SQLite" },
      { id: "b", text: "use sqlite!" },
      { id: "c", text: "Use LanceDB" },
      { id: "d", text: "SQLite" },
    ]);
    assert.deepEqual(summary(out), [
      ["a", ["b"]],
      ["c", []],
      ["d", []],
    ]);
  });

  test("unicode words count as words", () => {
    const out = collapse([
      { id: "a", text: "東京 大阪 名古屋" },
      { id: "b", text: "東京 大阪 札幌" },
      { id: "c", text: "東京、大阪、名古屋。" },
      { id: "d", text: "Entscheidung: größere Stapel für Einbettungen" },
      { id: "e", text: "ENTSCHEIDUNG — größere Stapel FÜR Einbettungen" },
    ]);
    assert.deepEqual(summary(out), [
      ["a", ["c"]],
      ["b", []],
      ["d", ["e"]],
    ]);
  });

  test("with a limit, it stops once that many groups are kept", () => {
    const items = [
      { id: "a", text: "alpha beta gamma delta" },
      { id: "a2", text: "Alpha, beta, gamma, delta." },
      { id: "b", text: "one two three four" },
      { id: "c", text: "red green blue yellow" },
      { id: "d", text: "north south east west" },
    ];
    const out = collapseNearDuplicates(items, (h) => h.text, 0.9, 2);
    assert.deepEqual(summary(out), [
      ["a", ["a2"]],
      ["b", []],
    ]);
    assert.equal(collapseNearDuplicates(items, (h) => h.text, 0.9).length, 4, "no limit keeps every group");
  });

  test("no items give no groups", () => {
    assert.deepEqual(collapse([]), []);
  });
});

describe("collapseNearDuplicates remembers texts between calls", () => {
  test("the same answer before and after thousands of other texts filled and emptied its memory", () => {
    const items = [
      { id: "a", text: DECISION },
      { id: "b", text: `${DECISION} Also noted.` },
      { id: "c", text: "A different note about the deploy pipeline and its caches." },
    ];
    const first = summary(collapse(items));
    assert.deepEqual(first, [["a", ["b"]], ["c", []]]);
    for (let i = 0; i < 50; i++) collapse(Array.from({ length: 100 }, (_, j) => ({ id: `x${i}-${j}`, text: `word${i}x${j} alpha${j} beta${i} gamma${i * 100 + j} delta` })));
    assert.deepEqual(summary(collapse(items)), first);
    assert.deepEqual(summary(collapse(items)), first);
  });
});
