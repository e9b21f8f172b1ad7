/**
 * Every chunk gets its vector within seconds while a daemon runs and a provider answers, whichever
 * way it was captured: the hot hooks through the daemon (PostToolUse for several tools,
 * PostToolUseFailure, Stop with a transcript, [MEMORY:] tags and keyword decisions, SubagentStop),
 * the hooks the daemon never answers (PreCompact, SessionEnd, UserPromptSubmit), `mem remember`
 * (with and without its nudge), MCP remember, the hooks writing SQLite themselves because the daemon
 * is stopped (SIGSTOP: busy) or absent, and captures spooled while SQLite was locked and replayed
 * later. A real daemon, a loopback Ollama, the hooks as Claude Code spawns them.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ask } from "../../src/daemon/client.cjs";
import { openDb } from "../../src/store/db.js";
import { daemonSandbox, startDaemon } from "../helpers/daemon.js";
import { startFakeOllama } from "../helpers/fake-ollama.js";
import { sqliteLockHolder } from "../helpers/lock-holder.js";
import { BIN } from "../helpers/mem-cli.js";
import { runChild } from "../helpers/run-child.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-vevery-")));
const kids: ChildProcess[] = [];
after(() => {
  for (const c of kids) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

/** Chunks in the store, and those without a vector in any table. */
function vectorState(home: string): { chunks: number; without: { kind: string; path: string; text: string }[] } {
  const db = openDb(join(home, "mem.sqlite"));
  try {
    const chunks = db.prepare("SELECT count(*) FROM chunks").pluck().get() as number;
    const without = db.prepare("SELECT kind, path, substr(text, 1, 60) AS text FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM vec_rows v WHERE v.chunk_id = c.id)").all() as { kind: string; path: string; text: string }[];
    return { chunks, without };
  } finally {
    db.close();
  }
}

const line = (type: "user" | "assistant", session: string, content: unknown[]) => JSON.stringify({ type, sessionId: session, timestamp: new Date().toISOString(), message: { role: type, content } });

