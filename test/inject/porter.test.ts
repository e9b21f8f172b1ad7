import assert from "node:assert/strict";
import { describe, test } from "node:test";
import Database from "better-sqlite3";
import { stem } from "../../src/inject/floor.js";
import { porter } from "../../src/inject/porter.js";

// Pairs from Porter's paper and his published vocabulary.
const PAPER: [string, string][] = [
  ["caresses", "caress"], ["ponies", "poni"], ["ties", "ti"], ["caress", "caress"], ["cats", "cat"], ["feed", "feed"], ["agreed", "agre"],
  ["plastered", "plaster"], ["bled", "bled"], ["motoring", "motor"], ["sing", "sing"], ["conflated", "conflat"], ["troubled", "troubl"],
  ["sized", "size"], ["hopping", "hop"], ["tanned", "tan"], ["falling", "fall"], ["hissing", "hiss"], ["fizzed", "fizz"], ["failing", "fail"],
  ["filing", "file"], ["happy", "happi"], ["sky", "sky"], ["relational", "relat"], ["conditional", "condit"], ["rational", "ration"],
  ["valenci", "valenc"], ["digitizer", "digit"], ["radicalli", "radic"], ["differentli", "differ"], ["vietnamization", "vietnam"],
  ["predication", "predic"], ["operator", "oper"], ["feudalism", "feudal"], ["decisiveness", "decis"], ["hopefulness", "hope"],
  ["callousness", "callous"], ["formaliti", "formal"], ["sensitiviti", "sensit"], ["sensibiliti", "sensibl"], ["triplicate", "triplic"],
  ["formative", "form"], ["formalize", "formal"], ["electrical", "electr"], ["hopeful", "hope"], ["goodness", "good"], ["revival", "reviv"],
  ["allowance", "allow"], ["inference", "infer"], ["airliner", "airlin"], ["gyroscopic", "gyroscop"], ["adjustable", "adjust"],
  ["defensible", "defens"], ["irritant", "irrit"], ["replacement", "replac"], ["adjustment", "adjust"], ["dependent", "depend"],
  ["adoption", "adopt"], ["communism", "commun"], ["activate", "activ"], ["angulariti", "angular"], ["homologous", "homolog"],
  ["effective", "effect"], ["bowdlerize", "bowdler"], ["probate", "probat"], ["rate", "rate"], ["cease", "ceas"], ["controll", "control"], ["roll", "roll"],
];

describe("the Porter stemmer", () => {
  test("stems the examples of Porter's paper as published", () => {
    for (const [word, want] of PAPER) assert.equal(porter(word), want, word);
  });

  test("gives the stems SQLite's FTS5 porter tokenizer indexes", () => {
    const words = ["indexing", "indexer", "indexes", "studies", "study", "running", "generalizations", "configuration", "configured", "hopefully", "Caroline", "adoption", "agencies", "decisions", "databases", "migrations", "happily", "relational", "été", "naïve", "x86", "go", "a"];
    const db = new Database(":memory:");
    try {
      db.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize = 'porter unicode61 remove_diacritics 2'); CREATE VIRTUAL TABLE v USING fts5vocab(t, instance);");
      const insert = db.prepare("INSERT INTO t(rowid, body) VALUES (?, ?)");
      words.forEach((w, i) => insert.run(i + 1, w));
      const indexed = new Map((db.prepare("SELECT doc, term FROM v").all() as { doc: number; term: string }[]).map((r) => [r.doc, r.term]));
      words.forEach((w, i) => assert.equal(stem(w), indexed.get(i + 1), w));
    } finally {
      db.close();
    }
  });

  test("leaves words it cannot stem as they are, lower-cased", () => {
    assert.equal(porter("a"), "a");
    assert.equal(porter("IS"), "is");
    assert.equal(porter("x86"), "x86");
    assert.equal(porter("x".repeat(70)), "x".repeat(70));
  });
});
