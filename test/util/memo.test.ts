import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { memoized } from "../../src/util/memo.js";

describe("memoized", () => {
  test("computes a key once, remembers undefined too, and starts over when full", () => {
    const calls: string[] = [];
    const f = memoized((k: string) => {
      calls.push(k);
      return k === "none" ? undefined : k.toUpperCase();
    }, 3);
    assert.equal(f("a"), "A");
    assert.equal(f("a"), "A");
    assert.equal(f("none"), undefined);
    assert.equal(f("none"), undefined);
    assert.deepEqual(calls, ["a", "none"]);
    f("b");
    assert.equal(f.size, 3);
    f("c"); // full: emptied, then c
    assert.equal(f.size, 1);
    assert.equal(f("a"), "A");
    assert.deepEqual(calls, ["a", "none", "b", "c", "a"]);
  });
});
