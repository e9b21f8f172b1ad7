import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { extractFromLines } from "../../src/capture/extract/index.js";
import { postToolUsePayloads } from "../../src/capture/extract/payloads.js";
import { structuralEvents, toolEventType } from "../../src/capture/extract/structural.js";
import type { TranscriptLine } from "../../src/store/event-types.js";
import { load, PAYLOADS, SKIP, spotterSessions, taskSessions } from "./shared-data.js";

/**
 * Counted independently of the extractor, straight from the raw JSON: tool_use blocks of
 * assistant lines, plus those of assistant messages nested in `progress` lines (subagent calls
 * mirrored into the main file). Distinct ids; the same call in a subagent file counts once.
 */
function countToolUses(raw: string[], ids = new Set<string>(), errors = new Set<string>()): { ids: Set<string>; errors: Set<string> } {
  for (const text of raw) {
    for (const l of text.split("\n")) {
      if (!l.trim()) continue;
      const o = JSON.parse(l);
      const msgs = [o, o.type === "progress" ? o.data?.message : undefined];
      for (const m of msgs) {
        const content = m?.message?.content;
        if (!Array.isArray(content)) continue;
        for (const b of content) {
          if (m.type === "assistant" && b.type === "tool_use") ids.add(b.id);
          if (m.type === "user" && b.type === "tool_result" && b.is_error === true) errors.add(b.tool_use_id);
        }
      }
    }
  }
  return { ids, errors };
}

interface Case {
  name: string;
  files: string[];
}
const cases = (): Case[] => [
  ...spotterSessions().map((s) => ({ name: `marot-spotter/${s.name}`, files: [...(s.main ? [s.main] : []), ...s.subagents] })),
  ...taskSessions().map((s) => ({ name: `with-tasks/${s.name}`, files: [s.path] })),
];

describe("structural capture on real transcripts", { skip: SKIP }, () => {
  test("every tool_use (main, progress-mirrored and subagent files) becomes exactly one tool event", () => {
    let total = 0;
    for (const c of cases()) {
      const lines: TranscriptLine[] = c.files.flatMap(load);
      const expected = countToolUses(c.files.map((f) => readFileSync(f, "utf8")));
      const events = structuralEvents(lines, { session: "s" });
      const tools = events.filter((e) => e.type !== "error");
      assert.equal(tools.length, expected.ids.size, c.name);
      assert.deepEqual(new Set(tools.map((e) => e.id)), expected.ids, c.name);
      const errors = events.filter((e) => e.type === "error");
      assert.deepEqual(new Set(errors.map((e) => e.id)), new Set([...expected.errors].map((id) => `${id}#error`)), c.name);
      for (const e of tools) assert.equal(e.type, toolEventType(String(e.metadata.tool)), c.name);
      total += tools.length;
    }
    assert.ok(total > 3000, `only ${total} tool events`);
  });

  test("a subagent file adds no new calls: 2.1.39 mirrors each of its calls into the main file", () => {
    for (const s of spotterSessions().filter((x) => x.main && x.subagents.length)) {
      const main = new Set(structuralEvents(load(s.main!), { session: "s" }).map((e) => e.id));
      const sub = structuralEvents(s.subagents.flatMap(load), { session: "s" }).filter((e) => e.type !== "error");
      for (const e of sub) assert.ok(main.has(e.id), `${s.name}: ${e.id} only in the subagent file`);
    }
  });

  test("file, command and error events carry paths and text", () => {
    const events = cases().flatMap((c) => structuralEvents(c.files.flatMap(load), { session: "s" }));
    for (const e of events.filter((x) => x.type === "file_modified")) assert.ok(e.files.length === 1 && e.files[0]!.length > 0, e.id);
    const bash = events.filter((e) => e.type === "command_run");
    assert.ok(bash.length > 500 && bash.every((e) => e.text.startsWith("$ ") && e.text.length <= 1002));
    const rejected = events.filter((e) => e.type === "error" && e.metadata.errorKind === "rejected_by_user");
    assert.ok(rejected.length >= 2, "short.jsonl has two user rejections");
  });

  test("re-extraction gives identical ids; replaying lines twice adds nothing", () => {
    for (const c of cases()) {
      const lines = c.files.flatMap(load);
      const a = extractFromLines(lines, { session: "s" });
      const b = extractFromLines(lines, { session: "s" });
      assert.deepEqual(b.map((e) => e.id), a.map((e) => e.id), c.name);
      assert.equal(new Set(a.map((e) => e.id)).size, a.length, `${c.name}: duplicate ids`);
      const twice = extractFromLines([...lines, ...lines], { session: "s" });
      assert.deepEqual(new Set(twice.map((e) => e.id)), new Set(a.map((e) => e.id)), c.name);
    }
  });

  test("PostToolUse payloads rebuilt from a transcript have the hook's shape", () => {
    const sample = readFileSync(`${PAYLOADS}/shepherd_hook_stdin_examples_v2.1.270.jsonl`, "utf8")
      .split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const real = sample.filter((p) => p.hook_event_name === "PostToolUse" || p.hook_event_name === "PostToolUseFailure");
    const s = spotterSessions().find((x) => x.main)!;
    const payloads = postToolUsePayloads(load(s.main!), { transcriptPath: s.main });
    assert.ok(payloads.length > 100);
    for (const p of payloads) {
      const like = real.find((r) => r.hook_event_name === p.hook_event_name)!;
      // Every field we emit exists in the real payload (agent_id: PreToolUse of a subagent).
      for (const k of Object.keys(p)) assert.ok(k in like || k === "agent_id", `${k} not in a real ${p.hook_event_name}`);
      assert.match(p.tool_use_id, /^toolu_/);
      if (p.hook_event_name === "PostToolUse") assert.notEqual(p.tool_response, undefined);
      else assert.equal(typeof p.error, "string");
    }
    const bash = payloads.find((p) => p.tool_name === "Bash" && p.hook_event_name === "PostToolUse")!;
    assert.ok(typeof bash.tool_response === "object" && bash.tool_response !== null && "stdout" in bash.tool_response);
    assert.ok(!payloads.some((p) => p.error?.startsWith("The user doesn't want to proceed")), "rejections fire no hook");
  });
});
