import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { passesFloor, stem, stemsFound } from "../../src/inject/floor.js";
import { contentStems } from "../../src/inject/terms.js";
import { DEFAULT_FLOOR_RULES, DEFAULT_INJECT, type Candidate } from "../../src/inject/types.js";
import { bm25Leg } from "../../src/retrieve/bm25.js";
import { queryTerms, searchConcepts } from "../../src/retrieve/fts-query.js";
import { DEFAULT_QUERY_RULES } from "../../src/retrieve/query-rules.js";
import { EVEN } from "../../src/retrieve/rarity.js";
import { phrasesIn } from "../../src/retrieve/vocabulary.js";
import { ChunkStore, type NewChunk } from "../../src/store/chunks.js";
import { openDb, type Db } from "../../src/store/db.js";
import { clean } from "../../src/redact/clean.cjs";

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];

describe("a phrase of the vocabulary written out in a question finds its short form", () => {
  test("phrasesIn: the tables' phrases a run of words spells out, longest first (table)", () => {
    const cases: [string, { phrase: string; alternatives: string[] }[]][] = [
      ["who reviews a pull request", [{ phrase: "pull request", alternatives: ["pr"] }]],
      ["how do we write release notes", [{ phrase: "release notes", alternatives: ["changelog", "changelogs"] }]],
      // the longest phrase wins; the phrase inside it is not looked up again
      ["parse the command line arguments", [{ phrase: "command line arguments", alternatives: ["argv"] }]],
      ["the command line tool", [{ phrase: "command line", alternatives: ["cli"] }]],
      // inside the longer phrase it is not looked up; standing alone further on, it is
      ["the command line arguments of the command line tool", [{ phrase: "command line arguments", alternatives: ["argv"] }, { phrase: "command line", alternatives: ["cli"] }]],
      // a phrase written twice is one entry
      ["a pull request per pull request", [{ phrase: "pull request", alternatives: ["pr"] }]],
      // glue words are part of the phrase as written
      ["what time to live do entries get", [{ phrase: "time to live", alternatives: ["ttl"] }]],
      ["a security group and a load balancer", [{ phrase: "security group", alternatives: ["sg"] }, { phrase: "load balancer", alternatives: ["lb"] }]],
      // words apart are no phrase
      ["a pull and a request", []],
      ["security", []],
      ["", []],
    ];
    for (const [text, expected] of cases) assert.deepEqual(phrasesIn(words(text)), expected, text);
  });

  test("searchConcepts: the phrase's other forms are a word of their own; its words stay (table)", () => {
    const cases: [string, Partial<typeof DEFAULT_QUERY_RULES>, string[][]][] = [
      ["who reviews a pull request", {}, [["reviews"], ["pull"], ["request"], ["pr"]]],
      ["release notes style", {}, [["release"], ["notes"], ["style"], ["changelog", "changelogs"]]],
      // a short form the question already holds is that word's own
      ["pr pull request", {}, [["pr", "pull request"], ["pull"], ["request"]]],
      // the aliases switched off: no phrase looked up
      ["who reviews a pull request", { aliases: false }, [["reviews"], ["pull"], ["request"]]],
    ];
    for (const [text, change, expected] of cases) assert.deepEqual(searchConcepts(text, { ...DEFAULT_QUERY_RULES, ...change }), expected, text);
  });

  test("the floor counts a phrase's words as held by a text with its other form, only when the prompt holds every word (table)", () => {
    const cases: [string, string, string[]][] = [
      ["how do we write release notes", "Keep a changelog in the Keep-a-Changelog format.", ["release", "notes"]],
      ["what time to live do cache entries get", "Entries get a TTL of five minutes.", ["time", "live", "entries"]],
      ["who reviews a pull request", "Every PR needs two approvals.", ["pull", "request"]],
      // the phrase's filler words ("out", "of") are no content words of the prompt either
      ["why did the worker run out of memory", "The worker died of OOM twice.", ["worker", "memory"]],
      // one word of the phrase alone is not the phrase
      ["how do we write the release", "Keep a changelog.", []],
      // the text holds no other form of it
      ["how do we write release notes", "The release train leaves on Fridays.", ["release"]],
    ];
    for (const [prompt, text, found] of cases) {
      const wanted = new Set(contentStems(queryTerms(prompt)));
      assert.deepEqual([...stemsFound(text, wanted)].sort(), found.map((w) => stem(w)).sort(), `${prompt} / ${text}`);
    }
    const off = { ...DEFAULT_FLOOR_RULES, alternatives: false };
    assert.deepEqual([...stemsFound("Keep a changelog.", new Set(contentStems(queryTerms("release notes"))), new Set(), off)], [], "the vocabulary's alternatives switched off");
  });

  test("a short form of three letters or fewer stands for the phrase only in capitals: written small it is most often another word (table)", () => {
    const cases: [string, string, string[]][] = [
      // the acronym, in capitals (a plural too): the phrase's words are held
      ["who reviews a pull request", "Open PRs need two approvals.", ["pull", "request"]],
      ["how is continuous deployment set up", "CD runs on every merge to main.", ["continuous", "deployment"]],
      ["what time to live do cache entries get", "Entries get a TTL of five minutes.", ["time", "live", "entries"]],
      // the same letters written small are another word: one token of the text is not two of the prompt's words
      ["how is continuous deployment set up for the web app", "Run cd web && npm start to serve the site.", ["web"]],
      ["should I merge this request now", "Mr. Smith visited the office on Monday.", []],
      ["what did Caroline say about machine learning", "Caroline: I drink 500 ml of water every morning.", ["caroline"]],
      ["how heavy is the load on the balancer", "My dog weighs 40 lb now.", []],
      ["my single page about the application", "We went to the spa on Sunday.", []],
      ["which operating system does the build run", "import os; os.path.join(build, 'x')", ["build"]],
      // a longer short form needs no capitals
      ["how do we write release notes", "see the changelog", ["release", "notes"]],
    ];
    for (const [prompt, text, found] of cases) {
      const wanted = new Set(contentStems(queryTerms(prompt)));
      assert.deepEqual([...stemsFound(text, wanted)].sort(), found.map((w) => stem(w)).sort(), `${prompt} / ${text}`);
    }
  });
});