test("every captured chunk has its vector within seconds, whichever path captured it", { timeout: 600_000 }, async (t) => {
  const fake = await startFakeOllama({ dims: 64 });
  const s = daemonSandbox(tmp, { daemon: { idleMs: 300_000 }, embedding: { order: ["ollama"], ollama: { host: fake.url } }, index: { watch: false } });
  const env = { ...s.env, MEM_WATCH: "0" };
  const figures: string[] = [];
  let n = 0;
  const hook = async (name: string, payload: Record<string, unknown>, extra: NodeJS.ProcessEnv = {}) => {
    const r = await runChild(process.execPath, [BIN, "hook", name], { env: { ...env, ...extra }, input: JSON.stringify({ cwd: s.proj, ...payload }), timeout: 60_000 });
    assert.equal(r.code, 0, `${name}: ${r.stderr}`);
    assert.equal(r.stderr, "", `${name} printed nothing on stderr`);
  };
  const mem = async (args: string[], extra: NodeJS.ProcessEnv = {}) => {
    const r = await runChild(process.execPath, [BIN, ...args], { env: { ...env, ...extra }, cwd: s.proj, timeout: 60_000 });
    assert.equal(r.code, 0, `mem ${args.join(" ")}: ${r.stderr}`);
    return r;
  };
  /** Waits (generously) until no chunk lacks its vector; `grows`: the path must have added chunks. */
  const allEmbedded = async (path: string, before: number, started: number, grows = true) => {
    const end = Date.now() + 60_000;
    let st = vectorState(s.home);
    while (Date.now() < end) {
      st = vectorState(s.home);
      if (st.without.length === 0 && (!grows || st.chunks > before)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(!grows || st.chunks > before, `${path}: it stored chunks (${before} → ${st.chunks})`);
    assert.deepEqual(st.without, [], `${path}: every chunk has its vector`);
    figures.push(`${path}: +${st.chunks - before} chunk(s), all embedded ${((Date.now() - started) / 1000).toFixed(1)} s after the capture began`);
    return st.chunks;
  };
  const toolCall = (session: string, tool_name: string, tool_input: unknown, tool_response: unknown) => ({ session_id: session, hook_event_name: "PostToolUse", transcript_path: join(tmp, `${session}.jsonl`), tool_name, tool_use_id: `toolu_${n++}`, tool_input, tool_response });
  /** A transcript with a prompt, a [MEMORY:] tag, a keyword decision and a tool call; returns its path. */
  const transcript = (session: string, words: string) => {
    const p = join(tmp, `${session}-${n++}.jsonl`);
    writeFileSync(p, `${[
      line("user", session, [{ type: "text", text: `Please sort out the ${words} configuration` }]),
      line("assistant", session, [{ type: "text", text: `[MEMORY: learned] the ${words} service needs its cache warmed before traffic.\nWe decided to keep the ${words} limits in one file.` }]),
      line("assistant", session, [{ type: "tool_use", id: `toolu_t${n}`, name: "Bash", input: { command: `make ${words}` } }]),
      line("user", session, [{ type: "tool_result", tool_use_id: `toolu_t${n}`, content: `built ${words}` }]),
    ].join("\n")}\n`);
    return p;
  };
  const stop = (session: string, words: string, sub = false) => {
    const path = transcript(session, words);
    return sub
      ? { session_id: session, hook_event_name: "SubagentStop", stop_hook_active: false, agent_id: `agent-${n}`, agent_transcript_path: path, transcript_path: path, last_assistant_message: `[MEMORY: decision] the ${words} subagent keeps retries at three` }
      : { session_id: session, hook_event_name: "Stop", stop_hook_active: false, transcript_path: path, last_assistant_message: `[MEMORY: decision] ${words} rollouts go out on Tuesdays` };
  };

  try {
    // 1. No daemon yet: the hooks write SQLite themselves; one capture is spooled while SQLite is
    // locked and replayed by the next hook that finds the store working. The daemon started later
    // embeds all of it.
    await hook("post-tool-use", toolCall("s-absent", "Bash", { command: "npm run lint" }, { stdout: "lint clean", stderr: "" }));
    await hook("stop", stop("s-absent", "harbour"));
    const lock = await sqliteLockHolder(join(s.home, "mem.sqlite"));
    await hook("post-tool-use", toolCall("s-absent", "Bash", { command: "npm run spooled-step" }, { stdout: "spooled output", stderr: "" }));
    await lock.release();
    await hook("post-tool-use", toolCall("s-absent", "Edit", { file_path: join(s.proj, "src/z.ts"), old_string: "y", new_string: "z" }, { filePath: join(s.proj, "src/z.ts") })); // replays the spool
    const db = openDb(join(s.home, "mem.sqlite"));
    assert.ok((db.prepare("SELECT count(*) FROM events WHERE text LIKE '%spooled-step%'").pluck().get() as number) > 0, "the spooled capture was replayed");
    db.close();
    let chunks = vectorState(s.home).chunks;
    let started = Date.now();
    const daemon = await startDaemon(s, kids);
    chunks = await allEmbedded("written with no daemon running (incl. a spooled capture replayed), then the daemon started", 0, started, false);
    assert.ok(chunks > 0);

    // 2. With the daemon running, each path in turn.
    const paths: [string, () => Promise<unknown>, boolean][] = [
      ["PostToolUse Bash via the daemon", () => hook("post-tool-use", toolCall("s-live", "Bash", { command: "cargo test alpha" }, { stdout: "alpha ok", stderr: "" })), true],
      ["PostToolUse Edit via the daemon", () => hook("post-tool-use", toolCall("s-live", "Edit", { file_path: join(s.proj, "src/a.ts"), old_string: "a", new_string: "b" }, { filePath: join(s.proj, "src/a.ts") })), true],
      ["PostToolUse Write via the daemon", () => hook("post-tool-use", toolCall("s-live", "Write", { file_path: join(s.proj, "src/w.ts"), content: "export const w = 1;\n" }, { type: "create" })), true],
      ["PostToolUse TodoWrite via the daemon", () => hook("post-tool-use", toolCall("s-live", "TodoWrite", { todos: [{ content: "wire the quartz exporter", status: "pending", activeForm: "Wiring" }] }, { oldTodos: [], newTodos: [] })), true],
      ["PostToolUseFailure via the daemon", () => hook("post-tool-use-failure", { ...toolCall("s-live", "Bash", { command: "deploy quartz" }, undefined), hook_event_name: "PostToolUseFailure", error: "Exit code 1\nquartz refused" }), true],
      ["UserPromptSubmit via the daemon (stores no chunk)", () => hook("user-prompt-submit", { session_id: "s-live", hook_event_name: "UserPromptSubmit", transcript_path: join(tmp, "none.jsonl"), prompt: "what did we decide about the quartz exporter" }), false],
      ["Stop via the daemon (transcript, [MEMORY:] tags, keyword decisions)", () => hook("stop", stop("s-live", "lighthouse")), true],
      ["SubagentStop via the daemon", () => hook("subagent-stop", stop("s-live", "meadow", true)), true],
      ["PreCompact (written by the hook)", () => hook("pre-compact", { session_id: "s-live", hook_event_name: "PreCompact", transcript_path: transcript("s-live", "orchard"), trigger: "auto" }), true],
      ["SessionEnd (written by the hook)", () => hook("session-end", { session_id: "s-live", hook_event_name: "SessionEnd", reason: "other" }), false],
      ["mem remember (nudges the daemon)", () => mem(["remember", "the gazebo build uses the blue pipeline"]), true],
      ["mem remember, the nudge lost (MEM_NO_DAEMON=1)", () => mem(["remember", "the pergola build uses the green pipeline"], { MEM_NO_DAEMON: "1" }), true],
    ];
    for (const [name, run, grows] of paths) {
      started = Date.now();
      await run();
      chunks = await allEmbedded(name, chunks, started, grows);
    }

    // MCP remember, from a `mem mcp` server beside the daemon.
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], env: { ...(env as Record<string, string>), CLAUDE_PROJECT_DIR: s.proj }, cwd: s.proj, stderr: "pipe" });
    const client = new Client({ name: "mem-test", version: "1" });
    await client.connect(transport);
    try {
      started = Date.now();
      const r = (await client.callTool({ name: "remember", arguments: { text: "the trellis service pins its node version", kind: "decision" } })) as { isError?: boolean };
      assert.notEqual(r.isError, true);
      chunks = await allEmbedded("MCP remember", chunks, started);
    } finally {
      await client.close();
    }

    // 3. The daemon busy (stopped: it takes the connection but never answers): the hot hooks wait
    // their budget, then write SQLite themselves; the daemon, running again, embeds what they wrote.
    assert.ok(daemon.kill("SIGSTOP"));
    try {
      started = Date.now();
      await hook("post-tool-use", toolCall("s-busy", "Bash", { command: "make busy-bee" }, { stdout: "busy ok", stderr: "" }));
      await hook("stop", stop("s-busy", "canyon"));
    } finally {
      daemon.kill("SIGCONT");
    }
    chunks = await allEmbedded("PostToolUse and Stop written by the hooks while the daemon was busy (SIGSTOP), then it ran again", chunks, started);
    assert.equal((await ask(s.home, { op: "ping" }, 5_000)).kind, "reply", "the daemon runs on");
    await ask(s.home, { op: "stop" }, 5_000);
    for (const f of figures) t.diagnostic(f);
  } finally {
    await fake.close();
  }
});
