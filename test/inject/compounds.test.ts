import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compoundStems } from "../../src/inject/compounds.js";
import { floorVerdict, stem, stemsFound } from "../../src/inject/floor.js";
import { DEFAULT_INJECT, type Candidate } from "../../src/inject/types.js";

const words = (t: string) => t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const found = (text: string, prompt: string) => [...compoundStems(words(text), new Set(words(prompt).map(stem)), stem, new Set())].sort();

describe("a prompt's word found in a compound of the text", () => {
  const table: [text: string, prompt: string, expected: string[], why: string][] = [
    ["If we lose a Puppetmaster we re-sign every certificate.", "master", ["master"], "the tail of a compound"],
    ["If we lose a Puppetmaster we re-sign every certificate.", "puppet", ["puppet"], "the head of a compound"],
    ["We will use ElastiCache for Redis.", "cache", ["cach"], "a product name that joins two words"],
    ["We will use ElastiCache for Redis.", "caching", ["cach"], "another form of the word"],
    ["Machines recreated by an Auto Scaling Group", "autoscaling", ["autosc"], "the prompt's compound written as two words"],
    ["Take a back up of the signed certificates", "backup", ["backup"], "two words that make the prompt's word"],
    ["The database holds the orders.", "base", [], "a short rest: base is not in database"],
    ["Run the unittest suite.", "test", [], "a short rest: test is not in unittest"],
    ["We support both.", "port", [], "a short rest: port is not in support"],
    ["Reports go out weekly.", "port", [], "no word-sized head"],
    ["The hostname is set by cloud-init.", "host", [], "name is too short a rest"],
    ["A kubernetesoperator restarts it.", "operator", ["oper"], "a ten-letter head"],
    ["The JavaScript bundle is built by esbuild.", "java", [], "a name that is one word is no compound"],
    ["The TypeScript compiler checks it.", "type", [], "nor is TypeScript about types"],
    ["Nothing joined here at all.", "joined", [], "a word found whole is not the compounds' business"],
    ["", "master", [], "an empty text"],
    ["Puppetmaster", "", [], "no prompt words"],
    ["a b", "ab", [], "stems shorter than three letters are not looked for"],
    ["The on line help", "online", ["onlin"], "two short words joined"],
  ];
  for (const [text, prompt, expected, why] of table) {
    test(`${why}: "${prompt}" in "${text.slice(0, 40)}"`, () => {
      const got = found(text, prompt).filter((s) => !words(text).map(stem).includes(s));
      assert.deepEqual(got, expected);
    });
  }

  test("a long text with many compounds answers quickly and finds each once", () => {
    const text = Array.from({ length: 5_000 }, (_, i) => (i % 2 ? "puppetmaster" : "elasticache")).join(" ");
    const got = found(text, "master cache puppet elastic nothing");
    assert.deepEqual(got, ["cach", "elast", "master", "puppet"]);
  });
});

describe("the floor counts a word found in a compound", () => {
  const cand = (text: string): Candidate => ({
    id: "c1",
    text,
    path: "/p/adr/0007-puppet-cert-management.md",
    startLine: 1,
    endLine: 9,
    headingPath: ["Puppet certificate management"],
    kind: "markdown",
    date: "2026-10-02",
    project: "/p",
    legs: { bm25: { rank: 1, score: 12 } },
  });
  test("stemsFound reports the compound's part with the words found whole", () => {
    const got = stemsFound("If we lose a Puppetmaster, or it is recreated by an Auto Scaling Group", new Set(["master", "autosc", "lose", "zebra"]));
    assert.deepEqual([...got].sort(), ["autosc", "lose", "master"]);
  });
  test("a record that writes the prompt's words as compounds passes the floor it missed word by word", () => {
    const stems = ["puppet", "master", "autosc"];
    const joined = cand("If we lose a Puppetmaster (or it is recreated by an Auto Scaling Group) we re-sign every certificate.");
    const apart = cand("We re-sign every certificate when a machine is lost.");
    const v = floorVerdict(joined, stems, DEFAULT_INJECT);
    assert.equal(v.pass, true, v.reason);
    assert.deepEqual([...v.matched].sort(), ["autosc", "master", "puppet"]);
    assert.equal(floorVerdict(apart, stems, DEFAULT_INJECT).pass, false);
  });
});
