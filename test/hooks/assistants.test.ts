/**
 * `mem hook <event> --assistant codex|gemini|copilot` as those assistants run it: a new process
 * (node bin/mem.cjs), their documented payloads on stdin (see test/contract/assistants.test.ts for
 * the sources), a temp data home. What each prints, and what lands in the store with the
 * assistant recorded.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { openDb } from "../../src/store/db.js";
import { installToFile } from "../../src/install/files.js";
import { startDaemon } from "../helpers/daemon.js";
import { cleanEnv } from "../helpers/mem-cli.js";
import { runChild, type ChildResult } from "../helpers/run-child.js";
import { rand } from "../helpers/secrets.js";
import { BIN } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-assistants-"));
const children: ChildProcess[] = [];
const home = join(tmp, "home");
const proj = join(tmp, "shop");
const PROMPT = "why did we choose SQLite over Postgres";
const env = { PATH: process.env.PATH, HOME: tmp, MEM_HOME: home, MEM_NO_DAEMON: "1", MEM_WATCH: "0", MEM_EMBED_ORDER: "none" };

before(async () => {
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(proj, "decisions.md"), "# Storage\n\nWe chose SQLite over Postgres because it needs no server and FTS5 gives BM25.\n");
  const r = await runChild(process.execPath, [BIN, "index", proj, "-q"], { env });
  assert.equal(r.code, 0, r.stderr);
});
after(async () => {
  await ask(join(tmp, "dh", "home"), { op: "stop" }, 2_000);
  // A daemon still running keeps this file's process alive: killed outright, as the other daemon tests do.
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

function run(args: string[], payload: unknown, e: NodeJS.ProcessEnv = env): Promise<ChildResult> {
  return runChild(process.execPath, [BIN, "hook", ...args], { env: e, timeout: 30_000, input: JSON.stringify(payload) });
}

interface Row {
  id: string;
  type: string;
  text: string;
  metadata: string;
  session: string;
}
function events(where: string, dataHome = home): Row[] {
  const db = openDb(join(dataHome, "mem.sqlite"));
  try {
    return db.prepare(`SELECT id, type, text, metadata, session FROM events WHERE ${where} ORDER BY id`).all() as Row[];
  } finally {
    db.close();
  }
}
const assistantOf = (r: Row) => (JSON.parse(r.metadata) as { assistant?: string }).assistant;

/** The additionalContext of one hookSpecificOutput object, checked for the event name the assistant expects. */
function context(stdout: string, eventName: string): string {
  const o = JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  assert.deepEqual(Object.keys(o), ["hookSpecificOutput"]);
  assert.equal(o.hookSpecificOutput.hookEventName, eventName);
  return o.hookSpecificOutput.additionalContext;
}

