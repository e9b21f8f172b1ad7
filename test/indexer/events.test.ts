import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { eventText, parseEventLines } from "../../indexer/events.js";

const line = (o: unknown) => JSON.stringify(o);

describe("parseEventLines", () => {
  test("a valid line becomes an event with every field and its line number", () => {
    const { events, skipped } = parseEventLines(
      line({ type: "decision", text: "Use p-queue with concurrency 2", time: "2026-11-02T10:00:00Z", session: "abc", files: ["src/a.ts"], id: "tool-1" }),
    );
    assert.deepEqual(skipped, []);
    assert.deepEqual(events, [
      { id: "tool-1", type: "decision", text: "Use p-queue with concurrency 2", time: "2026-11-02T10:00:00Z", session: "abc", files: ["src/a.ts"], line: 1 },
    ]);
  });

  test("summary and message stand for text, with text preferred", () => {
    const { events } = parseEventLines(
      [
        line({ type: "summary", summary: "Session closed cleanly" }),
        line({ type: "note", message: "Ollama was down, used transformers" }),
        line({ type: "note", text: "the text", summary: "not this", message: "nor this" }),
        line({ type: "note", text: "   ", summary: "blank text falls through" }),
      ].join("\n"),
    );
    assert.deepEqual(
      events.map((e) => e.text),
      ["Session closed cleanly", "Ollama was down, used transformers", "the text", "blank text falls through"],
    );
  });

  test("ts and timestamp stand for time", () => {
    const { events } = parseEventLines(
      [line({ type: "edit", text: "a", ts: "2026-11-02T10:00:00Z" }), line({ type: "edit", text: "b", timestamp: "2026-11-03" })].join("\n"),
    );
    assert.deepEqual(
      events.map((e) => e.time),
      ["2026-11-02T10:00:00Z", "2026-11-03"],
    );
  });

  test("session_id stands for session and paths stands for files", () => {
    const { events } = parseEventLines(line({ type: "edit", text: "touched the store", session_id: "s-42", paths: ["src/store/db.ts", 7, null, "src/store/chunks.ts"] }));
    assert.equal(events[0]!.session, "s-42");
    assert.deepEqual(events[0]!.files, ["src/store/db.ts", "src/store/chunks.ts"], "non-string paths are dropped");
  });

  test("an event without optional fields has no id, time or session and an empty file list", () => {
    const { events } = parseEventLines(line({ type: "note", text: "plain" }));
    assert.deepEqual(events, [{ type: "note", text: "plain", files: [], line: 1 }]);
  });

  test("malformed lines are skipped with their line numbers and reasons while good lines around them survive", () => {
    const text = [
      line({ type: "decision", text: "first good" }), // 1
      "{not json", // 2
      "", // 3 blank: ignored silently
      line(["decision", "an array"]), // 4
      line({ text: "no type" }), // 5
      line({ type: "note" }), // 6
      line({ type: "note", text: 42 }), // 7
      "null", // 8
      '"a string"', // 9
      line({ type: "decision", text: "last good" }), // 10
    ].join("\n");
    const { events, skipped } = parseEventLines(text);
    assert.deepEqual(
      events.map((e) => [e.line, e.text]),
      [
        [1, "first good"],
        [10, "last good"],
      ],
    );
    assert.deepEqual(skipped, [
      { line: 2, reason: "not JSON" },
      { line: 4, reason: "not a JSON object" },
      { line: 5, reason: "needs a string `type` and `text`" },
      { line: 6, reason: "needs a string `type` and `text`" },
      { line: 7, reason: "needs a string `type` and `text`" },
      { line: 8, reason: "not a JSON object" },
      { line: 9, reason: "not a JSON object" },
    ]);
  });

  test("an unparseable time is dropped but the event is kept", () => {
    const { events, skipped } = parseEventLines(line({ type: "note", text: "kept", time: "yesterday-ish" }));
    assert.deepEqual(skipped, []);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.time, undefined);
    assert.ok(!("time" in events[0]!));
  });

  test("CRLF line endings and blank lines keep line numbers right", () => {
    const { events } = parseEventLines(`\r\n${line({ type: "a", text: "x" })}\r\n\r\n${line({ type: "b", text: "y" })}\r\n`);
    assert.deepEqual(
      events.map((e) => [e.line, e.type]),
      [
        [2, "a"],
        [4, "b"],
      ],
    );
  });

  test("huge text is truncated with a marker, and type and file lists are capped", () => {
    const huge = "x".repeat(50_000);
    const files = Array.from({ length: 150 }, (_, i) => `src/f${i}.ts`);
    const { events } = parseEventLines(line({ type: "t".repeat(100), text: huge, files }));
    const ev = events[0]!;
    assert.equal(ev.text, `${"x".repeat(20_000)} …[truncated]`);
    assert.equal(ev.type.length, 64);
    assert.equal(ev.files.length, 100);
    assert.equal(ev.files[99], "src/f99.ts");
  });

  test("text of exactly the limit is not truncated", () => {
    const { events } = parseEventLines(line({ type: "note", text: "y".repeat(20_000) }));
    assert.equal(events[0]!.text.length, 20_000);
  });

  test("empty input gives nothing", () => {
    assert.deepEqual(parseEventLines(""), { events: [], skipped: [] });
  });
});

describe("eventText", () => {
  test("is the type and text, followed by the files when there are any", () => {
    const { events } = parseEventLines(
      [line({ type: "edit", text: "Moved the FTS triggers", files: ["src/store/db.ts", "src/store/chunks.ts"] }), line({ type: "note", text: "No files here" })].join("\n"),
    );
    assert.equal(eventText(events[0]!), "edit: Moved the FTS triggers\nfiles: src/store/db.ts, src/store/chunks.ts");
    assert.equal(eventText(events[1]!), "note: No files here");
  });
});
