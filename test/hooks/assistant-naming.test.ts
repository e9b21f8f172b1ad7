/**
 * One memory across assistants, through `node bin/mem.cjs hook … --assistant …` with each
 * assistant's documented payloads: the briefing names the assistant a decision, a task or the last
 * session came from ("in a Codex session"), Claude Code's stay unnamed; `mem get` / `mem list
 * --json` carry `assistant`; and the task tools of the other assistants (Gemini CLI's write_todos,
 * Codex's update_plan) open and close tasks in the one task registry as Claude Code's TodoWrite does.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { runChild, type ChildResult } from "../helpers/run-child.js";
import { BIN } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-assistant-naming-"));
const home = join(tmp, "home");
const proj = join(tmp, "shop");
const env = { PATH: process.env.PATH, HOME: tmp, MEM_HOME: home, MEM_NO_DAEMON: "1", MEM_WATCH: "0", MEM_EMBED_ORDER: "none" };
const T = "2026-11-29T02:00:00.000Z";

before(() => {
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(home, { recursive: true });
});
after(() => rmSync(tmp, { recursive: true, force: true }));

function hook(args: string[], payload: unknown): Promise<ChildResult> {
  return runChild(process.execPath, [BIN, "hook", ...args], { env, cwd: proj, timeout: 30_000, input: JSON.stringify(payload) });
}
async function mem(args: string[]): Promise<string> {
  const r = await runChild(process.execPath, [BIN, ...args], { env, cwd: proj, timeout: 30_000 });
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}
async function ok(r: Promise<ChildResult>): Promise<ChildResult> {
  const x = await r;
  assert.deepEqual({ code: x.code, stderr: x.stderr }, { code: 0, stderr: "" });
  return x;
}
/** The briefing a session start gets: Claude Code's (no --assistant) or another assistant's. */
async function briefing(assistant?: string): Promise<string> {
  const payload = { session_id: `brief-${assistant ?? "claude"}-${Math.random()}`, transcript_path: "/nonexistent", cwd: proj, hook_event_name: "SessionStart", source: "startup" };
  const r = await ok(hook(assistant ? ["SessionStart", "--assistant", assistant] : ["session-start"], payload));
  return (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
}
const openTasks = async () => (JSON.parse(await mem(["task", "list", "--json"])) as { tasks: { content: string; status: string }[] }).tasks.map((t) => `${t.status} ${t.content}`).sort();
const todos = (items: [string, string][]) => ({ todos: items.map(([description, status]) => ({ description, status })) });

test("a decision from a Codex turn is briefed as made in a Codex session, Claude Code's unnamed; mem get and mem list --json carry the assistant", async () => {
  await ok(hook(["Stop", "--assistant", "codex"], { session_id: "cdx-1", turn_id: "t1", transcript_path: null, cwd: proj, hook_event_name: "Stop", model: "gpt-5.5", permission_mode: "default", stop_hook_active: false, last_assistant_message: "[MEMORY: decision] Prices are cached for five minutes in Redis." }));
  await ok(hook(["stop"], { session_id: "cc-1", transcript_path: "/nonexistent", cwd: proj, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "[MEMORY: decision] Orders are kept for seven years." }));

  const b = await briefing();
  assert.match(b, /- Prices are cached for five minutes in Redis\. \((just now|\d+ min ago), in a Codex session\)/);
  assert.match(b, /- Orders are kept for seven years\. \((just now|\d+ min ago)\)/, "Claude Code's decision carries no assistant");

  const listed = JSON.parse(await mem(["list", "--kind", "decision", "--json"])) as { memories: { id: string; text: string; assistant?: string }[] };
  const byText = new Map(listed.memories.map((m) => [m.text, m]));
  assert.equal(byText.get("Prices are cached for five minutes in Redis.")?.assistant, "codex");
  assert.equal(Object.hasOwn(byText.get("Orders are kept for seven years.")!, "assistant"), false);
  const got = JSON.parse(await mem(["get", byText.get("Prices are cached for five minutes in Redis.")!.id, "--json"])) as { memory: { assistant?: string } };
  assert.equal(got.memory.assistant, "codex");
  assert.match(await mem(["get", byText.get("Prices are cached for five minutes in Redis.")!.id]), /session cdx-1 \(Codex\)/);
});

test("Gemini CLI's write_todos opens tasks that the next Codex and Claude Code briefings list as opened in a Gemini CLI session", async () => {
  const payload = (items: [string, string][], at: string) => ({ session_id: "gem-1", transcript_path: "/x", cwd: proj, hook_event_name: "AfterTool", timestamp: at, tool_name: "write_todos", tool_input: todos(items), tool_response: { llmContent: "Successfully updated the todo list.", returnDisplay: "" } });
  await ok(hook(["AfterTool", "--assistant", "gemini"], payload([["Ship the tasks table", "in_progress"], ["Drop the price cache", "pending"]], T)));
  assert.deepEqual(await openTasks(), ["in_progress Ship the tasks table", "pending Drop the price cache"]);
  for (const who of ["codex", undefined]) {
    const b = await briefing(who);
    assert.match(b, /## Open tasks\n- \[in_progress\] Ship the tasks table \((just now|\d+ min ago), opened in a Gemini CLI session\)/, `${who ?? "Claude Code"}'s briefing`);
  }
  // The session's own list: a cancelled item is closed (Gemini's `cancelled`), the rest kept.
  await ok(hook(["AfterTool", "--assistant", "gemini"], payload([["Ship the tasks table", "in_progress"], ["Drop the price cache", "cancelled"]], "2026-11-29T02:00:05.000Z")));
  assert.deepEqual(await openTasks(), ["in_progress Ship the tasks table"]);
});

test("Codex's update_plan completes the task Gemini opened (the same task registry), and Claude Code's TodoWrite opens one Codex sees unnamed", async () => {
  assert.deepEqual(await openTasks(), ["in_progress Ship the tasks table"], "Gemini's task, open");
  await ok(hook(["PostToolUse", "--assistant", "codex"], { session_id: "cdx-2", turn_id: "t1", transcript_path: null, cwd: proj, hook_event_name: "PostToolUse", model: "gpt-5.5", permission_mode: "default", tool_name: "update_plan", tool_input: { explanation: "done", plan: [{ step: "Ship the tasks table", status: "completed" }] }, tool_response: "Plan updated", tool_use_id: "call_plan_1" }));
  assert.deepEqual(await openTasks(), []);

  await ok(hook(["post-tool-use"], { session_id: "cc-2", transcript_path: "/nonexistent", cwd: proj, hook_event_name: "PostToolUse", tool_name: "TodoWrite", tool_input: { todos: [{ content: "Write the release notes", status: "pending", activeForm: "Writing the release notes" }] }, tool_response: { oldTodos: [], newTodos: [] }, tool_use_id: "toolu_todo_1" }));
  const b = await briefing("codex");
  assert.match(b, /## Open tasks\n- \[pending\] Write the release notes \((just now|\d+ min ago)\)\n/, "a Claude Code task is not labelled");
  assert.doesNotMatch(b, /Ship the tasks table/, "the task Codex completed is closed for every assistant");
});

test("the last session's line names its assistant", async () => {
  await ok(hook(["SessionEnd", "--assistant", "gemini"], { session_id: "gem-9", transcript_path: "/x", cwd: proj, hook_event_name: "SessionEnd", timestamp: T, reason: "exit" }));
  await ok(hook(["AfterTool", "--assistant", "gemini"], { session_id: "gem-9", transcript_path: "/x", cwd: proj, hook_event_name: "AfterTool", timestamp: T, tool_name: "run_shell_command", tool_input: { command: "npm test" }, tool_response: { llmContent: "ok" } }));
  await ok(hook(["SessionEnd", "--assistant", "gemini"], { session_id: "gem-9", transcript_path: "/x", cwd: proj, hook_event_name: "SessionEnd", timestamp: T, reason: "exit" }));
  assert.match(await briefing(), /## Last session \((last active (just now|\d+ min ago), )?in a Gemini CLI session\)/);
});
