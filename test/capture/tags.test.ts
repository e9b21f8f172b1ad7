import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { extractTags, withoutTags } from "../../src/capture/extract/tags.js";
import { extractFromLines } from "../../src/capture/extract/index.js";
import { sameStatement } from "../../src/capture/extract/same.js";

const kinds = (text: string) => extractTags(text).map((t) => [t.type, t.text]);

describe("[MEMORY: kind] tags", () => {
  test("every kind, case-insensitive, text to the end of the line, confidence 1", () => {
    const text = [
      "Some prose.",
      "[MEMORY: decision] Use SQLite WAL mode for concurrent readers.",
      "[memory:REJECTED]   Redis as a queue (needs a daemon)",
      "[ Memory : learned ] fs.watch misses renames on macOS",
      "[MEMORY: preference] Tabs in Go files",
      "[MEMORY: task] Add a migration for the events table",
    ].join("\n");
    assert.deepEqual(kinds(text), [
      ["decision", "Use SQLite WAL mode for concurrent readers."],
      ["rejected", "Redis as a queue (needs a daemon)"],
      ["learned", "fs.watch misses renames on macOS"],
      ["preference", "Tabs in Go files"],
      ["task", "Add a migration for the events table"],
    ]);
    assert.ok(extractTags(text).every((t) => t.confidence === 1));
  });

  test("a tag mid-sentence, two tags on a line, and a tag alone taking its paragraph", () => {
    assert.deepEqual(kinds("So [MEMORY: learned] the cache key must include dims. [MEMORY: decision] Keep one table per model"), [
      ["learned", "the cache key must include dims."],
      ["decision", "Keep one table per model"],
    ]);
    assert.deepEqual(kinds("[MEMORY: decision]\nUse RRF with k=60\nfor fusion.\n\nUnrelated paragraph."), [["decision", "Use RRF with k=60 for fusion."]]);
  });

  test("unknown kinds, empty text and tags inside code are ignored", () => {
    assert.deepEqual(kinds("[MEMORY: idea] something\n[MEMORY] nothing\n[MEMORY: decision]   \n\n[MEMORY decision] x"), []);
    assert.deepEqual(kinds("Write `[MEMORY: decision] text` to record one.\n```\n[MEMORY: learned] in code\n```"), []);
  });

  test("withoutTags removes tagged lines so keywords do not count them twice", () => {
    assert.equal(withoutTags("a\n[MEMORY: decision] chose A over B because C\nb"), "a\n\nb");
    const lines = [
      { type: "assistant", sessionId: "s", timestamp: "2026-01-01T00:00:00.000Z", uuid: "u1",
        message: { role: "assistant", content: [{ type: "text", text: "[MEMORY: decision] Chose A over B because C." }] } },
    ];
    const ev = extractFromLines(lines);
    assert.deepEqual(ev.map((e) => [e.type, e.confidence, e.metadata.source]), [["decision", 1, "tag"]]);
  });

  test("a tag and the sentence beside it that restates it are one memory; a different decision beside a tag is kept", () => {
    const msg = (text: string) => [{ type: "assistant", sessionId: "s", timestamp: "2026-01-01T00:00:00.000Z", uuid: "u2", message: { role: "assistant", content: [{ type: "text", text }] } }];
    const same = extractFromLines(msg("We chose SQLite over Postgres because it needs no server.\n[MEMORY: decision] Chose SQLite over Postgres: no server to run."));
    assert.deepEqual(same.map((e) => [e.type, e.metadata.source]), [["decision", "tag"]]);
    const other = extractFromLines(msg("We decided to use pnpm instead of npm because of the lockfile.\n[MEMORY: decision] Chose SQLite over Postgres: no server to run."));
    assert.deepEqual(other.map((e) => [e.type, e.metadata.source]).sort(), [["decision", "keyword"], ["decision", "tag"]]);
  });
  test("sameStatement: content words overlap by half or more", () => {
    assert.ok(sameStatement("We chose SQLite over Postgres because it needs no server.", "Chose SQLite over Postgres: no server to run."));
    assert.ok(!sameStatement("Fix the login bug", "Refactor the logout page"));
  });

  test("user prompts are scanned; injected and meta user content is not", () => {
    const user = (content: unknown, extra: Record<string, unknown> = {}) => ({ type: "user", sessionId: "s", message: { role: "user", content }, ...extra });
    const ev = extractFromLines([
      user("[MEMORY: preference] Prefer small commits"),
      user("<task-notification>[MEMORY: decision] injected</task-notification>"),
      user("[MEMORY: learned] summary text", { isCompactSummary: true }),
      user([{ type: "tool_result", tool_use_id: "t1", content: "[MEMORY: learned] from a file" }]),
    ]);
    assert.deepEqual(ev.map((e) => [e.type, e.text]), [["preference", "Prefer small commits"]]);
  });
});
