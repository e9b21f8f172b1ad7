import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { runHook } from "../../src/hooks/run.js";
import { runChild, type ChildResult } from "../helpers/run-child.js";

/** Runs a hook in-process the way the CLI does (no daemon is started unless env says MEM_NO_DAEMON=0), with the payload on a stream; returns what it printed. */
export async function hook(name: string, payload: unknown, env: NodeJS.ProcessEnv, now?: number): Promise<{ code: number; stdout: string }> {
  let stdout = "";
  const out = new Writable({
    write(chunk: Buffer, _enc, cb) {
      stdout += chunk.toString();
      cb();
    },
  });
  const text = typeof payload === "string" || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload);
  const code = await runHook(name, { stdin: Readable.from([text]), stdout: out, env: { MEM_NO_DAEMON: "1", MEM_WATCH: "0", ...env }, ...(now !== undefined ? { now: () => now } : {}) });
  return { code, stdout };
}

/** Every tool_use id anywhere in a transcript's lines (a raw walk, independent of the extractor). */
export function rawToolUseIds(lines: unknown[]): Set<string> {
  const ids = new Set<string>();
  const walk = (v: unknown, depth: number): void => {
    if (depth > 12 || v === null || typeof v !== "object") return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
      return;
    }
    const o = v as Record<string, unknown>;
    if (o.type === "tool_use" && typeof o.id === "string") ids.add(o.id);
    for (const x of Object.values(o)) walk(x, depth + 1);
  };
  for (const l of lines) walk(l, 0);
  return ids;
}

export const BIN = join(fileURLToPath(new URL("../../../", import.meta.url)), "bin", "mem.cjs");

/** Runs `mem hook NAME` as Claude Code does: a new process, the payload on stdin. */
export function spawnHook(name: string, input: string | Buffer, env: NodeJS.ProcessEnv): Promise<ChildResult> {
  return runChild(process.execPath, [BIN, "hook", name], { env: { PATH: process.env.PATH, MEM_NO_DAEMON: "1", MEM_WATCH: "0", ...env }, timeout: 30_000, input });
}
