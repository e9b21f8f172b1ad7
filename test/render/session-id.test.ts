/**
 * A session id typed back: the whole id, the short form every output shows (shortSession: first 8
 * … last 4), "..." for "…", or a unique start of six characters or more. One table: what each typed
 * id resolves to among a project's sessions, or the error it gets.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { shortSession } from "../../src/render/line.js";
import { MIN_SESSION_CHARS, parseSession, pickSession } from "../../src/render/session-id.js";

const A = "8bbcceab-0b3e-4e24-98c9-ec146b1ca8c6";
const B = "8bbcceab-1111-4e24-98c9-ec146b1c0000";
const C = "1f00aa22-3333-4444-5555-666677778888";
const SHORT = "sess-1"; // shown whole (16 characters or fewer)
const TWIN1 = "8bbcceab-aaaa-0000-0000-00000000a8c6"; // the same short form as A
const KNOWN = [A, B, C, SHORT];

type Want = { session: string } | { error: "bad_argument" | "not_found"; says: RegExp };

const cases: [string, unknown, readonly string[], Want][] = [
  ["the whole id", A, KNOWN, { session: A }],
  ["the whole id, spaces around", `  ${A}\n`, KNOWN, { session: A }],
  ["the short form as shown", shortSession(A), KNOWN, { session: A }],
  ["the short form with ...", "8bbcceab...0000", KNOWN, { session: B }],
  ["a unique start", "1f00aa", KNOWN, { session: C }],
  ["a longer unique start", "8bbcceab-0b", KNOWN, { session: A }],
  ["a short whole id (shown whole)", SHORT, KNOWN, { session: SHORT }],
  ["a start two sessions share", "8bbcceab", KNOWN, { error: "bad_argument", says: /ambiguous: it matches 2 sessions: 8bbcceab…a8c6, 8bbcceab…0000; give more/ }],
  ["a short form two sessions share: whole ids listed", shortSession(A), [A, TWIN1], { error: "bad_argument", says: new RegExp(`ambiguous: it matches 2 sessions: ${A}, ${TWIN1}`) }],
  ["too short a start", "8bbc", KNOWN, { error: "bad_argument", says: new RegExp(`too short: give at least ${MIN_SESSION_CHARS} characters`) }],
  ["one character", "8", KNOWN, { error: "bad_argument", says: /too short/ }],
  ["too short, and no session starts so", "s2", KNOWN, { error: "not_found", says: /^no session s2 in this project$/ }],
  ["an unknown id", "zzzzzzzz", KNOWN, { error: "not_found", says: /^no session zzzzzzzz in this project$/ }],
  ["a short form of no session", "8bbcceab…ffff", KNOWN, { error: "not_found", says: /^no session 8bbcceab…ffff in this project$/ }],
  ["the short form's start and end overlapping", "8bbcceab-0b3e…0b3e-4", [A], { error: "not_found", says: /no session/ }],
  ["no session at all in the project", A, [], { error: "not_found", says: /no session/ }],
  ["an id with markup: defused in the message", "<b>zzzzzz</b>", KNOWN, { error: "not_found", says: /^no session [^<]*zzzzzz[^<]* in this project$/ }],
];

describe("a typed session id resolves to one session, or says why not", () => {
  for (const [name, typed, known, want] of cases) {
    test(name, () => {
      const parsed = parseSession(typed);
      assert.ok(parsed.ok, `parsed: ${JSON.stringify(parsed)}`);
      const got = pickSession(parsed.input, known);
      if ("session" in want) assert.deepEqual(got, { ok: true, session: want.session });
      else {
        assert.ok(!got.ok, JSON.stringify(got));
        assert.equal(got.code, want.error);
        assert.match(got.message, want.says);
      }
    });
  }

  const refused: [string, unknown, RegExp][] = [
    ["not a string", 12, /must be a string/],
    ["empty", "", /non-empty/],
    ["spaces only", "   ", /non-empty/],
    ["too long", "a".repeat(301), /at most 300 characters/],
    ["control characters", "8bbcceab\u001b[31m", /control characters/],
  ];
  for (const [name, typed, says] of refused) {
    test(`refused: ${name}`, () => {
      const parsed = parseSession(typed);
      assert.ok(!parsed.ok);
      assert.match(parsed.message, says);
    });
  }

  test("every session's short form, as shown, resolves back to it", () => {
    for (const s of KNOWN) {
      const parsed = parseSession(shortSession(s));
      assert.ok(parsed.ok);
      assert.deepEqual(pickSession(parsed.input, KNOWN), { ok: true, session: s });
    }
  });
});
