/**
 * The rules a purge uses to find forgotten text outside the store: which needles a text gives
 * (the start of each long enough line, as written and JSON-escaped), where they are found, and
 * what a session's summary or task list keeps once the items quoting it are withheld.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { holdsAny, NEEDLE, needlesOf } from "../../src/maintenance/purge-copies.js";
import { withheldJson } from "../../src/store/sessions.js";

const FORGOTTEN = 'We keep the "walrus" vault key on the second shelf of the archive room.';
const needles = needlesOf([FORGOTTEN, "short line\nThe staging cluster is rebuilt every Friday afternoon."]);
const holds = (t: string) => holdsAny(t, needles);

describe("needles", () => {
  test("the start of each line of at least NEEDLE characters, as written, JSON-escaped and URL-quoted; shorter lines give none", () => {
    assert.equal(NEEDLE, 32);
    const url = (t: string) => encodeURIComponent(t).slice(0, 32);
    const plus = (t: string) => encodeURIComponent(t).replace(/%20/g, "+").slice(0, 32);
    const second = "The staging cluster is rebuilt every Friday afternoon.";
    assert.deepEqual([...needles].sort(), [...new Set([FORGOTTEN.slice(0, 32), JSON.stringify(FORGOTTEN).slice(1, 33), url(FORGOTTEN), plus(FORGOTTEN), second.slice(0, 32), url(second), plus(second)])].sort());
  });

  const cases: [string, string, boolean][] = [
    ["the text itself", FORGOTTEN, true],
    ["inside a log line", `2026-11-02 could not store ${FORGOTTEN.slice(0, 40)}…`, true],
    ["JSON-escaped, in a settings backup", JSON.stringify({ history: [{ display: FORGOTTEN }] }), true],
    ["URL-quoted, in an opening link", `http://127.0.0.1:7077/open?q=${encodeURIComponent(FORGOTTEN)}&sig=x`, true],
    ["URL-quoted with + for spaces", `/search?q=${encodeURIComponent(FORGOTTEN).replace(/%20/g, "+")}`, true],
    ["its second line alone", "log: The staging cluster is rebuilt every Friday", true],
    ["only its first 31 characters", FORGOTTEN.slice(0, 31), false],
    ["a short line of it", "short line", false],
    ["other text", "Nothing about vaults or shelves here at all, none whatsoever.", false],
    ["empty", "", false],
  ];
  for (const [name, text, want] of cases) test(`${name}: ${want ? "found" : "not found"}`, () => assert.equal(holds(text), want));
});

describe("a session's records without what quotes a forgotten memory", () => {
  const cases: [string, string | null, string | null][] = [
    ["nothing quoted: the same text", '{"decisions":["Use WAL mode."]}', '{"decisions":["Use WAL mode."]}'],
    ["a summary's decision dropped, the rest kept", JSON.stringify({ goal: ["fix the deploy"], decisions: [FORGOTTEN, "Use WAL mode."] }), JSON.stringify({ goal: ["fix the deploy"], decisions: ["Use WAL mode."] })],
    ["a task quoting it dropped whole", JSON.stringify({ tasks: [{ subject: "Move it", description: FORGOTTEN }, { subject: "Keep" }] }), JSON.stringify({ tasks: [{ subject: "Keep" }] })],
    ["a lone string emptied", JSON.stringify({ lastPrompt: FORGOTTEN }), JSON.stringify({ lastPrompt: "" })],
    ["null stays null", null, null],
  ];
  for (const [name, json, want] of cases) test(name, () => assert.equal(withheldJson(json, holds), want));
});
