/**
 * One memory across real assistants, in one project and one data home, each CLI against its own
 * loopback model server (test/helpers/fake-{anthropic,responses,gemini}.ts):
 *
 * 1. Claude Code (installed with `mem install --scope user`) opens a task with its task tool and
 *    states a decision.
 * 2. The next Codex session's model request carries that decision and that open task (the
 *    SessionStart briefing, unlabelled: Claude Code's); its model completes the task with
 *    update_plan and states a decision of its own.
 * 3. The next Gemini CLI session's request carries Codex's decision "in a Codex session", and the
 *    task Codex completed is no longer open; its model opens a task with write_todos.
 * 4. The next Claude Code session's request carries Gemini's task "opened in a Gemini CLI session"
 *    and Codex's decision "in a Codex session".
 *
 * Needs Claude Code and Codex (MEM_CLAUDE_BIN, MEM_CODEX_BIN or on PATH; `.ci/run` installs them);
 * Gemini CLI (MEM_GEMINI_BIN or on PATH) for steps 3 and 4. Skipped without them.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";
import { openDb } from "../../src/store/db.js";
import { startFakeAnthropic, type Block } from "../helpers/fake-anthropic.js";
import { startFakeGemini } from "../helpers/fake-gemini.js";
import { startFakeResponses } from "../helpers/fake-responses.js";
import { findBin } from "../helpers/live-bins.js";
import { runChild } from "../helpers/run-child.js";

const CLAUDE = findBin("MEM_CLAUDE_BIN", "claude");
const CODEX = findBin("MEM_CODEX_BIN", "codex");
const GEMINI = findBin("MEM_GEMINI_BIN", "gemini");
const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-live-cross-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const home = join(tmp, "home");
const codexHome = join(tmp, "codex-home");
const memHome = join(tmp, "mem-home");
const proj = join(tmp, "proj");
const CLAUDE_TASK = "Ship the tasks table";
const CLAUDE_DECISION = "Keep hook output under 2,000 characters.";
const CODEX_DECISION = "Prices are cached for five minutes in Redis.";
const GEMINI_TASK = "Write the release notes";
/** How the briefing says "a few minutes ago" (src/render/time.ts). */
const RECENT = "(?:just now|\\d+ min ago)";

const memEnv = { PATH: process.env.PATH, HOME: home, MEM_HOME: memHome, MEM_NO_DAEMON: "1", MEM_WATCH: "0", MEM_EMBED_ORDER: "none" };
const claudeEnv = (url: string) => ({
  ...memEnv,
  ANTHROPIC_BASE_URL: url,
  ANTHROPIC_API_KEY: "sk-ant-api03-test-key-for-a-loopback-server",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_TELEMETRY: "1",
  DISABLE_AUTOUPDATER: "1",
  ENABLE_TOOL_SEARCH: "false",
  CLAUDE_CODE_ENABLE_TODO_TOOLS: "true",
});

function toolResults(body: Record<string, unknown>): Set<string> {
  const ids = new Set<string>();
  for (const m of (body.messages ?? []) as { content?: unknown }[]) {
    if (!Array.isArray(m.content)) continue;
    for (const c of m.content as { type?: string; tool_use_id?: string }[]) if (c.type === "tool_result" && c.tool_use_id) ids.add(c.tool_use_id);
  }
  return ids;
}

/** Opens the task with Claude Code's task tool (TodoWrite, else TaskCreate), then answers with the decision. */
function claudeScript(body: Record<string, unknown>): Block[] {
  const tools = new Set(((body.tools ?? []) as { name?: string }[]).map((t) => t.name));
  const text = JSON.stringify(body.messages ?? []);
  if (!text.includes("plan the release")) return [{ type: "text", text: "Nothing is left that I know of." }];
  if (!toolResults(body).has("toolu_cross_task")) {
    if (tools.has("TodoWrite")) return [{ type: "tool_use", id: "toolu_cross_task", name: "TodoWrite", input: { todos: [{ content: CLAUDE_TASK, status: "pending", activeForm: "Shipping the tasks table" }] } }];
    if (tools.has("TaskCreate")) return [{ type: "tool_use", id: "toolu_cross_task", name: "TaskCreate", input: { subject: CLAUDE_TASK, description: "It lands first.", activeForm: "Shipping the tasks table" } }];
  }
  return [{ type: "text", text: `Planned. [MEMORY: decision] ${CLAUDE_DECISION}` }];
}

