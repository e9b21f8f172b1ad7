/** Spawning processes as Claude Code does (a new process, JSON on stdin), for the benchmarks. */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { currentTarget } from "../../src/install/target.js";
import { commandHandlerFor, MEM_HOOKS } from "../../src/install/hooks.js";

/** bin/mem.cjs of this checkout (from dist/scripts/bench/). */
export const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));

export interface Ran {
  ms: number;
  stdout: string;
  code: number | null;
}

/** Runs `command args` with `input` on stdin; resolves with its wall time and stdout. */
export function run(args: string[], input: string, env: NodeJS.ProcessEnv, command = process.execPath, cwd?: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(command, args, { env, stdio: ["pipe", "pipe", "ignore"], ...(cwd ? { cwd } : {}) });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ ms: performance.now() - t, stdout, code }));
    child.stdin.on("error", () => undefined); // a child that exits before reading its stdin (node -e 0) is not a failure
    child.stdin.end(input);
  });
}

/** Runs hook `name` the way `mem install` would register it in `env` (directly, or through bin/mem-hook.sh). */
export function runHook(name: string, input: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  const h = commandHandlerFor(MEM_HOOKS.find((x) => x.name === name)!, { ...currentTarget(env), bin: BIN });
  return run(h.args, input, env, h.command);
}

/** The `additionalContext` a hook printed, or "" when it printed none. */
export function additionalContext(stdout: string): string {
  if (!stdout.trim()) return "";
  try {
    const o = JSON.parse(stdout) as { hookSpecificOutput?: { additionalContext?: unknown } };
    const c = o.hookSpecificOutput?.additionalContext;
    return typeof c === "string" ? c : "";
  } catch {
    return "";
  }
}
