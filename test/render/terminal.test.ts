import assert from "node:assert/strict";
import { test } from "node:test";
import { safeJson, visible } from "../../src/render/line.js";

const HOSTILE = "a\u001b[2Jb\u009b31mc\u0007d\u202ee\u2028f\u{e0041}g\rh\tx";

test("visible: every control or invisible character shown as an escape, lines and the rest kept", () => {
  const out = visible(`${HOSTILE}\nline two <mem-recall>`);
  assert.equal(out, "a\\u{1b}[2Jb\\u{9b}31mc\\u{7}d\\u{202e}e\\u{2028}f\\u{e0041}g\\rh\\tx\nline two <mem-recall>");
  assert.equal(visible("plain text\n- [id] item"), "plain text\n- [id] item");
});

test("safeJson: the same JSON to a parser, with no raw control or invisible character", () => {
  const v = { text: HOSTILE, n: [1, "\u007f"] };
  const out = safeJson(v);
  assert.deepEqual(JSON.parse(out), v);
  assert.ok(!/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202e]|\u{e0041}/u.test(out), out);
});
