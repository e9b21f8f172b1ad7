import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { floorVerdict, formatInjection } from "../../src/inject/format.js";
import { recordFloor } from "../../src/inject/record-floor.js";
import { DEFAULT_INJECT, type Candidate } from "../../src/inject/types.js";

const cand = (id: string, path: string, text: string, project = "/p"): Candidate => ({
  id,
  text,
  path,
  startLine: 1,
  endLine: 3,
  headingPath: [],
  kind: "markdown",
  date: "2026-10-02",
  project,
  legs: { bm25: { rank: 1, score: 2 } },
});

// The prompt's content stems: seven words, every word alike; one chunk needs 3 of them (35%).
const stems = ["gradl", "build", "tool", "groovi", "kotlin", "dsl", "maven"];
const verdicts = (cs: Candidate[]) => recordFloor(cs, cs.map((c) => floorVerdict(c, stems, DEFAULT_INJECT)), stems, DEFAULT_INJECT);

describe("recordFloor: a record's chunks pass on the prompt's words they hold together", () => {
  const title = (path = "/p/adr/0003-gradle.md", id = "t") => cand(id, path, "Decision: use Gradle for the build.");
  const body = (path = "/p/adr/0003-gradle.md", id = "b") => cand(id, path, "Its scripts are written in Groovy or Kotlin.");
  const cases: { name: string; cands: Candidate[]; pass: boolean[]; by?: (string | undefined)[] }[] = [
    { name: "two chunks of one file, 2 and 2 words: each alone fails, together 4 of 7 pass", cands: [title(), body()], pass: [true, true], by: ["record", "record"] },
    { name: "the same chunks in two files: each alone, both fail", cands: [title("/p/adr/0003-gradle.md"), body("/p/adr/0009-other.md")], pass: [false, false] },
    { name: "the same path in two projects: two files", cands: [title(), cand("b", "/p/adr/0003-gradle.md", "Its scripts are written in Groovy or Kotlin.", "/q")], pass: [false, false] },
    { name: "a chunk of the file that holds none of the words is not let in", cands: [title(), body(), cand("x", "/p/adr/0003-gradle.md", "Unrelated consequences paragraph.")], pass: [true, true, false] },
    { name: "nor one that holds one word: one word alone cannot tell its sense", cands: [title(), body(), cand("m", "/p/adr/0003-gradle.md", "Maven was the other option.")], pass: [true, true, false] },
    { name: "one-word chunks add their words to their file's, but are not let in themselves", cands: [title(), cand("m", "/p/adr/0003-gradle.md", "Maven was the other option."), cand("k", "/p/adr/0003-gradle.md", "Scripts in Kotlin.")], pass: [true, false, false], by: ["record", undefined, undefined] },
    { name: "two chunks holding the same words add nothing: 2 of 7 still", cands: [title(), cand("t2", "/p/adr/0003-gradle.md", "Gradle build cache")], pass: [false, false] },
    { name: "together under the share: 2 + 0 words", cands: [cand("a", "/p/r.md", "gradle only"), cand("b2", "/p/r.md", "kotlin only")], pass: [false, false] },
    { name: "a chunk that passed alone keeps its verdict", cands: [cand("w", "/p/r.md", "Gradle build tool with Kotlin DSL"), body("/p/r.md")], pass: [true, true], by: ["words", "record"] },
    { name: "a memory with no file is judged alone", cands: [title(""), body("")], pass: [false, false] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const v = verdicts(c.cands);
      assert.deepEqual(v.map((x) => x.pass), c.pass, v.map((x) => x.reason).join(" | "));
      if (c.by) assert.deepEqual(v.map((x) => x.by), c.by);
    });
  }

  test("the verdict says which words the file's parts hold together", () => {
    const [t] = verdicts([title(), body()]);
    assert.match(t!.reason, /with the other parts of its file among the results it holds 4 of them \(gradl, build, groovi, kotlin: 57%\)$/);
  });

  test("rarity weighs the words together as it does one chunk's: common words together do not reach a rare word's share", () => {
    const rarity = (s: string) => (s === "maven" ? 10 : 1);
    const cs = [title(), body()];
    const v = recordFloor(cs, cs.map((c) => floorVerdict(c, stems, DEFAULT_INJECT, rarity)), stems, DEFAULT_INJECT, rarity);
    assert.deepEqual(v.map((x) => x.pass), [false, false]);
  });

  test("the hook injects a record whose words are spread over its sections, and nothing from a file that holds too few", () => {
    const terms = ["gradle", "build", "tool", "groovy", "kotlin", "dsl", "maven"];
    const out = formatInjection([title(), body()], terms, DEFAULT_INJECT, (s) => s);
    assert.ok(out, "injected");
    assert.deepEqual(out.ids.sort(), ["b", "t"]);
    assert.equal(formatInjection([title(), cand("o", "/p/other.md", "Groovy scripts")], terms, DEFAULT_INJECT, (s) => s), undefined);
  });
});
