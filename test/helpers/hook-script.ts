/**
 * The curl hook client's test bed (test/daemon/hook-client*.test.ts): data homes with a note, a
 * real daemon (`mem serve`), bin/mem-hook.sh run as \`mem install\` registers a hot hook, and a spy
 * standing in for node that notes each run, so that a test knows which client answered.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after } from "node:test";
import { endProcessesUnder } from "./daemon.js";
import { hasCommand } from "./has-command.js";
import { runChild } from "./run-child.js";
import { until } from "./until.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
export const BIN = join(REPO, "bin", "mem.cjs");
export const SCRIPT = join(REPO, "bin", "mem-hook.sh");
export const skip = process.platform === "win32" || !hasCommand("curl") ? "needs /bin/sh and curl" : false;
export const tmp = mkdtempSync(join(tmpdir(), "mem-hc-")); // short: socket paths must stay under ~100 bytes
export const children: ChildProcess[] = [];
after(async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  // A daemon a hook started for next time (no child of ours) may be running on, writing to its data home.
  await endProcessesUnder(tmp);
  rmSync(tmp, { recursive: true, force: true });
});

export const SPY = join(tmp, "node-spy");
writeFileSync(SPY, `#!/bin/sh\necho "$*" >> "$SPY_LOG"\nexec "${process.execPath}" "$@"\n`);
chmodSync(SPY, 0o755);

let n = 0;
export function home(): string {
  const h = join(tmp, `h${n++}`);
  mkdirSync(h, { recursive: true, mode: 0o700 });
  writeFileSync(join(h, "config.json"), JSON.stringify({ daemon: { idleMs: 60_000, indexEveryMs: 200, clientBudgetMs: 2_000 }, embedding: { order: [] }, index: { watch: false } }));
  writeFileSync(join(h, "note.md"), "# Storage\n\nWe chose SQLite over Postgres because it needs no server and FTS5 gives BM25.\n\nThe billing service keeps its ledger in Postgres for row level locks.\n");
  return h;
}

export const envOf = (h: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: tmp, MEM_HOME: h, MEM_WATCH: "0", SPY_LOG: join(h, "spy.log"), ...extra });

/** `mem index` then `mem serve`, ready when its hook socket is. */
export async function daemon(h: string): Promise<ChildProcess> {
  const idx = await runChild(process.execPath, [BIN, "index", h, "-q"], { env: envOf(h) });
  assert.equal(idx.code, 0, idx.stderr);
  const child = spawn(process.execPath, [BIN, "serve"], { env: envOf(h), stdio: "ignore" });
  children.push(child);
  await until(() => existsSync(join(h, "hook.sock")) && existsSync(join(h, "hook.budget")));
  return child;
}

/** The hook as `mem install` registers a hot one: `/bin/sh mem-hook.sh <node> <mem.cjs> hook <name>`, node being the spy. */
export const viaScript = (name: string, input: string, env: NodeJS.ProcessEnv) => runChild("/bin/sh", [SCRIPT, SPY, BIN, "hook", name], { env, input, timeout: 60_000 });
export const nodeRuns = (h: string) => (existsSync(join(h, "spy.log")) ? readFileSync(join(h, "spy.log"), "utf8").split("\n").filter(Boolean).length : 0);
export const prompt = (text: string, session: string, cwd: string) => JSON.stringify({ session_id: session, transcript_path: "/nonexistent", cwd, hook_event_name: "UserPromptSubmit", prompt: text });
export const context = (stdout: string): string => (stdout.trim() ? (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext : "");

/** A request straight to the daemon's HTTP socket. */
export function post(sock: string, path: string, body: string, method = "POST"): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: sock, path, method, headers: { "content-type": "application/json" } }, (res) => {
      let b = "";
      res.on("data", (d: Buffer) => (b += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: b }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** A server on `h`'s hook socket that takes every request and never answers (a wedged daemon); resolves to its closer. */
export async function wedged(h: string): Promise<() => Promise<void>> {
  const held: ServerResponse[] = [];
  const server = createServer((_req, res) => void held.push(res));
  await new Promise<void>((r) => server.listen(join(h, "hook.sock"), () => r()));
  chmodSync(join(h, "hook.sock"), 0o600);
  return async () => {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
}
