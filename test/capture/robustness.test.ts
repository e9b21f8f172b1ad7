import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { extractFromLines } from "../../src/capture/extract/index.js";
import { postToolUsePayloads } from "../../src/capture/extract/payloads.js";
import { finalTasks } from "../../src/capture/extract/tasks.js";
import { parseTranscriptLines, readTranscriptFrom } from "../../src/capture/transcript.js";
import type { TranscriptLine } from "../../src/store/event-types.js";
import { SKIP, spotterSessions } from "./shared-data.js";

const dir = mkdtempSync(join(tmpdir(), "mem-capture-bad-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Deterministic pseudo-random bytes. */
function noise(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) b[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  return b;
}

const runAll = (lines: TranscriptLine[]): void => {
  extractFromLines(lines);
  finalTasks(lines);
  postToolUsePayloads(lines);
};

describe("bad input never throws", () => {
  test("binary garbage through the reader and every extractor", () => {
    for (let seed = 1; seed <= 5; seed++) {
      const p = join(dir, `bin${seed}.jsonl`);
      writeFileSync(p, Buffer.concat([noise(20_000, seed), Buffer.from('\n{"type":"user"}\n'), noise(500, seed + 9)]));
      const r = readTranscriptFrom(p, 0);
      assert.ok(r.skipped > 0);
      runAll(r.lines);
    }
  });

  test("well-formed JSON with the wrong shapes", () => {
    const weird: unknown[] = [
      {}, { type: "assistant" }, { type: "assistant", message: null }, { type: "assistant", message: { content: "str" } },
      { type: "assistant", message: { content: [null, 1, "x", { type: "tool_use" }, { type: "tool_use", id: 5, name: {}, input: [] }] } },
      { type: "assistant", message: { content: [{ type: "tool_use", id: "t1", name: "TaskUpdate", input: { taskId: {} } }] } },
      { type: "assistant", message: { content: [{ type: "tool_use", id: "t2", name: "TodoWrite", input: { todos: "nope" } }] } },
      { type: "assistant", message: { content: [{ type: "tool_use", id: "t3", name: "TaskCreate", input: null }] } },
      { type: "assistant", message: { content: [{ type: "tool_use", id: "t4", name: "Edit", input: { file_path: 3 } }] } },
      { type: "assistant", message: { content: [{ type: "text", text: 42 }, { type: "text", text: "[MEMORY: " }] } },
      { type: "user", message: { content: [{ type: "tool_result" }, { type: "tool_result", tool_use_id: "t3", content: { x: 1 } }] }, toolUseResult: "Error" },
      { type: "user", message: { content: [{ type: "tool_result", tool_use_id: "t2", is_error: true, content: [null, { text: 1 }] }] } },
      { type: "progress", data: { message: { type: "assistant", message: { content: [{ type: "tool_use", id: "t9", name: "Bash", input: {} }] } } } },
      { type: "progress", data: null }, { type: "system", subtype: "compact_boundary" },
    ];
    const lines = weird as TranscriptLine[];
    runAll(lines);
    const ev = extractFromLines(lines);
    assert.ok(ev.some((e) => e.id === "t9" && e.type === "command_run"));
    assert.ok(ev.some((e) => e.id === "t4" && e.type === "file_modified" && e.files.length === 0));
  });

  test("a real transcript cut at arbitrary bytes parses and extracts", { skip: SKIP }, () => {
    const s = spotterSessions().find((x) => x.main)!;
    const text = readFileSync(s.main!, "utf8");
    for (const frac of [0.013, 0.37, 0.5, 0.81, 0.999]) {
      const cut = text.slice(Math.floor(text.length * frac * 0.3), Math.floor(text.length * frac));
      const { lines, skipped } = parseTranscriptLines(cut);
      assert.ok(skipped <= 2, "only the two cut ends are malformed");
      runAll(lines); // results without their calls (orphans) and calls without results
    }
  });
});
