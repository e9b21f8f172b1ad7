/**
 * The "done when": installed into a real settings file, the hooks do what they promise.
 * `mem install` writes the settings; then each registered handler is run exactly as Claude Code
 * would run it (its `command` with its `args`, the payload on stdin, within its `timeout`) through
 * a short session: start, a prompt, tool calls, a stop with a [MEMORY:] tag, a compaction, a
 * restart, the end. The warm daemon is allowed, as in real use. Run twice: in a plain environment,
 * and in one that sets NODE_EXTRA_CA_CERTS, where the hooks go through bin/mem-hook.sh.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { openDb } from "../../src/store/db.js";
import { endProcessesUnder } from "../helpers/daemon.js";
import { runChild } from "../helpers/run-child.js";

const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-e2e-")));
const homes: string[] = [];
after(async () => {
  for (const h of homes) await ask(h, { op: "stop" }, 2_000);
  await endProcessesUnder(tmp); // a daemon a hook started (no child of ours) may still be running, writing to its data home
  rmSync(tmp, { recursive: true, force: true });
});

interface Handler {
  type: string;
  command: string;
  args: string[];
  timeout: number;
  async?: boolean;
}

/** One user's machine: a HOME with Claude Code settings, a data home, a git repo, a transcript. */
class Box {
  readonly home: string;
  readonly memHome: string;
  readonly repo: string;
  readonly transcript: string;
  readonly env: NodeJS.ProcessEnv;

  constructor(name: string, extraEnv: NodeJS.ProcessEnv = {}) {
    const dir = join(tmp, name);
    this.home = join(dir, "home");
    this.memHome = join(dir, "mem-home");
    this.repo = join(dir, "repo");
    this.transcript = join(dir, "transcript.jsonl");
    this.env = { PATH: process.env.PATH, HOME: this.home, MEM_HOME: this.memHome, MEM_EMBED_ORDER: "none", ...extraEnv };
    homes.push(this.memHome);
  }

  async run(command: string, args: string[], input: string, timeoutS: number): Promise<{ code: number | null; stdout: string; ms: number }> {
    const r = await runChild(command, args, { cwd: this.repo, env: this.env, timeout: timeoutS * 1000, killSignal: "SIGKILL", input });
    if (r.signal) throw new Error(`${args.join(" ")}: killed (${r.signal}) past its ${timeoutS} s timeout`);
    return r;
  }

  /** What the one handler of ours for `event` prints, run as Claude Code runs it. */
  async fire(settings: Record<string, { hooks: Handler[] }[]>, event: string, payload: Record<string, unknown>): Promise<string | undefined> {
    const handlers = (settings[event] ?? []).flatMap((g) => g.hooks).filter((h) => h.args?.includes("hook"));
    assert.equal(handlers.length, 1, `one handler of ours for ${event}`);
    const h = handlers[0]!;
    assert.equal(h.type, "command");
    const r = await this.run(h.command, h.args, JSON.stringify({ session_id: "e2e-session", transcript_path: this.transcript, cwd: this.repo, hook_event_name: event, ...payload }), h.timeout);
    assert.equal(r.code, 0, `${event} exits 0`);
    if (r.stdout === "") return undefined;
    const o = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    assert.deepEqual(Object.keys(o), ["hookSpecificOutput"], `${event}: context only in hookSpecificOutput`);
    assert.equal(o.hookSpecificOutput.hookEventName, event);
    return o.hookSpecificOutput.additionalContext;
  }

  line(o: Record<string, unknown>): string {
    return `${JSON.stringify({ sessionId: "e2e-session", timestamp: "2026-11-20T10:00:00.000Z", cwd: this.repo, ...o })}\n`;
  }
}

