import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseTranscriptLines } from "../../src/capture/transcript.js";
import { DEPTH_MARKER, MAX_JSON_DEPTH, truncateDeep } from "../../src/util/json-depth.cjs";

/** `[[[...[1]...]]]`, `depth` arrays deep, as text. */
const nestedArrays = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;

/** How many containers deep `v` goes along its first elements, and what is at the bottom. */
function descend(v: unknown): { levels: number; bottom: unknown } {
  let levels = 0;
  while (v !== null && typeof v === "object") {
    v = Array.isArray(v) ? v[0] : Object.values(v)[0];
    levels++;
  }
  return { levels, bottom: v };
}

describe("truncateDeep: nesting is bounded, the rest is kept", () => {
  test("200,000 nested arrays become MAX_JSON_DEPTH levels and the marker, and stringify again", () => {
    const cut = truncateDeep(JSON.parse(nestedArrays(200_000)) as unknown);
    assert.deepEqual(descend(cut), { levels: MAX_JSON_DEPTH, bottom: DEPTH_MARKER });
    assert.ok(JSON.stringify(cut).length < 500);
  });

  test("a value within the limit is returned as is (same object); a cut copies only its path, never mutating the input", () => {
    const shallow = { a: [1, { b: "x" }], c: null };
    assert.equal(truncateDeep(shallow), shallow);
    const input = { keep: { x: 1 }, deep: [[[[{ y: 2 }]]]] };
    const out = truncateDeep(input, 3);
    assert.deepEqual(out, { keep: { x: 1 }, deep: [[DEPTH_MARKER]] });
    assert.equal(out.keep, input.keep, "an untouched branch is shared");
    assert.deepEqual(input.deep, [[[[{ y: 2 }]]]], "the input is unchanged");
  });

  test('a "__proto__" key from JSON.parse stays a plain own property when its subtree is cut', () => {
    const parsed = JSON.parse('{"__proto__": {"a": {"b": {"c": 1}}}, "z": 1}') as Record<string, unknown>;
    const out = truncateDeep(parsed, 2);
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(out, "__proto__")?.value, { a: DEPTH_MARKER });
    assert.equal(out.z, 1);
  });

  test("a transcript line nested 5,000 deep is parsed and kept, its deep part cut", () => {
    const line = `{"type":"user","toolUseResult":${nestedArrays(5_000)}}`;
    const { lines, skipped } = parseTranscriptLines(`${line}\n{"type":"assistant"}\n`);
    assert.equal(skipped, 0);
    assert.equal(lines.length, 2);
    assert.deepEqual(descend((lines[0] as { toolUseResult: unknown }).toolUseResult), { levels: MAX_JSON_DEPTH - 1, bottom: DEPTH_MARKER });
  });
});
