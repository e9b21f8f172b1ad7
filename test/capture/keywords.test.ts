import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { extractKeywords, sentences } from "../../src/capture/extract/keywords.js";

const one = (text: string, role: "assistant" | "user" = "assistant") => {
  const hits = extractKeywords(text, role);
  assert.equal(hits.length, 1, `expected one hit in: ${text} → ${JSON.stringify(hits)}`);
  return hits[0]!;
};
const none = (text: string, role: "assistant" | "user" = "assistant") =>
  assert.deepEqual(extractKeywords(text, role), [], text);

describe("keyword markers", () => {
  test("explicit choice with an alternative and a reason scores highest", () => {
    const h = one("We chose SQLite over Postgres because the service must run without a server.");
    assert.equal(h.type, "decision");
    assert.ok(h.confidence >= 0.85);
    assert.equal(h.text, "We chose SQLite over Postgres because the service must run without a server.");
    assert.ok(one("I'll use better-sqlite3 instead of node:sqlite since it supports FTS5.").confidence >= 0.8);
    assert.ok(one("Decided to go with LanceDB because it needs no server.").confidence >= 0.8);
  });

  test("confidence ordering: choice+reason > choice > bare decision > exploratory step", () => {
    const strong = one("Chose pnpm over npm because of workspace support.").confidence;
    const choice = one("We'll use pnpm instead of npm.").confidence;
    const bare = one("I decided to use pnpm.").confidence;
    const weak = one("I decided to read the file first.").confidence;
    assert.ok(strong > choice && choice > bare && bare > weak, `${strong} ${choice} ${bare} ${weak}`);
    assert.ok(weak <= 0.35);
  });

  test("rejections and lessons", () => {
    const r = one("We rejected Redis because it adds a daemon users must run.");
    assert.equal(r.type, "rejected");
    assert.ok(r.confidence >= 0.8);
    assert.equal(one("Ruled out the worker-thread approach.").type, "rejected");
    const rc = one("The root cause was a stale offset after the file was truncated.");
    assert.deepEqual([rc.type, rc.confidence >= 0.8], ["learned", true]);
    assert.equal(one("**Root cause:** the lock file was never released.").type, "learned");
    assert.equal(one("Lesson: always flush before fsync.").type, "learned");
    const t = one("It turns out the hook runs before stdin is parsed.");
    assert.equal(t.type, "learned");
    assert.ok(t.confidence < rc.confidence);
    assert.ok(one("The issue was that npm ci fails in containers.").confidence > one("The issue is that npm ci fails in containers.").confidence);
  });

  test("hedged statements score lower than plain ones", () => {
    assert.ok(one("Maybe the issue is that the cache is stale.").confidence < one("The issue is that the cache is stale.").confidence);
  });

  test("negatives: questions, conditionals, list intros, code, plain prose", () => {
    none("Which approach do you prefer?");
    none("Should we go with Postgres instead of SQLite?");
    none("If we decide to use Redis, we need a daemon.");
    none("The issue is:");
    none("## Root Cause Analysis");
    none("```\n// we chose A over B because C\n```");
    none("Let me read the file and run the tests.");
    none("The build passed and all 42 tests are green.");
    none("");
  });

  test("each sentence is one hit; bullets, emphasis and code spans are handled", () => {
    const hits = extractKeywords(
      "Done. The root cause was a race in `flush()`.\n- **Decided to use** a mutex because it is simpler.\n\nNothing else.",
    );
    assert.deepEqual(hits.map((h) => h.type), ["learned", "decision"]);
    assert.equal(hits[0]!.text, "The root cause was a race in `flush()`.");
    assert.equal(hits[1]!.text, "Decided to use a mutex because it is simpler.");
    assert.deepEqual(sentences("A b. C d!\nE"), ["A b.", "C d!", "E"]);
  });

  test("preferences come from user text only", () => {
    const p = one("I prefer tabs over spaces in this repo.", "user");
    assert.equal(p.type, "preference");
    assert.equal(one("Always use pnpm, never npm.", "user").type, "preference");
    none("Always use pnpm, never npm.", "assistant");
  });
});