describe("mem hook --assistant, through the real CLI", () => {
  test("a prompt gets the same framed memory in Codex's and Gemini's format as in Claude Code's", async () => {
    const claude = await run(["user-prompt-submit"], { session_id: "cc-1", cwd: proj, hook_event_name: "UserPromptSubmit", prompt: PROMPT });
    const codex = await run(["UserPromptSubmit", "--assistant", "codex"], { session_id: "cdx-1", turn_id: "t1", transcript_path: null, cwd: proj, hook_event_name: "UserPromptSubmit", model: "gpt-5.5", permission_mode: "default", prompt: PROMPT });
    const gemini = await run(["BeforeAgent", "--assistant", "gemini"], { session_id: "gem-1", transcript_path: "/nonexistent/chat.json", cwd: proj, hook_event_name: "BeforeAgent", timestamp: "2026-11-29T02:00:00.000Z", prompt: PROMPT });
    for (const r of [claude, codex, gemini]) assert.deepEqual({ code: r.code, stderr: r.stderr }, { code: 0, stderr: "" });
    const want = context(claude.stdout, "UserPromptSubmit");
    assert.match(want, /<mem-recall>[\s\S]*We chose SQLite over Postgres[\s\S]*<\/mem-recall>/, "framed as quoted data");
    assert.equal(context(codex.stdout, "UserPromptSubmit"), want);
    assert.equal(context(gemini.stdout, "BeforeAgent"), want);
  });

  test("Copilot: the prompt's memories and the briefing as a top-level additionalContext (what Copilot CLI 1.0.102 reads), under either event casing", async () => {
    const remembered = await runChild(process.execPath, [BIN, "remember", "Deploys freeze in December.", "--kind", "decision"], { env, cwd: proj });
    assert.equal(remembered.code, 0, remembered.stderr);
    const prompt = await run(["userPromptSubmitted", "--assistant", "copilot"], { sessionId: "cop-1", timestamp: 1704614500000, cwd: proj, prompt: PROMPT });
    const pascal = await run(["UserPromptSubmit", "--assistant", "copilot"], { hook_event_name: "UserPromptSubmit", session_id: "cop-3", timestamp: "2026-11-29T05:13:20.973Z", cwd: proj, prompt: PROMPT });
    const start = await run(["sessionStart", "--assistant", "copilot"], { sessionId: "cop-1", timestamp: 1704614400000, cwd: proj, source: "new", initialPrompt: PROMPT });
    for (const r of [prompt, pascal, start]) {
      assert.deepEqual({ code: r.code, stderr: r.stderr }, { code: 0, stderr: "" });
      assert.deepEqual(Object.keys(JSON.parse(r.stdout) as object), ["additionalContext"]);
    }
    const said = (r: ChildResult) => (JSON.parse(r.stdout) as { additionalContext: string }).additionalContext;
    assert.match(said(prompt), /<mem-recall>[\s\S]*We chose SQLite over Postgres[\s\S]*<\/mem-recall>/);
    assert.equal(said(pascal), said(prompt));
    assert.match(said(start), /<mem-briefing>[\s\S]*Deploys freeze in December[\s\S]*<\/mem-briefing>/);
  });

  test("tool calls and a turn's end are captured with the assistant recorded; capture hooks print nothing", async () => {
    const token = `ghp_${rand(36)}`;
    const steps: [string[], unknown][] = [
      [["PostToolUse", "--assistant", "codex"], { session_id: "cdx-2", turn_id: "t1", transcript_path: null, cwd: proj, hook_event_name: "PostToolUse", model: "gpt-5.5", permission_mode: "default", tool_name: "Bash", tool_input: { command: "npm test" }, tool_response: "15 passing", tool_use_id: "call_cdx_1" }],
      [["Stop", "--assistant", "codex"], { session_id: "cdx-2", turn_id: "t1", transcript_path: null, cwd: proj, hook_event_name: "Stop", model: "gpt-5.5", permission_mode: "default", stop_hook_active: false, last_assistant_message: "[MEMORY: decision] Prices are cached for five minutes in Redis." }],
      [["AfterTool", "--assistant", "gemini"], { session_id: "gem-2", transcript_path: "/x", cwd: proj, hook_event_name: "AfterTool", timestamp: "2026-11-29T02:01:00.000Z", tool_name: "replace", tool_input: { file_path: join(proj, "src/cart.ts"), old_string: "a", new_string: "b" }, tool_response: { llmContent: "Successfully modified file", returnDisplay: "ok" } }],
      [["AfterTool", "--assistant", "gemini"], { session_id: "gem-2", transcript_path: "/x", cwd: proj, hook_event_name: "AfterTool", timestamp: "2026-11-29T02:02:00.000Z", tool_name: "run_shell_command", tool_input: { command: `curl -H "Authorization: token ${token}" https://api.github.com/user` }, tool_response: { llmContent: "{}", error: "exit 22" } }],
      [["postToolUse", "--assistant", "copilot"], { sessionId: "cop-2", timestamp: 1704614700000, cwd: proj, toolName: "bash", toolArgs: '{"command":"npm run lint"}', toolResult: { resultType: "success", textResultForLlm: "no problems" } }],
      [["sessionEnd", "--assistant", "copilot"], { sessionId: "cop-2", timestamp: 1704618000000, cwd: proj, reason: "complete" }],
    ];
    for (const [args, payload] of steps) {
      const r = await run(args, payload);
      assert.deepEqual({ code: r.code, stdout: r.stdout, stderr: r.stderr }, { code: 0, stdout: "", stderr: "" }, args.join(" "));
    }
    const codex = events("session = 'cdx-2'");
    assert.deepEqual(codex.map((e) => [e.type, assistantOf(e)]).sort(), [["command_run", "codex"], ["decision", "codex"]]);
    assert.match(codex.find((e) => e.type === "decision")!.text, /Prices are cached for five minutes/);
    const gemini = events("session = 'gem-2'");
    assert.deepEqual(gemini.map((e) => [e.type, assistantOf(e)]).sort(), [["command_run", "gemini"], ["error", "gemini"], ["file_modified", "gemini"]]);
    assert.ok(gemini.every((e) => !e.text.includes(token) && !e.metadata.includes(token)), "the token in a Gemini command is redacted");
    const copilot = events("session = 'cop-2'");
    assert.deepEqual(copilot.map((e) => [e.type, e.text, assistantOf(e)]), [["command_run", "$ npm run lint", "copilot"]]);
    // The same Gemini call delivered twice (a retry) is stored once.
    await run(steps[2]![0], steps[2]![1]);
    assert.equal(events("session = 'gem-2'").length, gemini.length);
  });

  test("a decision captured in a Codex session is in the next Gemini (and Codex) session's briefing, as SessionStart context", async () => {
    const codex = await run(["SessionStart", "--assistant", "codex"], { session_id: "cdx-s", transcript_path: null, cwd: proj, hook_event_name: "SessionStart", model: "gpt-5.5", permission_mode: "default", source: "startup" });
    const gemini = await run(["SessionStart", "--assistant", "gemini"], { session_id: "gem-s", transcript_path: "/x", cwd: proj, hook_event_name: "SessionStart", timestamp: "2026-11-29T02:00:00.000Z", source: "startup" });
    for (const r of [codex, gemini]) {
      assert.deepEqual({ code: r.code, stderr: r.stderr }, { code: 0, stderr: "" });
      const briefing = context(r.stdout, "SessionStart");
      assert.match(briefing, /Prices are cached for five minutes in Redis/);
      assert.match(briefing, /<mem-briefing>[\s\S]*<\/mem-briefing>/, "framed as quoted data");
    }
  });

  test("Claude Code's own capture is unchanged: no assistant recorded, and a forged one is dropped", async () => {
    const r = await run(["post-tool-use"], { session_id: "cc-2", cwd: proj, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_response: { stdout: "a" }, tool_use_id: "toolu_cc_1", mem_assistant: "codex" });
    assert.deepEqual({ code: r.code, stdout: r.stdout }, { code: 0, stdout: "" });
    assert.deepEqual(events("session = 'cc-2'").map((e) => [e.id, assistantOf(e)]), [["toolu_cc_1", undefined]]);
  });

  test("an unknown assistant, an event mem does not handle, bad stdin: exit 0, nothing printed, nothing stored", async () => {
    const before = events("1").length;
    const cases: [string[], unknown][] = [
      [["UserPromptSubmit", "--assistant", "cursor"], { session_id: "x", cwd: proj, prompt: PROMPT }],
      [["PermissionRequest", "--assistant", "codex"], { session_id: "x", cwd: proj, tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "c" }],
      [["BeforeModel", "--assistant", "gemini"], { session_id: "x", cwd: proj, llm_request: {} }],
      [["AfterTool", "--assistant", "gemini"], ["not", "an", "object"]],
    ];
    for (const [args, payload] of cases) {
      const r = await run(args, payload);
      assert.deepEqual({ code: r.code, stdout: r.stdout, stderr: r.stderr }, { code: 0, stdout: "", stderr: "" }, args.join(" "));
    }
    assert.equal(events("1").length, before);
  });

  test("with a daemon running, a Codex tool call it captures still records the assistant", async () => {
    const dh = join(tmp, "dh", "home");
    mkdirSync(dh, { recursive: true });
    writeFileSync(join(dh, "config.json"), JSON.stringify({ embedding: { order: [] } }));
    const denv = { ...env, MEM_HOME: dh, MEM_NO_DAEMON: "0" };
    await startDaemon({ home: dh, proj, env: denv }, children);
    const r = await run(["PostToolUse", "--assistant", "codex"], { session_id: "cdx-d", turn_id: "t", transcript_path: null, cwd: proj, hook_event_name: "PostToolUse", model: "m", permission_mode: "default", tool_name: "Bash", tool_input: { command: "make" }, tool_response: "ok", tool_use_id: "call_daemon_1" }, denv);
    assert.deepEqual({ code: r.code, stdout: r.stdout }, { code: 0, stdout: "" });
    assert.deepEqual(events("session = 'cdx-d'", dh).map((e) => [e.id, assistantOf(e)]), [["call_daemon_1", "codex"]]);
  });
});

