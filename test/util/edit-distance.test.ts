import assert from "node:assert/strict";
import { test } from "node:test";
import { closeMatches, editDistance } from "../../src/util/edit-distance.js";

test("editDistance counts insertions, deletions, substitutions and swaps of neighbours, and stops early past max", () => {
  assert.equal(editDistance("kitten", "sitting"), 3);
  assert.equal(editDistance("", "abc"), 3);
  assert.equal(editDistance("same", "same"), 0);
  assert.equal(editDistance("my-app", "my-ap"), 1);
  assert.equal(editDistance("clinet", "client"), 1, "two neighbours swapped: one edit");
  assert.equal(editDistance("ab", "ba"), 1);
  assert.equal(editDistance("abc", "ca"), 3);
  assert.equal(editDistance("abcdef", "uvwxyz", 2), 3, "past max: max + 1");
  assert.equal(editDistance("a", "abcdefgh", 2), 3, "lengths alone decide");
});

test("closeMatches: within one edit per four characters, case aside, closest first, at most three", () => {
  assert.deepEqual(closeMatches("my-ap", ["my-app", "other", "my-api", "MY-AP"]), ["MY-AP", "my-api", "my-app"]);
  assert.deepEqual(closeMatches("notes", ["notes-old", "nodes", "votes", "motes", "totes"]), ["motes", "nodes", "totes"]);
  assert.deepEqual(closeMatches("ab", ["xy", "abc"]), ["abc"], "short names: one edit");
  assert.deepEqual(closeMatches("billing", []), []);
});
