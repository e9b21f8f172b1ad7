/**
 * The rule that makes a remembered statement and a captured one a single memory
 * (src/memory/same-memory.ts): what must merge, and the near-misses that must not.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { memoryKey, mergedConfidence, sameMemory, strongestSource } from "../../src/memory/same-memory.js";

const SAME: [string, string][] = [
  ["Use Postgres for storage", "use postgres for storage."],
  ["Use Postgres for storage", "  Use   Postgres for storage!  "],
  ["Use Postgres for storage", "We decided to use Postgres for storage."],
  ["Use Postgres for storage", "Decided to use the Postgres for storage"],
  ["Use Postgres for storage", "Decision: use Postgres for storage"],
  ["Use Postgres for storage", "We'll use Postgres for storage"],
  ["Use Postgres for storage", "Let's use Postgres for storage"],
  ["Use Postgres for storage", "**Use Postgres** for `storage`"],
  ["Don't use Postgres", "Do not use Postgres."],
  ["Don’t use Postgres", "don't use postgres"],
  ["Keep the retry limit at 3", "keep retry limit at 3"],
  ["Pin node-20 in src/build.ts", "pin node-20 in src/build.ts."],
  ["Cache the API responses", "cache the API response"],
  ["ＵＳＥ Postgres", "use postgres"],
  ["Retry when status >= 500", "retry when status >= 500."],
  ["Never delete /tmp!", "never delete /tmp"],
  ["Keep the offset at -5", "keep the offset at -5."],
];

const DIFFERENT: [string, string, string][] = [
  ["Use Postgres", "Don't use Postgres", "a negation"],
  ["Use Postgres", "Never use Postgres", "a negation"],
  ["Use Postgres 15", "Use Postgres 16", "another number"],
  ["Keep the retry limit at 3", "Keep the retry limit at 30", "another number"],
  ["Bump to 1.2.3", "Bump to 1.2.4", "another version"],
  ["Prefer tabs over spaces", "Prefer spaces over tabs", "the words' order"],
  ["Fix the login bug", "Fix the logout bug", "one word swapped"],
  ["Use Postgres for storage", "Use Postgres for storage and caching", "a word more"],
  ["Use Postgres for storage", "Use Postgres for storage because it scales", "a reason more"],
  ["Edit src/auth.c", "Edit src/auth.ts", "another file"],
  ["Use Postgres", "Maybe use Postgres", "a hedge"],
  ["Use Postgres", "We should not use Postgres", "a negation behind a lead-in"],
  ["Set the offset to -5", "Set the offset to 5", "a number's sign"],
  ["Retry when status >= 500", "Retry when status < 500", "a comparison"],
  ["Timeout > 30s", "Timeout < 30s", "a comparison"],
  ["Check that a != b", "Check that a == b", "an operator"],
  ["Use x && y", "Use x || y", "an operator"],
  ["Never delete ~/tmp", "Never delete /tmp", "a path's root"],
  ["Never delete /tmp", "Never delete tmp", "an absolute path and a relative one"],
];

test("the same statement, written differently, is one memory", () => {
  for (const [a, b] of SAME) {
    assert.ok(sameMemory({ kind: "decision", text: a }, { kind: "decision", text: b }), `${JSON.stringify(a)} ~ ${JSON.stringify(b)}: ${memoryKey(a)} / ${memoryKey(b)}`);
  }
});

test("near-misses stay two memories", () => {
  for (const [a, b, why] of DIFFERENT) {
    assert.equal(sameMemory({ kind: "decision", text: a }, { kind: "decision", text: b }), false, `${JSON.stringify(a)} vs ${JSON.stringify(b)} (${why}): ${memoryKey(a)} / ${memoryKey(b)}`);
  }
});

test("another kind, a task, or a text without words never merges", () => {
  assert.equal(sameMemory({ kind: "decision", text: "Use Postgres" }, { kind: "rejected", text: "Use Postgres" }), false);
  assert.equal(sameMemory({ kind: "task", text: "Write the README" }, { kind: "task", text: "Write the README" }), false, "tasks are the task registry's");
  assert.equal(sameMemory({ kind: "file_modified", text: "src/a.ts" }, { kind: "file_modified", text: "src/a.ts" }), false);
  assert.equal(sameMemory({ kind: "note", text: "…!?" }, { kind: "note", text: "…!?" }), false);
  assert.equal(memoryKey("the a an"), undefined);
  assert.ok(sameMemory({ kind: "note", text: "Deploys go out on Tuesdays" }, { kind: "note", text: "deploys go out on tuesdays." }));
});

test("confidence of a statement made again: 1 − Π(1 − c), never lower than the highest", () => {
  const table: [(number | undefined)[], number][] = [
    [[0.6, 1], 1],
    [[0.6, undefined], 1],
    [[0.6, 0.7], 0.88],
    [[0.5, 0.5, 0.5], 0.875],
    [[0.3], 0.3],
    [[2, -1], 1],
  ];
  for (const [cs, want] of table) assert.equal(mergedConfidence(cs), want, JSON.stringify(cs));
});

test("the strongest source: explicit, then tag, then keyword, then captured", () => {
  assert.equal(strongestSource(["keyword", "explicit"]), "explicit");
  assert.equal(strongestSource(["keyword", "tag"]), "tag");
  assert.equal(strongestSource(["captured", "keyword"]), "keyword");
  assert.equal(strongestSource(["whatever"]), "captured");
});
