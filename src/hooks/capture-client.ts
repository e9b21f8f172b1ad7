/**
 * The PostToolUse / PostToolUseFailure entry point (bin/mem.js routes them here first): the
 * payload goes to the warm daemon, which makes the event durable in SQLite before it replies.
 * With no daemon, or no reply in time, the hook writes it itself (capture is idempotent on the
 * tool_use_id, so a late daemon write and ours never make two events). Always exits 0.
 */
import { dataHome } from "../config/paths.js";
import { ask } from "../daemon/client.js";
import { DEADLINE_MS, HOOK_EVENTS, parsePayload, readStdin } from "./contract.js";
import { hookLog, MAX_STDIN_BYTES } from "./run.js";

export const CAPTURE_BUDGET_MS = 1_000;

export async function captureHook(name: "post-tool-use" | "post-tool-use-failure", env: NodeJS.ProcessEnv = process.env): Promise<0> {
  try {
    const input = await readStdin(process.stdin, MAX_STDIN_BYTES, DEADLINE_MS[name] / 2);
    const payload = input.truncated ? undefined : parsePayload(input.text);
    if (!payload) {
      hookLog(env, `${name}: stdin is not a usable JSON object (${input.text.length} chars); ignored`);
      return 0;
    }
    if (env.MEM_NO_DAEMON !== "1") {
      const r = await ask(dataHome(env), { op: "capture", event: HOOK_EVENTS[name], payload }, CAPTURE_BUDGET_MS);
      if (r.kind === "reply" && r.reply.ok) return 0;
    }
    const { postToolUse } = await import("./capture-hooks.js");
    await postToolUse(payload, { stdin: process.stdin, stdout: process.stdout, env });
  } catch (err) {
    hookLog(env, `${name}: ${(err as Error).stack ?? String(err)}`);
  }
  return 0;
}
