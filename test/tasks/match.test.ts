import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { MATCH_THRESHOLD, matchTask, similarity, stem, taskWords, type MatchCandidate } from "../../src/tasks/match.js";

/** A fixed clock: candidates' ages are fixed offsets from it. */
const NOW = Date.parse("2026-11-22T12:00:00Z");
const H = 3_600_000;
const cand = (id: number, content: string, hoursAgo: number, over: Partial<MatchCandidate> = {}): MatchCandidate => ({ id, content, updatedAt: NOW - hoursAgo * H, ...over });
const same = (a: string, b: string) => similarity(a, b) >= MATCH_THRESHOLD;

describe("the matching rule for a reworded task", () => {
  test("the brief's cases: README rewordings match, login and logout do not", () => {
    assert.ok(same("Write the README", "Write README for install"), `${similarity("Write the README", "Write README for install")}`);
    assert.ok(!same("Fix the login bug", "Fix the logout bug"), `${similarity("Fix the login bug", "Fix the logout bug")}`);
    assert.equal(similarity("Fix the login bug", "Fix the logout bug"), 0.5);
  });

  test("words: lowercase, punctuation and stop words out, a crude stem", () => {
    assert.deepEqual([...taskWords("Fix the tests, then update the README!")].sort(), ["fix", "readm", "test", "updat"]);
    assert.deepEqual(["tests", "fixes", "fixed", "fixing", "writing", "writes", "write", "queries", "status", "class"].map(stem), ["test", "fix", "fix", "fix", "writ", "writ", "writ", "query", "status", "class"]);
    assert.equal(similarity("Fixing the failing tests", "fix failing test"), 1);
  });

  test("redaction markers are not words: two tasks about two secrets are two tasks", () => {
    assert.deepEqual([...taskWords("Rotate the token [REDACTED:github-token]")].sort(), ["rotat", "token"]);
    assert.ok(!same("Rotate the token [REDACTED:github-token]", "Revoke [REDACTED:github-token]"));
  });

  test("word order, case, punctuation and stop words do not matter", () => {
    assert.equal(similarity("README: write it for the install", "write install README"), 1);
    assert.equal(similarity("Add a retry to the HTTP client.", "add retry — http client"), 1);
  });

  test("a short task does not swallow a long one that contains it, nor a long one a short one", () => {
    const long = "Fix the bug in the parser where tokens after a comment are dropped";
    assert.ok(!same("Fix bug", long), `${similarity("Fix bug", long)}`);
    assert.ok(!same(long, "Fix the parser"));
  });

  test("numbers count: Task 4 and Task 5 of a plan are two tasks", () => {
    assert.ok(!same("Task 4: Add WorktreeID to options", "Task 5: Update WorktreeID options"));
  });

  test("a wording without content words matches only the same text", () => {
    assert.equal(similarity("Do it", "do  IT"), 1);
    assert.equal(similarity("Do it", "Do this"), 0);
    assert.equal(similarity("Do it", "Ship it"), 0);
  });

  test("choice: the task this local id already refers to, whatever the wording", () => {
    const got = matchTask("Completely renamed", [cand(1, "Write the README", 1), cand(2, "Completely renamed thing", 0), cand(3, "Old name", 5, { referenced: true })]);
    assert.equal(got?.id, 3);
  });

  test("choice: then the best score, then the newest", () => {
    const cs = [cand(1, "Write README for install", 1), cand(2, "Write the README", 3), cand(3, "Write README", 2)];
    assert.equal(matchTask("write the readme", cs)?.id, 3, "a perfect score (2 and 3) beats 1; of 2 and 3 the newer");
    assert.equal(matchTask("Write README for install", cs)?.id, 1);
    const tie = [cand(7, "Ship the hook", 2), cand(8, "Ship the hook", 2)];
    assert.equal(matchTask("ship hook", tie)?.id, 8, "same time: the higher id");
  });

  test("no candidate at or above the threshold: a new task", () => {
    assert.equal(matchTask("Fix the logout bug", [cand(1, "Fix the login bug", 0)]), undefined);
    assert.equal(matchTask("anything", []), undefined);
  });

  test("a task the same session holds under another live id is no candidate, even the referenced one", () => {
    const cs = [cand(1, "Update README section on install", 0, { heldElsewhere: true }), cand(2, "Update README section on install", 9)];
    assert.equal(matchTask("Update the install section of the README", cs)?.id, 2);
    assert.equal(matchTask("Update the install section of the README", [cs[0]!]), undefined);
  });

  test("one word swapped for another makes another task, however alike the rest; added or dropped words do not", () => {
    assert.ok(similarity("Add metrics for cache hit rate", "Add metrics for cache miss rate") >= MATCH_THRESHOLD, "alike by Jaccard alone");
    assert.equal(matchTask("Add metrics for cache miss rate", [cand(1, "Add metrics for cache hit rate", 0)]), undefined);
    assert.equal(matchTask("Address review feedback from batch 2", [cand(1, "Address review feedback from batch 1", 0)]), undefined);
    assert.equal(matchTask("Add InitialAttribution field to WriteCommittedOptions struct", [cand(1, "Add InitialAttribution field to CommittedMetadata struct", 0)]), undefined);
    // Rewordings seen in real transcripts still meet their task.
    assert.equal(matchTask("Build computer-use layer on Playwright", [cand(1, "Build computer-use layer on Playwright in Docker", 0)])?.id, 1);
    assert.equal(matchTask("Implement click(x,y), type(text), screenshot() primitives", [cand(1, "Implement click(x,y), type(text), screenshot() on top of Playwright", 0)])?.id, 1);
    assert.equal(matchTask("Create useTodos hook for state management", [cand(1, "Create custom useTodos hook with useReducer for state management", 0)])?.id, 1);
    // The best match is taken among the others: a swap is no candidate, a rewording is.
    assert.equal(matchTask("Add metrics for cache miss rate", [cand(1, "Add metrics for cache hit rate", 9), cand(2, "Add the metrics for cache miss rates", 0)])?.id, 2);
  });
});
