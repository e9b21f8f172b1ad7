/**
 * A real Claude Code, with mem installed into its user settings, runs a scripted session against
 * a loopback server that speaks the Anthropic Messages API (test/helpers/fake-anthropic.ts): the
 * hooks' context must reach the model's request, and what the session did must be captured; a
 * `/compact` in print mode must keep the session's open task (PreCompact's snapshot, then the
 * SessionStart:compact briefing); an interactive session (in a pseudo-terminal made by `script`)
 * must get its prompt's memories and record its end when `/exit` fires SessionEnd; and the
 * plugin layout (.claude-plugin/, hooks/hooks.json) must work loaded with --plugin-dir.
 *
 * Needs a Claude Code binary: `MEM_CLAUDE_BIN=/path/to/claude`, or `claude` on PATH (for example
 * `npm install @anthropic-ai/claude-code` somewhere, then node_modules/.bin/claude). Skipped
 * without one, as in CI.
 */
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { openDb } from "../../src/store/db.js";
import { startFakeAnthropic, type Block } from "../helpers/fake-anthropic.js";
import { hasCommand } from "../helpers/has-command.js";
import { runChild } from "../helpers/run-child.js";

function findClaude(): string | undefined {
  if (process.env.MEM_CLAUDE_BIN) return existsSync(process.env.MEM_CLAUDE_BIN) ? process.env.MEM_CLAUDE_BIN : undefined;
  try {
    return execFileSync("which", ["claude"], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}
const CLAUDE = findClaude();
const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-live-")));
const home = join(tmp, "home");
const memHome = join(tmp, "mem-home");
const proj = join(tmp, "proj");
after(async () => {
  await ask(memHome, { op: "stop" }, 2_000);
  rmSync(tmp, { recursive: true, force: true });
});

const DECISION = "Keep hook output under 2,000 characters.";
const FINAL = `I chose better-sqlite3 over node-sqlite3 because it is synchronous and faster. [MEMORY: decision] ${DECISION}`;

/** Tool results the conversation already holds, by tool_use id. */
function toolResults(body: Record<string, unknown>): Set<string> {
  const ids = new Set<string>();
  for (const m of (body.messages ?? []) as { content?: unknown }[]) {
    if (!Array.isArray(m.content)) continue;
    for (const c of m.content as { type?: string; tool_use_id?: string }[]) if (c.type === "tool_result" && c.tool_use_id) ids.add(c.tool_use_id);
  }
  return ids;
}

/** Write a file, then run a failing command, then answer with a decision; any other request gets plain text. */
function script(body: Record<string, unknown>): Block[] {
  const tools = new Set(((body.tools ?? []) as { name?: string }[]).map((t) => t.name));
  const done = toolResults(body);
  const text = JSON.stringify(body.messages ?? []);
  if (text.includes("what did we decide")) return [{ type: "text", text: `We decided: ${DECISION}` }];
  if (tools.has("Write") && !done.has("toolu_live_write")) {
    return [{ type: "tool_use", id: "toolu_live_write", name: "Write", input: { file_path: join(proj, "notes", "plan.md"), content: "# Plan\n\nShip the tasks table first.\n" } }];
  }
  if (tools.has("Bash") && !done.has("toolu_live_bash")) {
    return [{ type: "tool_use", id: "toolu_live_bash", name: "Bash", input: { command: "ls /nonexistent-dir-for-mem-live-test", description: "list a missing directory" } }];
  }
  return [{ type: "text", text: FINAL }];
}

function claude(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runChild(CLAUDE!, args, { cwd: proj, env, timeout: 120_000, killSignal: "SIGKILL" });
}

const memEnv = { PATH: process.env.PATH, HOME: home, MEM_HOME: memHome, MEM_EMBED_ORDER: "none" };
// ENABLE_TOOL_SEARCH / CLAUDE_CODE_ENABLE_TODO_TOOLS: the task tools offered, and directly (2.1.3xx defers
// them behind ToolSearch, and keeps them from its newer default model).
const claudeEnv = (apiUrl: string) => ({
  ...memEnv,
  ANTHROPIC_BASE_URL: apiUrl,
  ANTHROPIC_API_KEY: "sk-ant-api03-test-key-for-a-loopback-server",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_TELEMETRY: "1",
  DISABLE_AUTOUPDATER: "1",
  ENABLE_TOOL_SEARCH: "false",
  CLAUDE_CODE_ENABLE_TODO_TOOLS: "true",
});
const SKIP = { skip: CLAUDE ? false : "no Claude Code binary (set MEM_CLAUDE_BIN)", timeout: 300_000 };

/** A git project with two memory files, indexed, and mem installed into the user settings; once. */
let prepared = false;
function prepare(): void {
  if (prepared) return;
  prepared = true;
  mkdirSync(home, { recursive: true });
  mkdirSync(join(proj, "memory"), { recursive: true });
  try {
    execFileSync("git", ["init", "-q", proj], { stdio: "ignore" });
  } catch {
    mkdirSync(join(proj, ".git"), { recursive: true }); // no git: a .git directory marks the project all the same
  }
  writeFileSync(join(proj, "memory", "storage.md"), "# Storage\n\n## Why SQLite\n\nWe chose SQLite over Postgres for the metadata store because it needs no server and FTS5 gives BM25.\n");
  writeFileSync(join(proj, "memory", "state.md"), "# State\n\nRelease 0.3 is in progress: the tasks table lands first.\n");
  execFileSync(process.execPath, [BIN, "index", join(proj, "memory"), "-q"], { cwd: proj, env: memEnv, stdio: "ignore" });
  execFileSync(process.execPath, [BIN, "install", "--scope", "user"], { cwd: proj, env: memEnv, stdio: "ignore" });
}

test("a live Claude Code session: briefing and memories reach the model, tool calls and decisions are captured, a resume restores them", SKIP, async (t) => {
  prepare();
  const api = await startFakeAnthropic(script);
  try {
    const env = claudeEnv(api.url);
    const first = await claude(["-p", "why did we choose SQLite over Postgres for metadata?", "--output-format", "json", "--permission-mode", "acceptEdits", "--allowedTools", "Bash"], env);
    assert.equal(first.code, 0, first.stderr);
    const result = JSON.parse(first.stdout) as { session_id: string; result: string; is_error: boolean };
    assert.equal(result.is_error, false);
    assert.equal(result.result, FINAL);

    const sent = JSON.stringify(api.requests[0]);
    assert.match(sent, /SessionStart hook additional context: Project memory from mem/, "the briefing reached the model");
    assert.match(sent, /Release 0\.3 is in progress/);
    assert.match(sent, /UserPromptSubmit hook additional context: Possibly relevant memory recalled by mem/, "the prompt's memories reached the model");
    assert.match(sent, /We chose SQLite over Postgres for the metadata store/);
    assert.ok(existsSync(join(proj, "notes", "plan.md")), "the scripted Write ran");

    const db = openDb(join(memHome, "mem.sqlite"), { readonly: true });
    const events = db.prepare("SELECT id, type, text FROM events WHERE session = ?").all(result.session_id) as { id: string; type: string; text: string }[];
    db.close();
    const byId = new Map(events.map((e) => [e.id, e]));
    assert.equal(byId.get("toolu_live_write")?.type, "file_modified", JSON.stringify(events));
    assert.ok(["error", "command_run"].includes(byId.get("toolu_live_bash")?.type ?? ""), JSON.stringify(events));
    assert.ok(events.some((e) => e.type === "decision" && e.text.includes(DECISION)), "the [MEMORY:] tag in the final answer");
    // SessionEnd is not dispatched on every `-p` exit (HOOKS.md, pitfall 10): reported, not required.
    t.diagnostic(`SessionEnd ${events.some((e) => e.type === "session_end") ? "was" : "was not"} dispatched by this -p run`);

    const before = api.requests.length;
    const resumed = await claude(["-p", "what did we decide about hook output?", "--output-format", "json", "--resume", result.session_id], env);
    assert.equal(resumed.code, 0, resumed.stderr);
    const again = JSON.stringify(api.requests.slice(before));
    assert.match(again, /SessionStart hook additional context/);
    assert.ok(again.includes(DECISION), "the resumed session's briefing restores the decision");
  } finally {
    await api.close();
  }
});

const TASK = "Ship the tasks table";

/** Creates one task with whichever task tool this Claude Code offers, then answers in text (the compaction's summary too). */
function taskScript(body: Record<string, unknown>): Block[] {
  const tools = new Set(((body.tools ?? []) as { name?: string }[]).map((t) => t.name));
  const done = toolResults(body);
  const text = JSON.stringify(body.messages ?? []);
  if (!text.includes("plan the release work") || done.has("toolu_live_task")) return [{ type: "text", text: "<summary>The release work is planned.</summary>" }];
  if (tools.has("TaskCreate")) return [{ type: "tool_use", id: "toolu_live_task", name: "TaskCreate", input: { subject: TASK, description: "The tasks table lands first.", activeForm: "Shipping the tasks table" } }];
  if (tools.has("TodoWrite")) return [{ type: "tool_use", id: "toolu_live_task", name: "TodoWrite", input: { todos: [{ content: TASK, status: "pending", activeForm: "Shipping the tasks table" }] } }];
  return [{ type: "text", text: "no task tool offered" }];
}

test("a live /compact: PreCompact snapshots the open task and the SessionStart:compact briefing brings it back", SKIP, async () => {
  prepare();
  const api = await startFakeAnthropic(taskScript);
  try {
    const env = claudeEnv(api.url);
    const first = await claude(["-p", "plan the release work", "--output-format", "json"], env);
    assert.equal(first.code, 0, first.stderr);
    const session = (JSON.parse(first.stdout) as { session_id: string }).session_id;
    const offered = ((api.requests[0]!.tools ?? []) as { name?: string }[]).map((x) => x.name);
    assert.ok(offered.includes("TaskCreate") || offered.includes("TodoWrite"), `a task tool: ${offered.join(", ")}`);

    const compact = await claude(["-p", "/compact", "--output-format", "json", "--resume", session], env);
    assert.equal(compact.code, 0, compact.stderr);
    const db = openDb(join(memHome, "mem.sqlite"), { readonly: true });
    const snapshot = db.prepare("SELECT text FROM events WHERE session = ? AND type = 'snapshot'").pluck().all(session) as string[];
    db.close();
    assert.ok(snapshot.some((x) => x.includes("1 open task(s)") && x.includes(TASK)), `PreCompact's snapshot: ${JSON.stringify(snapshot)}`);

    const before = api.requests.length;
    const after = await claude(["-p", "what is still open?", "--output-format", "json", "--resume", session], env);
    assert.equal(after.code, 0, after.stderr);
    const sent = JSON.stringify(api.requests.slice(before));
    const briefings = [...sent.matchAll(/SessionStart hook additional context: Project memory from mem/g)].length;
    assert.ok(briefings >= 2, `the compact briefing (kept in the compacted conversation) and the resume's: ${briefings}`);
    assert.match(sent, new RegExp(`## Open tasks\\\\n- \\[pending\\] ${TASK}`), "the open task is back after the compaction");
  } finally {
    await api.close();
  }
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitFor(what: string, cond: () => boolean, screen: () => string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms; the screen ends with:\n${screen().slice(-1500)}`);
    await sleep(100);
  }
}

test(
  "a live interactive session (in a pseudo-terminal): the prompt's memories reach the model, and /exit's SessionEnd records the end",
  { skip: !CLAUDE ? "no Claude Code binary (set MEM_CLAUDE_BIN)" : hasCommand("script") ? false : "no `script` (util-linux) for a pseudo-terminal", timeout: 180_000 },
  async () => {
    prepare();
    // What the first interactive start would ask (onboarding, trust in this folder, the API key), answered in advance.
    const state = join(home, ".claude.json");
    const KEY = claudeEnv("").ANTHROPIC_API_KEY;
    const known = existsSync(state) ? (JSON.parse(readFileSync(state, "utf8")) as Record<string, unknown>) : {};
    const projects = { ...(known.projects as Record<string, unknown> | undefined), [proj]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } };
    writeFileSync(state, JSON.stringify({ ...known, hasCompletedOnboarding: true, theme: "dark", customApiKeyResponses: { approved: [KEY.slice(-20)], rejected: [] }, projects }));

    const before = openDb(join(memHome, "mem.sqlite"), { readonly: true });
    const earlier = new Set(before.prepare("SELECT session FROM sessions").pluck().all() as string[]); // the other tests' sessions
    before.close();
    const api = await startFakeAnthropic(() => [{ type: "text", text: "Hello from the fake model." }]);
    const child = spawn("script", ["-qfec", CLAUDE!, "/dev/null"], { cwd: proj, env: { ...claudeEnv(api.url), TERM: "xterm-256color" } });
    let raw = "";
    child.stdout.on("data", (d: Buffer) => (raw += d.toString()));
    child.stderr.on("data", (d: Buffer) => (raw += d.toString()));
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    // The screen as text: escape sequences out, and spaces too (the TUI moves the cursor instead of printing them).
    const screen = () => raw.replace(/\x1b\[[0-9;?>]*[a-zA-Z]/g, "").replace(/\x1b\][^\x07]*\x07/g, "").replace(/\s+/g, "");
    try {
      await waitFor("the prompt box", () => screen().includes("❯"), screen);
      await sleep(1_000);
      child.stdin.write("why did we choose SQLite over Postgres for metadata?");
      await sleep(500);
      child.stdin.write("\r");
      await waitFor("the model's answer", () => screen().includes("Hellofromthefakemodel"), screen);
      const sent = JSON.stringify(api.requests);
      assert.match(sent, /UserPromptSubmit hook additional context: Possibly relevant memory recalled by mem/, "the prompt's memories reached the model");
      assert.match(sent, /SessionStart hook additional context: Project memory from mem/);

      const db = openDb(join(memHome, "mem.sqlite"), { readonly: true });
      type Row = { session: string; offset: number; ended_at: number | null; end_reason: string | null };
      const row = () => (db.prepare("SELECT session, offset, ended_at, end_reason FROM sessions").all() as Row[]).find((r) => !earlier.has(r.session));
      try {
        await waitFor("the Stop hook's read of the transcript", () => (row()?.offset ?? 0) > 0, screen);
        child.stdin.write("/exit");
        await sleep(500);
        child.stdin.write("\r");
        assert.equal(await Promise.race([exited, sleep(20_000).then(() => "still running")]), 0);
        const end = row();
        assert.equal(end?.end_reason, "prompt_input_exit", JSON.stringify(end));
        assert.ok(end?.ended_at, "SessionEnd recorded when the session ended");
      } finally {
        db.close();
      }
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
      await api.close();
    }
  },
);

test("installed as a plugin instead (--plugin-dir, no settings entries): the briefing and the prompt's memories reach the model", SKIP, async () => {
  // A home of its own: the user settings of the other tests register mem's hooks, and both would run.
  const pluginHome = join(tmp, "plugin-home");
  const pluginMem = join(tmp, "plugin-mem-home");
  mkdirSync(pluginHome, { recursive: true });
  prepare(); // the project and its memory files
  const env = { ...claudeEnv(""), HOME: pluginHome, MEM_HOME: pluginMem };
  execFileSync(process.execPath, [BIN, "index", join(proj, "memory"), "-q"], { cwd: proj, env, stdio: "ignore" });
  const api = await startFakeAnthropic(() => [{ type: "text", text: "ok" }]);
  try {
    const root = fileURLToPath(new URL("../../../", import.meta.url));
    const r = await claude(["-p", "why did we choose SQLite over Postgres for metadata?", "--output-format", "json", "--plugin-dir", root], { ...env, ANTHROPIC_BASE_URL: api.url });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(existsSync(join(pluginHome, ".claude", "settings.json")), false, "nothing installed into settings");
    const sent = JSON.stringify(api.requests);
    assert.match(sent, /SessionStart hook additional context: Project memory from mem[^"]*Release 0\.3 is in progress/, "hooks/hooks.json's SessionStart ran from the plugin root");
    assert.match(sent, /UserPromptSubmit hook additional context: Possibly relevant memory recalled by mem[^"]*We chose SQLite over Postgres/);
    const session = (JSON.parse(r.stdout) as { session_id: string }).session_id;
    const db = openDb(join(pluginMem, "mem.sqlite"), { readonly: true });
    const known = db.prepare("SELECT count(*) FROM sessions WHERE session = ?").pluck().get(session);
    db.close();
    assert.equal(known, 1, "the plugin's hooks recorded the session");
  } finally {
    await api.close();
    await ask(pluginMem, { op: "stop" }, 2_000);
  }
});
