import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { stemsFound, stem } from "../../src/inject/floor.js";
import { formatInjection } from "../../src/inject/format.js";
import { DEFAULT_FLOOR_RULES, DEFAULT_INJECT, type Candidate, type FloorRules } from "../../src/inject/types.js";

const rules = (change: Partial<FloorRules>): FloorRules => ({ ...DEFAULT_FLOOR_RULES, ...change });

describe("the floor's word rules, each a switch", () => {
  test("what each switch stops the floor from counting", () => {
    const cases: [string, string, string, Partial<FloorRules>, boolean][] = [
      ["an alias: sg in a text that says security group", "sg", "Each security group is its own resource.", {}, true],
      ["aliases off", "sg", "Each security group is its own resource.", { alternatives: false }, false],
      ["a word form: chose in a text that says choice", "chose", "The choice was made in March.", {}, true],
      ["word forms off (the same switch)", "chose", "The choice was made in March.", { alternatives: false }, false],
      ["a compound: puppet in Puppetmaster", "puppet", "The Puppetmaster holds the certificates.", {}, true],
      ["compounds off", "puppet", "The Puppetmaster holds the certificates.", { compounds: false }, false],
      ["an identifier's word: user in getUserName", "user", "Call getUserName before saving.", {}, true],
      ["identifier words off", "user", "Call getUserName before saving.", { identifierWords: false }, false],
      ["the word itself is found whatever the switches", "user", "The user saves.", { alternatives: false, compounds: false, identifierWords: false }, true],
    ];
    for (const [what, word, text, change, found] of cases) {
      const s = stem(word);
      assert.equal(stemsFound(text, new Set([s]), new Set(), rules(change)).has(s), found, what);
    }
  });

  const cand = (id: string, text: string): Candidate => ({ id, text, path: "/p/adr/0003-gradle.md", startLine: 1, endLine: 1, headingPath: [], kind: "markdown", date: null, project: "/p", legs: { bm25: { rank: 1, score: 2 } } });
  const terms = ["gradle", "build", "tool", "groovy", "kotlin", "dsl", "maven"];
  const parts = [cand("t", "Decision: use Gradle for the build."), cand("b", "Its scripts are written in Groovy or Kotlin.")];

  test("the record floor on: a record whose words are spread over its sections is injected", () => {
    assert.deepEqual(formatInjection(parts, terms, DEFAULT_INJECT, (s) => s)?.ids.sort(), ["b", "t"]);
    assert.deepEqual(formatInjection(parts, terms, DEFAULT_INJECT, (s) => s, { floorRules: DEFAULT_FLOOR_RULES })?.ids.sort(), ["b", "t"]);
  });

  test("the record floor off: each section is judged alone, and neither holds enough", () => {
    assert.equal(formatInjection(parts, terms, DEFAULT_INJECT, (s) => s, { floorRules: rules({ record: false }) }), undefined);
  });
});
