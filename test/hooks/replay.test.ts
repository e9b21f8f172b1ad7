import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { postToolUsePayloads } from "../../src/capture/extract/payloads.js";
import { finalTasks } from "../../src/capture/extract/tasks.js";
import { isCompactBoundary } from "../../src/capture/extract/messages.js";
import { openDb } from "../../src/store/db.js";
import { load, SKIP, spotterSessions, taskSessions } from "../capture/shared-data.js";
import { hook, rawToolUseIds, spawnHook } from "./helpers.js";

/**
 * Real transcripts replayed through the hooks as Claude Code would fire them: PostToolUse for
 * every tool call that got a result, then Stop with the transcript, then SessionStart.
 */
const tmp = mkdtempSync(join(tmpdir(), "mem-replay-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
const open = (t: { status: string }) => t.status === "pending" || t.status === "in_progress";

async function replay(home: string, path: string, session: string, subagents: string[] = []): Promise<void> {
  const env = { MEM_HOME: home, MEM_EMBED_ORDER: "none", HOME: tmp };
  for (const p of postToolUsePayloads(load(path), { session, transcriptPath: path })) {
    const r = await hook(p.hook_event_name === "PostToolUse" ? "post-tool-use" : "post-tool-use-failure", { ...p, cwd: tmp }, env);
    assert.deepEqual(r, { code: 0, stdout: "" });
  }
  for (const [i, sub] of subagents.entries()) {
    const r = await hook("subagent-stop", { session_id: session, cwd: tmp, hook_event_name: "SubagentStop", stop_hook_active: false, agent_id: `a${i}`, agent_transcript_path: sub, transcript_path: path }, env);
    assert.deepEqual(r, { code: 0, stdout: "" });
  }
  const r = await hook("stop", { session_id: session, transcript_path: path, cwd: tmp, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "" }, env);
  assert.deepEqual(r, { code: 0, stdout: "" });
}

function counts(home: string): { tools: number; all: number } {
  const db = openDb(join(home, "mem.sqlite"));
  const tools = db.prepare("SELECT count(*) FROM events WHERE id NOT LIKE '%#%' AND type IN ('file_modified','file_explored','command_run','tool')").pluck().get() as number;
  const all = db.prepare("SELECT count(*) FROM events").pluck().get() as number;
  db.close();
  return { tools, all };
}

async function briefing(home: string, session: string, source: string, path: string): Promise<string> {
  const r = await hook("session-start", { session_id: session, transcript_path: path, cwd: tmp, hook_event_name: "SessionStart", source }, { MEM_HOME: home, MEM_EMBED_ORDER: "none", HOME: tmp });
  assert.equal(r.code, 0);
  if (r.stdout === "") return "";
  return (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
}

const mentions = (text: string, content: string) => text.includes(content.replace(/\s+/g, " ").trim().slice(0, 60));

describe("replaying real sessions with task lists through the hooks", { skip: SKIP }, () => {
  for (const s of taskSessions()) {
    test(`${s.name}: one event per tool_use, every open task in the next briefing, a second replay adds nothing`, async () => {
      const home = join(tmp, s.name.replace(/\W/g, "_"));
      const lines = load(s.path);
      const session = `replay-${s.name}`;
      await replay(home, s.path, session);
      const first = counts(home);
      assert.equal(first.tools, rawToolUseIds(lines).size, "captured tool events = tool_use blocks");

      const next = await briefing(home, "a-later-session", "startup", "/nonexistent");
      const openTasks = s.expected.todos.filter(open);
      for (const t of openTasks) assert.ok(mentions(next, t.content), `open task missing from the briefing: ${t.content}\n---\n${next}`);
      for (const t of s.expected.todos.filter((x) => x.status === "completed")) assert.ok(!next.includes(`[pending] ${t.content.slice(0, 60)}`));

      await replay(home, s.path, session);
      assert.deepEqual(counts(home), first, "a second replay stores nothing new");
    });
  }

  test("cut at a compaction, the session's open tasks as of that point come back on SessionStart(compact)", async () => {
    let checked = 0;
    for (const s of taskSessions()) {
      const lines = load(s.path);
      const cut = lines.findIndex(isCompactBoundary);
      if (cut < 0) continue;
      const before = lines.slice(0, cut);
      const expected = finalTasks(before).filter(open);
      if (expected.length === 0) continue;
      const path = join(tmp, `cut-${checked}.jsonl`);
      const raw = readFileSync(s.path, "utf8").split("\n");
      // the parsed lines map 1:1 to non-empty raw lines in these files
      writeFileSync(path, `${raw.filter((l) => l.trim()).slice(0, cut).join("\n")}\n`);
      const home = join(tmp, `cut-home-${checked}`);
      const text = await briefing(home, "compacted", "compact", path); // PreCompact never fired: SessionStart catches up
      for (const t of expected) assert.ok(mentions(text, t.content), `${s.name}: ${t.content}`);
      checked++;
    }
    assert.ok(checked >= 2, `compactions with open tasks checked: ${checked}`);
  });
});

describe("replaying marot-spotter sessions (subagents, an auto-compaction)", { skip: SKIP }, () => {
  for (const s of spotterSessions().filter((x) => x.main)) {
    test(`${s.name}: no crash, every tool_use captured once across main and subagent files`, async () => {
      const home = join(tmp, `spotter-${s.name}`);
      await replay(home, s.main!, s.name, s.subagents);
      const ids = rawToolUseIds([...load(s.main!), ...s.subagents.flatMap((f) => load(f))]);
      assert.equal(counts(home).tools, ids.size);
    });
  }
});

describe("parallel capture", () => {
  test("16 PostToolUse hook processes at once (a fresh data home): no event lost, none twice", async () => {
    const home = join(tmp, "parallel");
    const env = { MEM_HOME: home, MEM_EMBED_ORDER: "none", HOME: tmp };
    const payload = (i: number) => JSON.stringify({ session_id: "par", cwd: tmp, hook_event_name: "PostToolUse", tool_name: i % 2 ? "TodoWrite" : "Bash", tool_use_id: `toolu_par_${i}`, tool_input: i % 2 ? { todos: [{ content: `task ${i}`, status: "pending", activeForm: `doing ${i}` }] } : { command: `echo ${i}` }, tool_response: { stdout: String(i), stderr: "" } });
    const rs = await Promise.all(Array.from({ length: 16 }, (_, i) => spawnHook("post-tool-use", payload(i), env)));
    for (const r of rs) assert.deepEqual({ code: r.code, stdout: r.stdout }, { code: 0, stdout: "" }, r.stderr);
    await Promise.all(Array.from({ length: 16 }, (_, i) => hook("post-tool-use", payload(i), env))); // the same payloads again
    const db = openDb(join(home, "mem.sqlite"));
    const ids = db.prepare("SELECT id FROM events WHERE id NOT LIKE '%#%' ORDER BY id").pluck().all() as string[];
    db.close();
    assert.deepEqual(ids, Array.from({ length: 16 }, (_, i) => `toolu_par_${i}`).sort());
  });
});