/** The whole session against `box`; returns the installed settings' hooks. */
async function session(box: Box): Promise<Record<string, { matcher?: string; hooks: Handler[] }[]>> {
  const { home, memHome, repo, transcript, env } = box;
  const fire = box.fire.bind(box);
  const line = box.line.bind(box);
  mkdirSync(join(home, ".claude"), { recursive: true });
  mkdirSync(join(repo, "memory"), { recursive: true });
  try {
    execFileSync("git", ["init", "-q", repo], { stdio: "ignore" });
  } catch {
    mkdirSync(join(repo, ".git"), { recursive: true });
  }
  const other = { type: "command", command: "npx prettier --write ." };
  writeFileSync(join(home, ".claude", "settings.json"), JSON.stringify({ model: "opus", hooks: { PostToolUse: [{ matcher: "Edit|Write", hooks: [other] }] } }, null, 2));
  writeFileSync(join(repo, "memory", "storage.md"), "# Storage\n\n## Why SQLite\n\nWe chose SQLite over Postgres for the metadata store because it needs no server and FTS5 gives BM25.\n");
  writeFileSync(join(repo, "memory", "state.md"), "# State\n\nRelease 0.3 is in progress: the tasks table lands first.\n");
  execFileSync(process.execPath, [BIN, "index", join(repo, "memory"), "-q"], { cwd: repo, env });
  execFileSync(process.execPath, [BIN, "install", "--scope", "user"], { cwd: repo, env });

  const settings = JSON.parse(readFileSync(join(home, ".claude", "settings.json"), "utf8")) as { model: string; hooks: Record<string, { matcher?: string; hooks: Handler[] }[]> };
  assert.equal(settings.model, "opus", "other settings kept");
  assert.deepEqual(settings.hooks.PostToolUse!.find((g) => g.matcher === "Edit|Write")?.hooks, [other], "other hooks kept");
  for (const h of Object.values(settings.hooks).flatMap((gs) => gs.flatMap((g) => g.hooks)).filter((x) => x.args?.includes("hook"))) {
    assert.ok(h.command.startsWith("/") && h.args[0]!.startsWith("/"), "exec form with absolute paths");
  }
  const s = settings.hooks;
  writeFileSync(transcript, line({ type: "user", message: { role: "user", content: "set up the store" } }));

  const briefing = await fire(s, "SessionStart", { source: "startup" });
  assert.match(briefing ?? "", /may be outdated/i, "the briefing starts with the caveat");
  assert.match(briefing ?? "", /Release 0\.3 is in progress/, "and holds the hot-tier state file");

  const context = await fire(s, "UserPromptSubmit", { prompt: "why did we choose SQLite over Postgres for metadata?" });
  assert.match(context ?? "", /We chose SQLite over Postgres/, "the prompt gets the memory that matters");
  assert.match(context ?? "", /storage\.md:\d+/, "with provenance");
  assert.equal(await fire(s, "UserPromptSubmit", { prompt: "thanks" }), undefined, "an acknowledgement gets nothing");

  const todo = { todos: [{ content: "Add the migration for the tasks table", status: "in_progress", activeForm: "Adding the migration" }, { content: "Write the release notes", status: "pending", activeForm: "Writing" }] };
  assert.equal(await fire(s, "PostToolUse", { tool_name: "TodoWrite", tool_use_id: "toolu_e2e_1", tool_input: todo, tool_response: { oldTodos: [], newTodos: todo.todos } }), undefined);
  assert.equal(await fire(s, "PostToolUseFailure", { tool_name: "Bash", tool_use_id: "toolu_e2e_2", tool_input: { command: "npm test" }, error: "Exit code 1: 3 tests failed" }), undefined);

  const assistant = "I chose better-sqlite3 over node-sqlite3 because it is synchronous and faster. [MEMORY: decision] Keep the task list in SQLite, not in markdown.";
  writeFileSync(transcript, line({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: assistant }] } }), { flag: "a" });
  assert.equal(await fire(s, "Stop", { stop_hook_active: false, last_assistant_message: assistant }), undefined, "Stop never returns context");
  assert.equal(await fire(s, "SubagentStop", { stop_hook_active: false, agent_id: "a1", agent_transcript_path: transcript, last_assistant_message: "done" }), undefined);
  assert.equal(await fire(s, "PreCompact", { trigger: "auto", custom_instructions: "" }), undefined);
  assert.equal(await fire(s, "PreToolUse", { tool_name: "Bash", tool_use_id: "toolu_e2e_3", tool_input: { command: "npm test" } }), undefined, "an ordinary call gets no warning");
  assert.equal(await fire(s, "Notification", { message: "Claude is waiting for your input", notification_type: "idle_prompt" }), undefined);

  const restored = await fire(s, "SessionStart", { source: "compact" });
  assert.match(restored ?? "", /Add the migration for the tasks table/, "open tasks come back after a compaction");
  assert.match(restored ?? "", /Keep the task list in SQLite/, "and the decisions");
  const end = Date.now();
  assert.equal(await fire(s, "SessionEnd", { reason: "prompt_input_exit" }), undefined);
  assert.ok(Date.now() - end < 10_000, "SessionEnd does no long work (a hang guard: bench:hook times it against its 1.5 s budget)");

  const db = openDb(join(memHome, "mem.sqlite"), { readonly: true });
  const types = db.prepare("SELECT type FROM events WHERE session = 'e2e-session' ORDER BY type").pluck().all() as string[];
  db.close();
  assert.ok(types.includes("error"), `the failed tool call is an error event (${types.join(", ")})`);
  assert.ok(types.some((t) => t.startsWith("task")), "the TodoWrite items are tasks");
  assert.ok(types.includes("decision"), "the tag and the keyword decision are stored");

  execFileSync(process.execPath, [BIN, "uninstall", "--scope", "user"], { cwd: repo, env });
  const left = JSON.parse(readFileSync(join(home, ".claude", "settings.json"), "utf8")) as { model: string; hooks: unknown };
  assert.deepEqual(left, { model: "opus", hooks: { PostToolUse: [{ matcher: "Edit|Write", hooks: [other] }] } }, "uninstall leaves exactly what was there");
  return settings.hooks;
}

