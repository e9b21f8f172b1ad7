/**
 * `prompt_context` answers for the project its server is bound to, and nothing else: not for the
 * project a relative `cwd` names in a shared daemon started from another project's directory, not
 * for the session directory's when the server was started with --project. The daemon itself takes
 * no relative cwd (a prompt, a capture, the curl client's HTTP hook): its own directory is
 * whichever session's started it. Real `mem mcp` and `mem serve` children on one data home.
 */
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { openApp } from "../../src/app.js";
import { ask } from "../../src/daemon/client.cjs";
import { hookSocketPath } from "../../src/daemon/hook-http.js";
import { daemonUp } from "../helpers/daemon.js";
import { serverEnv } from "../helpers/mcp-env.js";
import { BIN, cleanEnv, runMem, show } from "../helpers/mem-cli.js";
import { until } from "../helpers/until.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-mcp-pc-")));
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});
const projA = join(tmp, "alpha");
const projB = join(tmp, "beta");
for (const p of [projA, projB]) mkdirSync(join(p, ".git"), { recursive: true });
const home = join(tmp, "home");
const PROMPT = "how is the zebra table sharded?";

type Result = { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };
const text = (r: Result) => r.content.map((c) => c.text).join("\n");

/** An SDK client of a `mem mcp` child whose session directory is `sessionDir`; `daemon`: it may use the daemon. */
async function serve(sessionDir: string, o: { args?: string[]; daemon?: boolean } = {}) {
  const env: Record<string, string> = serverEnv(tmp, home, sessionDir);
  if (o.daemon) delete env.MEM_NO_DAEMON;
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp", "-q", ...(o.args ?? [])], env, cwd: sessionDir, stderr: "pipe" });
  const client = new Client({ name: "mem-pc-test", version: "1" });
  await client.connect(transport);
  let n = 0;
  const context = async (a: Record<string, unknown> = {}) => (await client.callTool({ name: "prompt_context", arguments: { prompt: PROMPT, session_id: `s-${sessionDir.length}-${n++}-${Date.now()}`, ...a } })) as Result;
  return { client, context };
}

before(async () => {
  const env = { ...cleanEnv(join(tmp, "claude")), HOME: tmp, MEM_HOME: home };
  for (const [cwd, t] of [
    [projA, "Alpha shards the zebra table by region, key ZEBRA-ALPHA."],
    [projB, "Beta shards the zebra table by tenant, key ZEBRA-BETA."],
  ] as const) {
    const r = await runMem(["remember", t, "--kind", "decision"], { env, cwd });
    assert.equal(r.code, 0, show(r));
  }
});

