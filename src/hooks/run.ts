import { appendFileSync, mkdirSync, statSync, renameSync } from "node:fs";
import { join } from "node:path";
import { dataHome } from "../config/paths.js";
import { contextOutput, DEADLINE_MS, HOOK_EVENTS, isHookName, parsePayload, readStdin, withDeadline, type HookName, type Payload } from "./contract.js";

/** Hook stdin above this is dropped (and logged): a real payload is far smaller. */
export const MAX_STDIN_BYTES = 4 * 1024 * 1024;

export interface HookIO {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  now?: () => number;
}

export type Handler = (payload: Payload, io: HookIO, deadlineAt: number) => Promise<string | undefined>;

const HANDLERS: Record<HookName, () => Promise<Handler>> = {
  "session-start": async () => (await import("./session-start.js")).sessionStart,
  "user-prompt-submit": async () => (await import("./user-prompt.js")).userPromptSubmit,
  "post-tool-use": async () => (await import("./capture-client.js")).captureTool,
  "post-tool-use-failure": async () => (await import("./capture-client.js")).captureTool,
  stop: async () => (await import("./capture-hooks.js")).stop,
  "subagent-stop": async () => (await import("./capture-hooks.js")).stop,
  "pre-compact": async () => (await import("./capture-hooks.js")).preCompact,
  "session-end": async () => (await import("./capture-hooks.js")).sessionEnd,
};

/** Appends one line to `<data home>/hooks.log` (rotated at 1 MiB). Never throws. */
export function hookLog(env: NodeJS.ProcessEnv, line: string): void {
  try {
    const home = dataHome(env);
    mkdirSync(home, { recursive: true });
    const file = join(home, "hooks.log");
    try {
      if (statSync(file).size > 1024 * 1024) renameSync(file, `${file}.1`);
    } catch {
      // no log yet
    }
    appendFileSync(file, `${new Date().toISOString()} ${line.replace(/\s+/g, " ").slice(0, 2000)}\n`);
  } catch {
    // logging must never break a hook
  }
}

/**
 * Runs one hook the way Claude Code expects: reads the payload, answers within the hook's
 * deadline, prints only a valid context object (or nothing), and never fails. Returns the exit
 * status, which is always 0.
 */
export async function runHook(name: string, io: HookIO): Promise<0> {
  if (!isHookName(name)) {
    hookLog(io.env, `unknown hook "${name}" ignored`);
    return 0;
  }
  const started = Date.now();
  const deadlineAt = started + DEADLINE_MS[name];
  try {
    const input = await readStdin(io.stdin, MAX_STDIN_BYTES, DEADLINE_MS[name] / 2);
    if (input.truncated) {
      hookLog(io.env, `${name}: stdin over ${MAX_STDIN_BYTES} bytes dropped`);
      return 0;
    }
    const payload = parsePayload(input.text);
    if (!payload) {
      hookLog(io.env, `${name}: stdin is not a JSON object (${input.text.length} chars${input.timedOut ? ", timed out" : ""}); ignored`);
      return 0;
    }
    const handler = await HANDLERS[name]();
    const text = await withDeadline(handler(payload, io, deadlineAt), deadlineAt - Date.now(), () =>
      hookLog(io.env, `${name}: deadline of ${DEADLINE_MS[name]} ms reached; answered nothing`),
    );
    const out = contextOutput(HOOK_EVENTS[name], text);
    if (out) io.stdout.write(`${out}\n`);
  } catch (err) {
    hookLog(io.env, `${name}: ${(err as Error).stack ?? String(err)}`);
  }
  return 0;
}