test("installed into a settings file that has other hooks, every hook works as Claude Code runs it", { timeout: 120_000 }, async () => {
  const hooks = await session(new Box("plain"));
  // The hot hooks through bin/mem-hook.sh (its curl client, then node), the others straight to node.
  const hot = new Set(["user-prompt-submit", "pre-tool-use", "post-tool-use", "post-tool-use-failure", "stop", "subagent-stop", "notification"]);
  for (const h of Object.values(hooks).flatMap((gs) => gs.flatMap((g) => g.hooks)).filter((x) => x.args?.includes("hook"))) {
    const name = h.args[h.args.length - 1]!;
    if (hot.has(name)) assert.ok(h.command === "/bin/sh" && h.args[0]!.endsWith("mem-hook.sh") && h.args[2]!.endsWith("mem.cjs"), `${name}: ${h.command} ${h.args.join(" ")}`);
    else assert.ok(h.args[0]!.endsWith("mem.cjs"), `${name}: node runs bin/mem.cjs directly`);
  }
});

test("installed where NODE_EXTRA_CA_CERTS is set: the hooks run through bin/mem-hook.sh without it, and the daemon they start gets it back", { timeout: 120_000, skip: process.platform === "win32" }, async () => {
  const certs = join(tmp, "extra-ca.pem");
  writeFileSync(certs, ""); // Node only warns about a bundle it cannot use
  const box = new Box("extra-ca", { NODE_EXTRA_CA_CERTS: certs });
  const hooks = await session(box);
  for (const h of Object.values(hooks).flatMap((gs) => gs.flatMap((g) => g.hooks)).filter((x) => x.args?.includes("hook"))) {
    assert.equal(h.command, "/bin/sh");
    assert.ok(h.args[0]!.endsWith("mem-hook.sh") && h.args[2]!.endsWith("mem.cjs"), `wrapper, node, bin/mem.cjs: ${h.args.join(" ")}`);
  }
  const status = await ask(box.memHome, { op: "status" }, 30_000);
  assert.equal(status.kind, "reply", "the prompt hook started a daemon");
  const pid = status.kind === "reply" && status.reply.ok ? Number(status.reply.pid) : 0;
  if (existsSync(`/proc/${pid}/environ`)) {
    const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    assert.ok(environ.includes(`NODE_EXTRA_CA_CERTS=${certs}`), "the daemon has the certificates back");
  }
});
