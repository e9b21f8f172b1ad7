import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { chunksToRank, fts5Idf, inScope, within } from "../../src/retrieve/bm25-bound.js";
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

  test("counted per mask of words (up to 16 words) or per summed weight (more): the same chunks", () => {
    const rand = prng(9);
    let bound = 0;
    for (let round = 0; round < 20; round++) {
      const words = 2 + Math.floor(rand() * 15);
      const lists = Array.from({ length: words }, () => range(1, 3000).filter(() => rand() < 0.002 + rand() * 0.2));
      const budget = 50 + Math.floor(rand() * 600);
      const least = Math.floor(rand() * budget);
      // a 17th word no chunk holds adds nothing, and takes the other count
      const masks = chunksToRank(lists, 3000, budget, least);
      if (masks) bound++;
      assert.deepEqual(masks, chunksToRank([...lists, []], 3000, budget, least), `round ${round}: ${words} words, budget ${budget}`);
    }
    assert.ok(bound >= 10, `the bound took effect in ${bound} rounds`);
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

describe("within and inScope", () => {
  test("within: the rowids of a list that the scope holds", () => {
    const cases: [number[], number[], number[]][] = [
      [[], [1, 2], []],
      [[1, 2, 3], [], []],
      [[1, 3, 5, 7], [2, 3, 4, 7, 9], [3, 7]],
      [[7, 3, 5, 3], [3, 5], [3, 5]], // unsorted, repeats: read as sorted
      [[10, 20], [1, 2, 3], []],
    ];
    for (const [list, scope, want] of cases) assert.deepEqual(within(list, Float64Array.from(scope)), want, `${list} in ${scope}`);
  });

  test("inScope: the bound over the matches in scope, the words weighed by their frequency in the whole index", () => {
    const cases: { what: string; lists: number[][]; scope: number[]; budget: number; least: number; want: { rowids: number[]; every: boolean } }[] = [
      { what: "in scope, the rare word's chunks; the common word's left out", lists: [[1, 2, 900], range(3, 800)], scope: range(1, 100), budget: 5, least: 2, want: { rowids: [1, 2], every: false } },
      { what: "every match in scope fits: all of them", lists: [[1, 900], range(50, 800)], scope: [1, 50, 51, 700], budget: 10, least: 2, want: { rowids: [1, 50, 51, 700], every: true } },
      { what: "nothing in scope", lists: [[900], range(500, 800)], scope: [1, 2], budget: 10, least: 2, want: { rowids: [], every: true } },
      // in scope "a" holds 2 chunks, "b" 3: by their scoped counts "a" would be the rarer; by the index's, "b" is (10 against 400)
      { what: "weighed by the whole index's counts, not the scope's", lists: [[1, 2, ...range(500, 897)], [3, 4, 5, ...range(901, 907)]], scope: range(1, 10), budget: 3, least: 1, want: { rowids: [3, 4, 5], every: false } },
    ];
    for (const c of cases) assert.deepEqual(inScope(c.lists, Float64Array.from(c.scope), 1000, c.budget, c.least), c.want, c.what);
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

/**
 * A small project in a larger store: the global top of the fast path holds almost none of the small
 * project's chunks, so the leg ranks the filtered matches. In the small project one chunk holds a
 * rare word ("zyx"), 250 long ones hold "beta" once, 300 short ones "alpha" three times (they
 * outscore the beta chunks by their counts); the big project's 2,000 chunks hold both common words.
 */
function smallInLarge(name: string, coldBeta = false): Db {
  const db = openDb(join(dir, name));
  db.prepare("INSERT INTO sources (id, project, path, kind, size, mtime_ms, content_hash, indexed_at) VALUES (1, 'small', 's.md', 'markdown', 0, 0, '', 0), (2, 'big', 'b.md', 'markdown', 0, 0, '', 0)").run();
  const insert = db.prepare("INSERT INTO chunks (id, source_id, project, path, kind, tier, heading, start_line, end_line, text, seq) VALUES (?, ?, ?, ?, 'markdown', ?, '', ?, ?, ?, ?)");
  const filler = (i: number, n: number) => Array.from({ length: n }, (_, k) => `w${i}x${k}`.replace(/\d/g, (d) => "abcdefghij"[Number(d)]!)).join(" ");
  let seq = 0;
  const put = (id: string, source: 1 | 2, tier: string | null, text: string) => insert.run(id, source, source === 1 ? "small" : "big", source === 1 ? "s.md" : "b.md", tier, seq, seq, text, seq++);
  db.transaction(() => {
    put("zyx", 1, null, `zyx ${filler(0, 20)}`);
    for (let i = 0; i < 250; i++) put(`beta${i}`, 1, coldBeta ? "cold" : null, `beta ${filler(i + 1, 40)}`);
    for (let i = 0; i < 300; i++) put(`alpha${i}`, 1, null, "alpha alpha alpha");
    for (let i = 0; i < 2000; i++) put(`big${i}`, 2, null, "beta alpha");
    for (let i = 0; i < 5450; i++) put(`other${i}`, 2, null, filler(i + 1000, 8));
  })();
  return db;
}

describe("the filtered ranking of a small project in a large store", () => {
  const small = { projects: ["small"] };
  test("is bounded as the fast path is: the small project's chunks holding the heavier words are ranked, a common word alone is not", () => {
    const db = smallInLarge("scoped.sqlite");
    const q = "zyx beta alpha";
    // the global top holds the rare chunk and the big project's: the fast path falls short of the limit
    assert.ok(bm25Leg(db, q, {}, 200, undefined, undefined, 200).filter((h) => h.id.startsWith("big")).length > 150);
    const full = bm25Leg(db, q, small, 30, undefined, undefined, Number.POSITIVE_INFINITY);
    const bounded = bm25Leg(db, q, small, 30, undefined, undefined, 200);
    assert.equal(full[0]!.id, "zyx");
    assert.ok(full.slice(1).every((h) => h.id.startsWith("alpha")), "ranked in full, the alpha chunks outscore the beta chunks by their counts");
    assert.equal(bounded.length, 30);
    assert.equal(bounded[0]!.id, "zyx");
    assert.ok(bounded.slice(1).every((h) => h.id.startsWith("beta")), `bounded: ${bounded.map((h) => h.id).join(" ")}`);
    db.close();
  });

  test("ranks every match in scope when they are one level past the rare word's: the answer of the full ranking", () => {
    const db = smallInLarge("scoped-all.sqlite");
    for (const q of ["zyx alpha", "alpha", "zyx beta"]) {
      const full = bm25Leg(db, q, small, 30, undefined, undefined, Number.POSITIVE_INFINITY);
      assert.ok(full.length >= 30, q);
      assert.deepEqual(bm25Leg(db, q, small, 30, undefined, undefined, 200), full, q);
    }
    db.close();
  });

  test("ranks every match again when the chunks it kept fail the other filters (the cold tier)", () => {
    const db = smallInLarge("scoped-cold.sqlite", true);
    const q = "zyx beta alpha";
    const full = bm25Leg(db, q, small, 30, undefined, undefined, Number.POSITIVE_INFINITY);
    assert.ok(full.length === 30 && full.slice(1).every((h) => h.id.startsWith("alpha")));
    assert.deepEqual(bm25Leg(db, q, small, 30, undefined, undefined, 200), full);
    db.close();
  });
});