describe("prompt_context searches the bound project", () => {
  test("--project P: P's memories, not the session directory's (with or without a cwd)", async () => {
    const s = await serve(projB, { args: ["--project", projA] });
    try {
      for (const a of [{}, { cwd: projB }, { cwd: "." }]) {
        const r = await s.context(a);
        assert.match(text(r), /ZEBRA-ALPHA/, JSON.stringify(a));
        assert.doesNotMatch(text(r), /ZEBRA-BETA/, JSON.stringify(a));
      }
      // Answered in-process, as the hook's own fallback: each answer is in the prompt log (the explorer's Prompts page), under the bound project.
      const db = new Database(join(home, "mem.sqlite"), { readonly: true });
      const runs = db.prepare("SELECT project, hook, injected FROM prompt_runs WHERE prompt = ?").all(PROMPT) as { project: string; hook: string; injected: string | null }[];
      db.close();
      assert.equal(runs.length, 3, JSON.stringify(runs));
      for (const r of runs) {
        assert.deepEqual([r.project, r.hook], [projA, "prompt"]);
        assert.match(r.injected ?? "", /ZEBRA-ALPHA/);
      }
    } finally {
      await s.client.close();
    }
  });

  describe("through a daemon started in another project's directory", () => {
    before(async () => {
      const env = { PATH: process.env.PATH, HOME: tmp, MEM_HOME: home, MEM_EMBED_ORDER: "none", MEM_WATCH: "0" };
      const d = spawn(process.execPath, [BIN, "serve", "-q"], { cwd: projB, env, stdio: "ignore" });
      children.push(d);
      await until(() => daemonUp(home), 60_000, "the daemon answering");
    });

    test("a relative cwd (or none) injects the bound project's memories, never the daemon directory's", async () => {
      const s = await serve(projA, { daemon: true });
      try {
        for (const a of [{}, { cwd: "." }, { cwd: "./" }]) {
          const r = await s.context(a);
          assert.equal(r.structuredContent!.via, "daemon", JSON.stringify(r.structuredContent));
          assert.match(text(r), /ZEBRA-ALPHA/, JSON.stringify(a));
          assert.doesNotMatch(text(r), /ZEBRA-BETA/, JSON.stringify(a));
        }
      } finally {
        await s.client.close();
      }
    });

    test("--project P through the daemon: P's memories", async () => {
      const s = await serve(projB, { args: ["--project", projA], daemon: true });
      try {
        const r = await s.context({});
        assert.equal(r.structuredContent!.via, "daemon");
        assert.match(text(r), /ZEBRA-ALPHA/);
        assert.doesNotMatch(text(r), /ZEBRA-BETA/);
      } finally {
        await s.client.close();
      }
    });

    test("the daemon refuses a relative cwd: a prompt, a tool capture, a stop", async () => {
      const reply = async (req: Record<string, unknown>) => {
        const r = await ask(home, req, 10_000);
        assert.equal(r.kind, "reply", JSON.stringify(r));
        return (r as { reply: { ok: boolean; error?: string; text?: string } }).reply;
      };
      const prompt = await reply({ op: "prompt", prompt: PROMPT, cwd: ".", session: "s-rel" });
      assert.deepEqual([prompt.ok, prompt.text], [false, undefined]);
      assert.match(prompt.error!, /absolute/);
      const tool = (cwd?: string) => ({ session_id: "s-cap", tool_name: "Bash", tool_use_id: `toolu_rel_${cwd ?? "none"}`, tool_input: { command: "echo captured-under-the-daemon-dir" }, tool_response: { stdout: "x" }, ...(cwd !== undefined ? { cwd } : {}) });
      for (const cwd of [".", "sub", undefined]) {
        const r = await reply({ op: "capture", event: "PostToolUse", payload: tool(cwd) });
        assert.equal(r.ok, false, `cwd ${cwd}`);
      }
      const stop = await reply({ op: "capture", event: "Stop", payload: { session_id: "s-stop", cwd: ".", last_assistant_message: "[MEMORY: decision] Filed under the daemon's directory." } });
      assert.equal(stop.ok, false);
      const app = openApp({ MEM_HOME: home, HOME: tmp, MEM_EMBED_ORDER: "none" });
      try {
        const rows = app.db.prepare("SELECT project, text FROM events WHERE session IN ('s-cap', 's-stop')").all();
        assert.deepEqual(rows, [], "nothing filed under the daemon's own directory");
      } finally {
        await app.close();
      }
    });

    test("the curl client's HTTP hook: a relative cwd is 422 (the Node hook answers), an absolute one is answered", async () => {
      const socketPath = hookSocketPath(home)!;
      const post = (payload: Record<string, unknown>) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const body = JSON.stringify(payload);
          const req = request({ socketPath, path: "/hook/user-prompt-submit", method: "POST", headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
            let got = "";
            res.setEncoding("utf8").on("data", (d: string) => (got += d));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body: got }));
          });
          req.on("error", reject);
          req.end(body);
        });
      const rel = await post({ hook_event_name: "UserPromptSubmit", prompt: PROMPT, cwd: ".", session_id: "s-http-rel" });
      assert.equal(rel.status, 422, rel.body);
      assert.doesNotMatch(rel.body, /ZEBRA/);
      await until(async () => (await post({ hook_event_name: "UserPromptSubmit", prompt: PROMPT, cwd: projA, session_id: `s-http-${Date.now()}` })).body.includes("ZEBRA-ALPHA"), 60_000, "an absolute cwd answered within the client's budget");
    });
  });
});