test("a Codex or Gemini session start does not use up Claude Code's once-a-day notice about an older install", async () => {
  const dir = join(tmp, "nudge");
  const userHome = join(dir, "home");
  const memHome = join(dir, "mem-home");
  mkdirSync(userHome, { recursive: true });
  const nenv: NodeJS.ProcessEnv = { ...cleanEnv(join(userHome, ".claude")), HOME: userHome, MEM_HOME: memHome, MEM_NO_DAEMON: "1", MEM_WATCH: "0" };
  // What an older mem wrote (every hook runs Node directly): Claude Code's SessionStart tells the user once a day.
  installToFile({ scope: "user", where: { env: nenv, cwd: proj }, target: { node: process.execPath, bin: BIN } });
  const payload = { session_id: "n1", cwd: proj, hook_event_name: "SessionStart", source: "startup", transcript_path: null };
  for (const a of ["codex", "gemini"]) {
    const r = await run(["SessionStart", "--assistant", a], payload, nenv);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /systemMessage|mem install/, `${a}: the notice is about Claude Code's settings`);
  }
  const claude = await run(["session-start"], { ...payload, transcript_path: "/nonexistent" }, nenv);
  assert.match((JSON.parse(claude.stdout) as { systemMessage?: string }).systemMessage ?? "", /mem install --scope user/);
});
