import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { chunksToRank, fts5Idf } from "../../src/retrieve/bm25-bound.js";
import { bm25Leg, indexedRows } from "../../src/retrieve/bm25.js";
import { searchConcepts } from "../../src/retrieve/fts-query.js";
import { openDb, type Db } from "../../src/store/db.js";
import { prng } from "../../scripts/prng.js";

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);
const sorted = (xs: number[] | undefined) => (xs === undefined ? undefined : [...xs].sort((a, b) => a - b));

describe("fts5Idf", () => {
  test("FTS5's bm25() inverse document frequency, floored at 1e-6", () => {
    const cases: [number, number, number][] = [
      [1, 1000, Math.log(999.5 / 1.5)],
      [10, 1000, Math.log(990.5 / 10.5)],
      [500, 1000, 1e-6], // log(500.5 / 500.5) = 0
      [900, 1000, 1e-6], // negative: floored
    ];
    for (const [df, rows, want] of cases) assert.ok(Math.abs(fts5Idf(df, rows) - want) < 1e-12, `${df}/${rows}: ${fts5Idf(df, rows)} ≠ ${want}`);
    assert.ok(fts5Idf(3, 1000) > fts5Idf(30, 1000), "the rarer word weighs more");
  });
});

describe("chunksToRank", () => {
  const rare = [1, 2, 3];
  const common = range(10, 100);
  const cases: { what: string; lists: number[][]; budget: number; least: number; want: number[] | undefined }[] = [
    { what: "no word", lists: [], budget: 5, least: 2, want: undefined },
    { what: "every match fits the budget: all ranked", lists: [rare, [3, 4]], budget: 4, least: 2, want: undefined },
    { what: "the rare word's chunks first; the common word alone adds none", lists: [rare, common], budget: 5, least: 2, want: rare },
    { what: "the words' order does not matter", lists: [common, rare], budget: 5, least: 2, want: rare },
    { what: "a chunk holding both words before those holding one", lists: [[1, 2, 3, 50], common], budget: 3, least: 1, want: [50] },
    { what: "two words before the rarer alone, then the rarer", lists: [[1, 2, 3, 50], common], budget: 4, least: 1, want: [1, 2, 3, 50] },
    { what: "a level is kept whole or not at all", lists: [[1, 2, 50], common], budget: 2, least: 1, want: [50] },
    { what: "the heaviest level is kept whole, past the budget", lists: [[1, 2, 3, 4], common], budget: 3, least: 1, want: [1, 2, 3, 4] },
    { what: "at least `least` chunks, past the budget if a level needs it", lists: [rare, common], budget: 5, least: 4, want: undefined },
    { what: "`least` reached across levels", lists: [[1, 2, 50], range(10, 60), range(200, 400)], budget: 3, least: 3, want: [1, 2, 50] },
    { what: "one level (a single word): nothing to bound", lists: [common], budget: 5, least: 2, want: undefined },
    { what: "unsorted lists with repeats read as sorted", lists: [[3, 1, 2, 1], [...common].reverse()], budget: 5, least: 2, want: rare },
  ];
  test("keeps whole levels of weight, heaviest first, within the budget", () => {
    for (const c of cases) assert.deepEqual(sorted(chunksToRank(c.lists, 1000, c.budget, c.least)), c.want, c.what);
  });

  test("a chunk holding more of the words never ranks after one holding fewer of them", () => {
    const rand = prng(5);
    const lists = [0.02, 0.05, 0.1, 0.2].map((p) => range(1, 5000).filter(() => rand() < p));
    const kept = new Set(chunksToRank(lists, 5000, 300, 50));
    assert.ok(kept.size > 0 && kept.size <= 300, `${kept.size}`);
    const sets = lists.map((l) => new Set(l));
    for (const r of range(1, 5000)) {
      if (kept.has(r) || !sets.some((s) => s.has(r))) continue;
      // a chunk left out does not hold every word a kept chunk holds
      for (const k of kept) assert.ok(!sets.every((s) => !s.has(k) || s.has(r)), `${r} holds every word of kept ${k}`);
    }
  });
});

const dir = mkdtempSync(join(tmpdir(), "mem-bm25-bound-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Chunks of 8 tokens each, every query word at most once, in the text alone: bm25() is then a sum of the words' IDFs times one factor. */
function evenStore(name: string, chunks: number): Db {
  const db = openDb(join(dir, name));
  db.prepare("INSERT INTO sources (id, project, path, kind, size, mtime_ms, content_hash, indexed_at) VALUES (1, 'p', 'a.md', 'markdown', 0, 0, '', 0)").run();
  const insert = db.prepare("INSERT INTO chunks (id, source_id, project, path, kind, heading, start_line, end_line, text, seq) VALUES (?, 1, 'p', 'a.md', 'markdown', '', ?, ?, ?, ?)");
  const rand = prng(11);
  const words: [string, number][] = [["harbor", 0.03], ["lantern", 0.08], ["meadow", 0.2], ["pebble", 0.35]];
  db.transaction(() => {
    for (let i = 0; i < chunks; i++) {
      const held = words.filter(([, p]) => rand() < p).map(([w]) => w);
      const filler = Array.from({ length: 8 - held.length }, (_, k) => `filler${i}x${k}`.replace(/\d/g, (d) => "abcdefghij"[Number(d)]!));
      insert.run(`c${i}`, i, i, [...held, ...filler].join(" "), i);
    }
  })();
  return db;
}

test("on a store where bm25() orders chunks as their words' weight does, the bounded leg returns the full leg's top, score for score", () => {
  const db = evenStore("even.sqlite", 3000);
  const q = "harbor lantern meadow pebble";
  assert.equal(indexedRows(db), 3000, "FTS5's own row count");
  // the bound bites: the words match far more chunks than the budget, and fewer are ranked
  const list = db.prepare("SELECT json_group_array(rowid) FROM chunks_fts WHERE chunks_fts MATCH ?").pluck();
  const lists = searchConcepts(q).map((forms) => JSON.parse(list.get(forms.map((f) => `"${f}"`).join(" OR ")) as string) as number[]);
  const union = new Set(lists.flat()).size;
  const ranked = chunksToRank(lists, 3000, 200, 200);
  assert.ok(ranked && union > 1000 && ranked.length < union / 3 && ranked.length >= 200, `${union} matches, ${ranked?.length} ranked`);
  for (const limit of [5, 20, 50]) {
    const full = bm25Leg(db, q, { projects: ["p"] }, limit, undefined, undefined, Number.POSITIVE_INFINITY);
    const bounded = bm25Leg(db, q, { projects: ["p"] }, limit, undefined, undefined, 200);
    assert.equal(bounded.length, limit);
    // the same scores in the same order; the same chunks, but for ties at the last place
    assert.deepEqual(bounded.map((h) => h.score), full.map((h) => h.score), `top ${limit}`);
    const last = full.at(-1)!.score;
    assert.deepEqual(new Set(bounded.filter((h) => h.score > last).map((h) => h.id)), new Set(full.filter((h) => h.score > last).map((h) => h.id)), `top ${limit}`);
  }
  db.close();
});

test("a small store is ranked in full: the leg is unchanged below the budget", () => {
  const db = evenStore("small.sqlite", 150);
  const q = "harbor lantern meadow pebble";
  const full = bm25Leg(db, q, {}, 50, undefined, undefined, Number.POSITIVE_INFINITY);
  assert.ok(full.length > 20);
  assert.deepEqual(bm25Leg(db, q, {}, 50), full);
  db.close();
});
