/**
 * The one id (src/store/one-id.ts): what an id typed by a person or a model is taken for, table-driven.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { distinctLength, ID_CHARS, MAX_ID_INPUT, oneId, parseId, pickById, rowOneId } from "../../src/store/one-id.js";

describe("parseId: an id as typed", () => {
  const cases: [string, unknown, { raw: string; bare: string; hex: boolean } | RegExp][] = [
    ["the one id", "3f0c9a1b7d2e", { raw: "3f0c9a1b7d2e", bare: "3f0c9a1b7d2e", hex: true }],
    ["a start of it", "3f0c9a", { raw: "3f0c9a", bare: "3f0c9a", hex: true }],
    ["with the old mem: prefix", "mem:3f0c9a1b7d2e", { raw: "mem:3f0c9a1b7d2e", bare: "3f0c9a1b7d2e", hex: true }],
    ["the prefix in capitals", "MEM:3f0c9a1b7d2e", { raw: "MEM:3f0c9a1b7d2e", bare: "3f0c9a1b7d2e", hex: true }],
    ["hex in capitals is lower-cased", "3F0C9A1B7D2E", { raw: "3F0C9A1B7D2E", bare: "3f0c9a1b7d2e", hex: true }],
    ["spaces around are dropped", "  3f0c9a1b7d2e\t", { raw: "3f0c9a1b7d2e", bare: "3f0c9a1b7d2e", hex: true }],
    ["an old explicit id, whole", "mem:0123456789abcdef01234567", { raw: "mem:0123456789abcdef01234567", bare: "0123456789abcdef01234567", hex: true }],
    ["a whole chunk id", "a".repeat(32), { raw: "a".repeat(32), bare: "a".repeat(32), hex: true }],
    ["a tool's id keeps its case", "toolu_01AbC#error", { raw: "toolu_01AbC#error", bare: "toolu_01AbC#error", hex: false }],
    ["a tag memory's stored id", "tag:0a1b2c", { raw: "tag:0a1b2c", bare: "tag:0a1b2c", hex: false }],
    ["only one mem: is dropped", "mem:mem:abc", { raw: "mem:mem:abc", bare: "mem:abc", hex: false }],
    ["not a string", 42, /must be a string/],
    ["null", null, /must be a string/],
    ["empty", "", /non-empty/],
    ["only spaces", "   ", /non-empty/],
    ["the prefix alone", "mem:", /nothing after its prefix/],
    ["too long", "a".repeat(MAX_ID_INPUT + 1), /at most 200/],
    ["a newline inside", "3f0c\n9a1b", /control characters/],
    ["an escape sequence", "\u001b[31m3f0c9a", /control characters/],
  ];
  for (const [name, input, want] of cases) {
    test(name, () => {
      const got = parseId(input);
      if (want instanceof RegExp) {
        assert.equal(got.ok, false);
        assert.match((got as { message: string }).message, want);
      } else assert.deepEqual(got, { ok: true, id: want });
    });
  }
});

describe("oneId and distinctLength", () => {
  test("a chunk id is shown by its first 12 characters", () => {
    assert.equal(ID_CHARS, 12);
    assert.equal(oneId("3f0c9a1b7d2e4c6f8a0b1c2d3e4f5a6b"), "3f0c9a1b7d2e");
  });
  const cases: [string, string[], number][] = [
    ["one id", ["3f0c9a1b7d2e4c6f"], 12],
    ["ids that differ early", ["3f0c9a1b7d2e4c6f", "3f0caaaaaaaaaaaa"], 12],
    ["ids sharing their first 13", ["3f0c9a1b7d2e4c6f", "3f0c9a1b7d2e4d00"], 14],
    ["the longest shared start of three counts", ["aaaaaaaaaaaaaa01", "aaaaaaaaaaaaaa02", "aaaaaaaaaaaab000"], 16],
    ["none", [], 12],
  ];
  for (const [name, ids, want] of cases) test(name, () => assert.equal(distinctLength(ids), want));
});

describe("rowOneId and pickById: tasks and prompt runs by the same kind of id", () => {
  test("rowOneId: 12 hex characters, stable, distinct by kind and number", () => {
    assert.match(rowOneId("task", 1), /^[0-9a-f]{12}$/);
    assert.equal(rowOneId("task", 1), rowOneId("task", 1));
    const ids = new Set([1, 2, 3, 4, 5].flatMap((n) => [rowOneId("task", n), rowOneId("prompt", n)]));
    assert.equal(ids.size, 10, "a task and a prompt run of one number do not share an id");
  });

  const rows = ["3f0c9a1b7d2e", "3f0c9a77aa00", "a1b2c3d4e5f6", "0123456789ab"].map((id, n) => ({ id, n }));
  const pick = (typed: unknown) => pickById(typed, rows, (r) => r.id, "task");
  const cases: [string, unknown, number | RegExp][] = [
    ["the whole id", "a1b2c3d4e5f6", 2],
    ["a start of 6", "a1b2c3", 2],
    ["in capitals, with mem:", "MEM:A1B2C3D4", 2],
    ["digits only, 6 or more: a start of an id", "012345", 3],
    ["too short: says how many to give", "3c", /^id "3c" is too short: give at least 6 characters of the id$/],
    ["too short, 5", "a1b2c", /too short/],
    ["too short after mem:", "mem:3c", /too short/],
    ["ambiguous: both listed, each long enough to type", "3f0c9a", /^id "3f0c9a" is ambiguous: it starts 2 tasks' ids: 3f0c9a1b7d2e, 3f0c9a77aa00; give more of it$/],
    ["no such", "ffffff", /^no task ffffff$/],
    ["not hex", "toolu_x", /^not a task id: "toolu_x" \(an id is 12 hex characters\)$/],
    ["not a string", 7, /must be a string/],
  ];
  for (const [name, typed, want] of cases) {
    test(`pickById: ${name}`, () => {
      const got = pick(typed);
      if (typeof want === "number") assert.deepEqual(got, { ok: true, row: rows[want] });
      else {
        assert.equal(got.ok, false);
        if (!got.ok) {
          assert.match(got.message, want);
          assert.equal(got.code, /no task/.test(got.message) ? "not_found" : "bad_argument");
        }
      }
    });
  }
});
