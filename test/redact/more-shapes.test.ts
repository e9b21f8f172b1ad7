/**
 * The second corpus (test/redact/held-out-shapes.ts): each shape redacted exactly (the secret replaced, its
 * context kept), counted and kinded, and redacting twice equals redacting once. With the first corpus the
 * shapes number more than 250.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { redact, redactDeep } from "../../src/redact/redact.cjs";
import { type Case, secretCases } from "../helpers/secrets.js";
import { heldOutCases } from "./held-out-shapes.js";

const expected = (k: Case) => k.secrets.reduce((t, [s, kind]) => t.split(s).join(`[REDACTED:${kind}]`), k.text);
const occurrences = (k: Case) => k.secrets.reduce((n, [s]) => n + k.text.split(s).length - 1, 0);

describe("redact: the held-out corpus", () => {
  const cases = heldOutCases();
  test("has at least 90 new shapes, none a text of the first corpus", () => {
    assert.ok(new Set(cases.map((k) => k.name)).size >= 90, `${cases.length} cases`);
    const first = new Set(secretCases().map((k) => k.name));
    assert.deepEqual(cases.filter((k) => first.has(k.name)).map((k) => k.name), []);
    assert.ok(first.size + cases.length >= 250);
  });
  for (const k of cases) {
    test(`redacts: ${k.name}`, () => {
      const r = redact(k.text);
      for (const [s] of k.secrets) assert.ok(!r.text.includes(s), `secret survived in:\n${r.text}`);
      assert.equal(r.text, expected(k));
      assert.equal(r.count, occurrences(k));
      assert.deepEqual(r.kinds, [...new Set(k.secrets.map(([, kind]) => kind))].sort());
    });
  }
  test("redacting twice is the same as redacting once", () => {
    for (const k of cases) {
      const once = redact(k.text).text;
      assert.equal(redact(once).text, once, k.name);
    }
  });
  test("inside JSON-like values too (a hook payload), keys included", () => {
    for (const k of cases) {
      const out = JSON.stringify(redactDeep({ tool_input: { command: k.text }, [k.text.split("\n")[0]!]: [k.text] }, { keys: true }).value);
      for (const [s] of k.secrets) assert.ok(!out.includes(JSON.stringify(s).slice(1, -1)), `${k.name}: ${out}`);
    }
  });
});
