/** Times as people read them (src/render/time.ts): a pure function of the time and an injected clock, table-driven. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { absoluteTime, relativeTime, shownTime } from "../../src/render/time.js";
import { shortSession } from "../../src/render/line.js";

const NOW = Date.UTC(2026, 10, 29, 4, 44, 5, 321);
const S = 1_000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

test("relativeTime: just now, minutes, hours under 48, days; a time a little ahead is just now; an unknown one is empty", () => {
  const cases: [string | number, string][] = [
    [NOW, "just now"],
    [NOW - 59 * S, "just now"],
    [NOW + 30 * S, "just now"],
    [NOW - M, "1 min ago"],
    [NOW - 5 * M - 10 * S, "5 min ago"],
    [NOW - 59 * M, "59 min ago"],
    [NOW - H, "1 h ago"],
    [NOW - 5 * H - 20 * M, "5 h ago"],
    [NOW - 47 * H, "47 h ago"],
    [NOW - 48 * H, "2 d ago"],
    [NOW - 10 * D, "10 d ago"],
    [new Date(NOW - 3 * M).toISOString(), "3 min ago"],
    ["not a time", ""],
    [Number.NaN, ""],
  ];
  for (const [time, want] of cases) assert.equal(relativeTime(time, NOW), want, String(time));
});

test("absoluteTime: UTC to the second, from ms or an ISO string; shownTime picks by --absolute", () => {
  assert.equal(absoluteTime(NOW), "2026-11-29T04:44:05Z");
  assert.equal(absoluteTime("2026-11-29T06:44:05.999+02:00"), "2026-11-29T04:44:05Z");
  assert.equal(absoluteTime("garbage"), "");
  assert.equal(shownTime(NOW - 5 * M, NOW, false), "5 min ago");
  assert.equal(shownTime(NOW - 5 * M, NOW, true), "2026-11-29T04:39:05Z");
});

test("shortSession: whole up to 16 characters; longer, its start and end, so ids sharing a start stay apart", () => {
  const cases: [string, string][] = [
    ["sess-1", "sess-1"],
    ["e2e-session-1", "e2e-session-1"],
    ["0123456789abcdef", "0123456789abcdef"],
    ["sess-nc-20261129-aaaa", "sess-nc-…aaaa"],
    ["sess-nc-20261129-bbbb", "sess-nc-…bbbb"],
    ["1a2b3c4d-0000-4000-8000-00000000f00d", "1a2b3c4d…f00d"],
    ["evil\u001b[31m-session-id-x", "evil\\u{1b}[31…id-x"],
  ];
  for (const [id, want] of cases) assert.equal(shortSession(id), want, id);
});