async function claude(prompt: string, url: string): Promise<void> {
  const r = await runChild(CLAUDE!, ["-p", prompt, "--output-format", "json"], { cwd: proj, env: claudeEnv(url), timeout: 120_000, killSignal: "SIGKILL" });
  assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
  assert.equal((JSON.parse(r.stdout) as { is_error: boolean }).is_error, false, r.stdout);
}

/** The task registry's rows, by content: status, and whether closed. */
function tasks(): Map<string, { status: string; closed: boolean }> {
  const db = openDb(join(memHome, "mem.sqlite"), { readonly: true });
  try {
    const rows = db.prepare("SELECT content, status, closed_at FROM tasks").all() as { content: string; status: string; closed_at: number | null }[];
    return new Map(rows.map((r) => [r.content, { status: r.status, closed: r.closed_at !== null }]));
  } finally {
    db.close();
  }
}

test(
  "Claude Code → Codex → Gemini CLI → Claude Code: each session's model request carries the others' decisions and open tasks, named by assistant",
  { skip: !CLAUDE ? "no Claude Code binary (MEM_CLAUDE_BIN)" : !CODEX ? "no Codex CLI (MEM_CODEX_BIN)" : false, timeout: 420_000 },
  async (t) => {
    mkdirSync(home, { recursive: true });
    mkdirSync(codexHome, { recursive: true });
    mkdirSync(proj, { recursive: true });
    execFileSync("git", ["init", "-q", proj], { stdio: "ignore" });
    const install = await runChild(process.execPath, [BIN, "install", "--scope", "user"], { cwd: proj, env: memEnv });
    assert.equal(install.code, 0, install.stderr);

    // 1. Claude Code: a task and a decision.
    const api = await startFakeAnthropic(claudeScript);
    try {
      await claude("plan the release", api.url);
      const offered = ((api.requests[0]?.tools ?? []) as { name?: string }[]).map((x) => x.name);
      assert.ok(offered.includes("TodoWrite") || offered.includes("TaskCreate"), `a task tool: ${offered.join(", ")}`);
    } finally {
      await api.close();
    }
    assert.deepEqual(tasks().get(CLAUDE_TASK), { status: "pending", closed: false }, "Claude Code's task is open");

    // 2. Codex: both reach its model; it completes the task (update_plan) and decides.
    const codexApi = await startFakeResponses(`Done. [MEMORY: decision] ${CODEX_DECISION}`, { name: "update_plan", arguments: { explanation: "shipped", plan: [{ step: CLAUDE_TASK, status: "completed" }] } });
    try {
      writeFileSync(join(codexHome, "config.toml"), `model = "gpt-5.5"\nmodel_provider = "loopback"\n\n[model_providers.loopback]\nname = "loopback"\nbase_url = "${codexApi.url}"\nwire_api = "responses"\n\n[features]\nhooks = true\n\n[tools.update_plan]\nenabled = true\n`);
      const hook = (event: string) => [{ hooks: [{ type: "command", command: `"${process.execPath}" "${BIN}" hook ${event} --assistant codex` }] }];
      writeFileSync(join(codexHome, "hooks.json"), JSON.stringify({ hooks: Object.fromEntries(["SessionStart", "UserPromptSubmit", "PostToolUse", "Stop"].map((e) => [e, hook(e)])) }));
      const r = await runChild(CODEX!, ["exec", "--dangerously-bypass-hook-trust", "--dangerously-bypass-approvals-and-sandbox", "--skip-git-repo-check", "ship what is planned"], { cwd: proj, env: { ...memEnv, CODEX_HOME: codexHome }, timeout: 90_000 });
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
      const first = JSON.stringify(codexApi.requests[0]);
      assert.match(first, /<mem-briefing>.*<\/mem-briefing>/, "the briefing reached Codex's model");
      assert.match(first, new RegExp(`- \\[pending\\] ${CLAUDE_TASK} \\(${RECENT}\\)`), "Claude Code's open task, unlabelled");
      assert.match(first, new RegExp(`- ${CLAUDE_DECISION} \\(${RECENT}\\)`), "Claude Code's decision, unlabelled");
    } finally {
      await codexApi.close();
    }
    assert.deepEqual(tasks().get(CLAUDE_TASK), { status: "completed", closed: true }, "Codex's update_plan completed Claude Code's task");

    if (!GEMINI) {
      t.diagnostic("no Gemini CLI (MEM_GEMINI_BIN): steps 3 and 4 not run");
      return;
    }
    // 3. Gemini CLI: Codex's decision, named; the completed task gone; write_todos opens a task.
    const geminiApi = await startFakeGemini("Planned.", { name: "write_todos", args: { todos: [{ description: GEMINI_TASK, status: "pending" }] } });
    try {
      mkdirSync(join(home, ".gemini"), { recursive: true });
      const hook = (event: string) => [{ hooks: [{ type: "command", name: `mem-${event}`, command: `"${process.execPath}" "${BIN}" hook ${event} --assistant gemini`, timeout: 30_000 }] }];
      writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } }, hooks: Object.fromEntries(["SessionStart", "BeforeAgent", "AfterTool", "AfterAgent", "SessionEnd"].map((e) => [e, hook(e)])) }));
      const env = { ...memEnv, GEMINI_API_KEY: "loopback-only", GOOGLE_GEMINI_BASE_URL: geminiApi.url, GEMINI_CLI_TRUST_WORKSPACE: "true" };
      const r = await runChild(GEMINI!, ["-m", "gemini-2.5-flash", "--yolo", "-p", "what is left for the release"], { cwd: proj, env, timeout: 120_000 });
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
      const turn = geminiApi.requests.filter((q) => /generateContent/i.test(q.path));
      assert.ok(turn.length >= 1, "Gemini CLI asked the loopback model");
      const first = JSON.stringify(turn[0]!.body);
      assert.match(first, new RegExp(`- ${CODEX_DECISION} \\(${RECENT}, in a Codex session\\)`), "Codex's decision, named");
      assert.match(first, new RegExp(`- ${CLAUDE_DECISION} \\(${RECENT}\\)`), "Claude Code's decision");
      assert.doesNotMatch(first, new RegExp(`\\[(pending|in_progress)\\] ${CLAUDE_TASK}`), "the task Codex completed is not open");
      const offered = JSON.stringify((turn[0]!.body as { tools?: unknown }).tools ?? []);
      assert.ok(offered.includes("write_todos"), "Gemini CLI offers write_todos");
    } finally {
      await geminiApi.close();
    }
    assert.deepEqual(tasks().get(GEMINI_TASK), { status: "pending", closed: false }, "Gemini's write_todos opened a task");

    // 4. Claude Code again: Gemini's task and Codex's decision, each named.
    const again = await startFakeAnthropic(claudeScript);
    try {
      await claude("what is still open?", again.url);
      const sent = JSON.stringify(again.requests);
      assert.match(sent, new RegExp(`- \\[pending\\] ${GEMINI_TASK} \\(${RECENT}, opened in a Gemini CLI session\\)`), "Gemini's task, named");
      assert.match(sent, new RegExp(`- ${CODEX_DECISION} \\(${RECENT}, in a Codex session\\)`), "Codex's decision, named");
    } finally {
      await again.close();
    }
  },
);