describe("phrases on a real FTS5 index", () => {
  let dir = "";
  let db: Db;
  const chunk = (id: string, text: string): NewChunk => ({ id, kind: "decision", tier: "warm", heading: "Decisions", startLine: 1, endLine: 2, text, tags: [], date: "2026-10-02", metadata: {} });

  before(() => {
    dir = mkdtempSync(join(tmpdir(), "mem-phrases-"));
    db = openDb(join(dir, "mem.sqlite"));
    new ChunkStore(db).replaceSource(
      clean({ project: "p1", path: "decisions.md", kind: "markdown", tier: "warm", size: 100, mtimeMs: 1, hash: "h1", metadata: {} }),
      clean([
        chunk("c-pr", "Every PR needs two approvals before it merges."),
        chunk("c-changelog", "Keep a changelog: each entry says what users see change."),
        chunk("c-notes", "Meeting notes go to the wiki, not to the repository."),
        chunk("c-release", "We release on Fridays from the main branch."),
        chunk("c-other", "Unrelated: the office plants are watered on Mondays."),
      ]),
      1_000,
    );
  });

  after(() => {
    db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("the text that writes the short form is found (first when nothing else holds the phrase's words), and passes the floor", () => {
    const cases: [string, string, number][] = [
      ["how many approvals does a pull request need", "c-pr", 0],
      // "release" alone weighs as much here as "changelog": found, second to the text that says "release"
      ["what goes into the release notes", "c-changelog", 1],
    ];
    for (const [q, id, rank] of cases) {
      const hits = bm25Leg(db, q, {}, 5);
      assert.equal(hits[rank]?.id, id, `${q}: ${hits.map((h) => h.id).join(", ")}`);
      const text = db.prepare("SELECT text FROM chunks WHERE id = ?").pluck().get(id) as string;
      const cand: Candidate = { id, text, path: "/p/decisions.md", startLine: 1, endLine: 2, headingPath: [], kind: "decision", date: "2026-10-02", project: "p1", legs: { bm25: { rank: rank + 1, score: hits[rank]!.score } } };
      assert.equal(passesFloor(cand, contentStems(queryTerms(q)), DEFAULT_INJECT, EVEN), true, q);
    }
  });

  test("without the aliases the same question does not find it first", () => {
    const hits = bm25Leg(db, "what goes into the release notes", {}, 5, undefined, { ...DEFAULT_QUERY_RULES, aliases: false });
    assert.notEqual(hits[0]?.id, "c-changelog");
    assert.ok(!hits.some((h) => h.id === "c-changelog"), "the changelog holds none of the question's words");
  });
});
