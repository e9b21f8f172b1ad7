import { dataHome } from "../config/paths.cjs";
import { storeFlagged } from "../maintenance/flags.js";
import { isStoreDamage, isStoreUnavailable } from "../store/damage.js";
import { withDeadline } from "../util/deadline.js";
import { hookOutput } from "../contract/assistants.cjs";
import { CAPTURE_HOOKS, DEADLINE_MS, isHookName, malformedCapture, MAX_STDIN_BYTES, parsePayload, type HookName, type Payload } from "../contract/hook.cjs";
import type { HookAnswer } from "./answer.js";
import { storeBusyMs, type HookIO } from "./io.js";
import { hookLog } from "./log.cjs";
import { readStdin, type StdinResult } from "./stdin.cjs";
import { captureViaDaemon } from "./via-daemon.cjs";

export type Handler = (payload: Payload, io: HookIO, deadlineAt: number) => Promise<string | HookAnswer | undefined>;

/** PostToolUse(Failure): through the daemon when one answers, else written here. */
async function captureTool(payload: Payload, io: HookIO): Promise<undefined> {
  if (!io.daemonTried && io.env.MEM_NO_DAEMON !== "1" && (await captureViaDaemon(payload, io.env))) return undefined;
  return (await import("./capture-hooks.js")).postToolUse(payload, io);
}

/** Notification: through the daemon when one answers, else written here. */
async function captureNotice(payload: Payload, io: HookIO): Promise<undefined> {
  if (!io.daemonTried && io.env.MEM_NO_DAEMON !== "1" && (await captureViaDaemon(payload, io.env))) return undefined;
  return (await import("./capture-hooks.js")).notification(payload, io);
}

const HANDLERS: Record<HookName, () => Promise<Handler>> = {
  "session-start": async () => (await import("./session-start.js")).sessionStart,
  "user-prompt-submit": async () => (await import("./user-prompt.js")).userPromptSubmit,
  "post-tool-use": async () => captureTool,
  "post-tool-use-failure": async () => captureTool,
  stop: async () => (await import("./capture-hooks.js")).stop,
  "subagent-stop": async () => (await import("./capture-hooks.js")).stop,
  "pre-compact": async () => (await import("./capture-hooks.js")).preCompact,
  "session-end": async () => (await import("./capture-hooks.js")).sessionEnd,
  "pre-tool-use": async () => (await import("./pre-tool-use.js")).preToolUse,
  notification: async () => captureNotice,
};

/**
 * Answers one hook the way Claude Code expects, from stdin already read (and maybe already parsed):
 * within the hook's deadline, only a valid context object (or nothing), never a failure. Returns
 * the line to print.
 */
export async function answerHook(name: HookName, input: StdinResult, io: HookIO, deadlineAt: number, parsed?: Payload): Promise<string | undefined> {
  let payload: Payload | undefined;
  try {
    if (input.truncated) {
      hookLog(io.env, `${name}: stdin over ${MAX_STDIN_BYTES} bytes dropped`);
      return undefined;
    }
    payload = parsed ?? parsePayload(input.text);
    if (!payload) {
      hookLog(io.env, `${name}: stdin is not a JSON object (${input.text.length} chars${input.timedOut ? ", timed out" : ""}); ignored`);
      return undefined;
    }
    const malformed = CAPTURE_HOOKS.has(name) ? malformedCapture(payload) : undefined;
    if (malformed) {
      hookLog(io.env, `${name}: ${malformed}`);
      return undefined;
    }
    const handler = await HANDLERS[name]();
    io = { ...io, storeBusyMs: storeBusyMs(deadlineAt, Date.now()) };
    let finished = false;
    const text = await withDeadline(
      handler(payload, io, deadlineAt).then((t) => {
        finished = true;
        return t;
      }),
      deadlineAt - Date.now(),
      () => hookLog(io.env, `${name}: deadline of ${DEADLINE_MS[name]} ms reached; answered nothing`),
    );
    // The store worked for this hook: a damage marker left earlier goes, captures spooled meanwhile are replayed.
    if (finished && name !== "user-prompt-submit" && name !== "pre-tool-use" && storeFlagged(dataHome(io.env))) {
      await (await import("../maintenance/hook-damage.js")).storeWorks(name, io.env, deadlineAt - 500).catch((e: Error) => hookLog(io.env, `${name}: ${e.stack ?? String(e)}`));
    }
    const answer = typeof text === "object" ? text : { context: text };
    return hookOutput(io.adapter, name, answer.context, answer.notice);
  } catch (err) {
    let failure: unknown = err; // the error to log: the store-damage handling's own, if it failed
    if (isStoreDamage(err)) {
      try {
        return hookOutput(io.adapter, name, (await import("../maintenance/hook-damage.js")).storeDamaged(name, err, payload, io.env, (io.now ?? Date.now)()));
      } catch (e) {
        failure = e;
      }
    } else if (isStoreUnavailable(err)) {
      // Locked, busy, a disk error: the capture is kept for later rather than lost.
      try {
        if ((await import("../maintenance/hook-damage.js")).storeUnavailable(name, err, payload, io.env, (io.now ?? Date.now)())) return undefined;
      } catch (e) {
        failure = e;
      }
    }
    hookLog(io.env, `${name}: ${(failure as Error).stack ?? String(failure)}`);
    return undefined;
  }
}

/**
 * Runs one hook from a stdin stream (`mem hook` through the CLI, and tests). Claude Code's own
 * spawns go through entry.cts, which reads stdin itself and ends here only when needed.
 * Returns the exit status, which is always 0.
 */
export async function runHook(name: string, io: HookIO & { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream }): Promise<0> {
  if (!isHookName(name)) {
    hookLog(io.env, `unknown hook "${name}" ignored`);
    return 0;
  }
  const deadlineAt = Date.now() + DEADLINE_MS[name];
  const input = await readStdin(io.stdin, MAX_STDIN_BYTES, DEADLINE_MS[name] / 2);
  const after: (() => Promise<void>)[] = [];
  const out = await answerHook(name, input, { ...io, afterAnswer: io.afterAnswer ?? ((w) => after.push(w)) }, deadlineAt);
  if (out) io.stdout.write(`${out}\n`);
  for (const work of after) await work(); // as entry.cts does: once answered
  return 0;
}
