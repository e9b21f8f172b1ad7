import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));
export const REPO = dirname(dirname(BIN));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The parent's environment without anything that steers mem (MEM_*, OLLAMA_*) or the test runner; no background re-index (MEM_WATCH=0) unless a test asks. */
export function cleanEnv(claudeConfigDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith("MEM_") || k.startsWith("OLLAMA_") || k === "NODE_TEST_CONTEXT" || k === "NODE_OPTIONS") continue;
    env[k] = v;
  }
  return { ...env, CLAUDE_CONFIG_DIR: claudeConfigDir, MEM_ALLOW_REMOTE_MODELS: "0", MEM_EMBED_ORDER: "none", MEM_NO_DAEMON: "1", MEM_WATCH: "0" };
}

/** Runs `node bin/mem.cjs ARGS` (asynchronously: a fake Ollama server may live in this process). */
export function runMem(args: string[], o: { env: NodeJS.ProcessEnv; cwd?: string; input?: string; timeoutMs?: number; onStderr?: (soFar: string) => void }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [BIN, ...args], { cwd: o.cwd ?? REPO, env: o.env, stdio: ["pipe", "pipe", "pipe"], timeout: o.timeoutMs ?? 60_000 });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      o.onStderr?.(stderr);
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (signal) reject(new Error(`mem ${args.join(" ")} killed by ${signal}\nstdout: ${stdout}\nstderr: ${stderr}`));
      else resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(o.input ?? "");
  });
}

export const show = (r: Run) => `exit ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;

/** The one JSON line a `--json` command printed. */
export function jsonOf<T = unknown>(r: Run): T {
  const out = r.stdout.split("\n").filter((l) => l.trim() !== "");
  assert.equal(out.length, 1, `exactly one JSON line expected\n${show(r)}`);
  return JSON.parse(out[0]!) as T;
}

export interface Check {
  name: string;
  status: "ok" | "warn" | "error";
  detail: string;
  fix?: string;
}

