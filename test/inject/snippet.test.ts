import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { stem } from "../../src/inject/format.js";
import { snippet } from "../../src/inject/snippet.js";

const terms = (...ws: string[]) => new Set(ws.map(stem));
const FILLER = "The weather was mild and nobody had anything to add to the minutes of the meeting.";
const DOC = [FILLER, FILLER, FILLER, "We chose SQLite over Postgres because it needs no server.", FILLER, FILLER].join(" ");

describe("the snippet of a memory too long to show whole", () => {
  test("a text that fits is shown whole", () => {
    assert.equal(snippet("We chose SQLite.", terms("sqlite"), stem, 100), "We chose SQLite.");
  });

  test("the window holding the query's terms is shown, from a sentence start, with both cuts marked", () => {
    const s = snippet(DOC, terms("sqlite", "postgres"), stem, 160);
    assert.ok(s.startsWith("…We chose SQLite over Postgres"), s);
    assert.ok(s.endsWith("…"));
    assert.ok(s.length <= 160, `${s.length} chars`);
  });

  test("no term anywhere: the beginning, cut at a word", () => {
    const s = snippet(DOC, terms("kestrel"), stem, 100);
    assert.ok(DOC.startsWith(s.slice(0, -1)), s);
    assert.match(s, /\w…$/);
    assert.ok(s.length <= 100);
  });

  test("more distinct terms beat more occurrences of one; among equals, the window opening on its match, the earliest such", () => {
    const text = ["Cache cache cache cache cache cache.", FILLER, "The cache eviction policy is LRU.", FILLER, "The cache eviction policy is LRU, again."].join(" ");
    assert.ok(snippet(text, terms("cache", "eviction"), stem, 60).startsWith("…The cache eviction policy is LRU."));
    assert.ok(snippet(text, terms("cache"), stem, 60).startsWith("Cache cache"));
  });

  test("stems match: a query's 'indexing' finds the text's 'indexer'", () => {
    const text = `${FILLER} ${FILLER} The indexer skips unchanged files. ${FILLER}`;
    assert.ok(snippet(text, terms("indexing"), stem, 90).startsWith("…The indexer skips"));
  });

  test("never longer than asked, whatever the text", () => {
    const words = ["alpha", "beta.", "gamma", "delta!", "x".repeat(90), "epsilon?", "zeta"];
    for (let seed = 1; seed <= 200; seed++) {
      let r = seed;
      const next = () => {
        r = (r * 48271) % 2147483647;
        return r;
      };
      const text = Array.from({ length: 5 + (next() % 80) }, () => words[next() % words.length]).join(" ");
      const max = 20 + (next() % 200);
      const s = snippet(text, terms("gamma", "zeta"), stem, max);
      assert.ok(s.length <= max, `seed ${seed}: ${s.length} > ${max}`);
      assert.ok(s.length > 0);
    }
  });
});
