/**
 * A time from outside is never later than now: a transcript line dated 2999 (a hostile or broken
 * transcript file, a hook's payload) is stored at the capture's time, so it cannot rank as the
 * newest memory for centuries; a past time is kept, in one form (UTC ISO: stored times are
 * compared and sorted as text, so "Sep 1 2020" or an offset of +14:00 sorted among the wrong
 * ones). Real SQLite, a real transcript file.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { openApp } from "../../src/app.js";
import { captureTranscript } from "../../src/capture/record.js";
import { cleanText } from "../../src/redact/clean.cjs";
import { notAfter } from "../../src/util/not-after.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-future-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("notAfter: a future or unreadable time becomes now; a past one or now stays, as UTC ISO", () => {
  const now = Date.parse("2026-11-27T12:00:00.000Z");
  const rows: [string, { iso: string; clamped: boolean }][] = [
    ["2026-11-27T11:59:59.000Z", { iso: "2026-11-27T11:59:59.000Z", clamped: false }],
    ["2026-11-27T12:00:00.000Z", { iso: "2026-11-27T12:00:00.000Z", clamped: false }],
    ["2020-01-01T00:00:00Z", { iso: "2020-01-01T00:00:00.000Z", clamped: false }],
    ["2026-11-28T01:00:00+14:00", { iso: "2026-11-27T11:00:00.000Z", clamped: false }],
    ["2026-11-27T13:00:00+02:00", { iso: "2026-11-27T11:00:00.000Z", clamped: false }],
    ["Sep 1 2020 00:00:00 GMT", { iso: "2020-09-01T00:00:00.000Z", clamped: false }],
    ["2026-11-27", { iso: "2026-11-27T00:00:00.000Z", clamped: false }],
    ["2026-11-28T11:00:00+14:00", { iso: "2026-11-27T12:00:00.000Z", clamped: true }],
    ["2026-11-27T12:00:00.001Z", { iso: "2026-11-27T12:00:00.000Z", clamped: true }],
    ["2999-01-01T00:00:00.000Z", { iso: "2026-11-27T12:00:00.000Z", clamped: true }],
    ["not a time", { iso: "2026-11-27T12:00:00.000Z", clamped: true }],
  ];
  for (const [iso, want] of rows) assert.deepEqual(notAfter(iso, now), want, iso);
});

test("a transcript line dated in the future is captured at the capture's time; a past one keeps its time", () => {
  const app = openApp({ MEM_HOME: join(tmp, "home"), HOME: tmp, MEM_EMBED_ORDER: "none" });
  after(() => app.close());
  const now = Date.parse("2026-11-27T12:00:00.000Z");
  const line = (timestamp: string, text: string) => JSON.stringify({ type: "assistant", sessionId: "s-future", timestamp, message: { role: "assistant", content: [{ type: "text", text }] } });
  const file = join(tmp, "transcript.jsonl");
  writeFileSync(file, `${line("2999-01-01T00:00:00.000Z", "[MEMORY: decision] Dated in 2999 to rank first.")}\n${line("2026-11-01T00:00:00.000Z", "[MEMORY: decision] Dated on the first.")}\n`);
  const r = captureTranscript(app.db, cleanText("/proj"), "s-future", file, undefined, now);
  assert.equal(r.events, 2);
  const rows = app.db.prepare("SELECT text, time FROM events WHERE project = '/proj' ORDER BY text").all() as { text: string; time: string }[];
  assert.deepEqual(rows, [
    { text: "Dated in 2999 to rank first.", time: "2026-11-27T12:00:00.000Z" },
    { text: "Dated on the first.", time: "2026-11-01T00:00:00.000Z" },
  ]);
});

test("times in other forms are stored as UTC ISO, so they sort by when they were", () => {
  const app = openApp({ MEM_HOME: join(tmp, "home-forms"), HOME: tmp, MEM_EMBED_ORDER: "none" });
  after(() => app.close());
  const now = Date.parse("2026-11-27T12:00:00.000Z");
  const line = (timestamp: string, text: string) => JSON.stringify({ type: "assistant", sessionId: "s-forms", timestamp, message: { role: "assistant", content: [{ type: "text", text }] } });
  const file = join(tmp, "forms.jsonl");
  writeFileSync(file, `${[line("2026-11-27T11:00:00.000Z", "[MEMORY: decision] Newest, at 11:00Z."), line("2026-11-27T20:00:00+14:00", "[MEMORY: decision] At 20:00 in UTC+14, 06:00Z."), line("Sep 1 2020 00:00:00 GMT", "[MEMORY: decision] Legacy date in 2020.")].join("\n")}\n`);
  captureTranscript(app.db, cleanText("/forms"), "s-forms", file, undefined, now);
  const rows = app.db.prepare("SELECT time, text FROM events WHERE project = '/forms' ORDER BY time DESC").all();
  assert.deepEqual(rows, [
    { time: "2026-11-27T11:00:00.000Z", text: "Newest, at 11:00Z." },
    { time: "2026-11-27T06:00:00.000Z", text: "At 20:00 in UTC+14, 06:00Z." },
    { time: "2020-09-01T00:00:00.000Z", text: "Legacy date in 2020." },
  ]);
});
