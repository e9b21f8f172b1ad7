/**
 * The hot-path hooks as the warm daemon answers them: a prompt's memories and a tool call's
 * capture. CommonJS with no heavy import, shared by the hook entry (entry.cts) and the full
 * runner's handlers (user-prompt.ts, run.ts) so both ask the daemon the same way.
 */
import { join, resolve } from "node:path";
import { dataHome } from "../config/paths.cjs";
import { inRange, RANGES } from "../config/ranges.cjs";
import { ask, type Dial } from "../daemon/client.cjs";
import { skipReason } from "../inject/prompt-filter.cjs";
import type { PromptRequest } from "../inject/for-prompt.js";
import { HOOK_EVENTS, PRETOOL_TOOLS, str, type HookName, type Payload } from "../contract/hook.cjs";
import { hookLog } from "./log.cjs";
import { readRegular } from "../util/read-regular.cjs";

/** How long a capture waits for the daemon before writing the event itself. */
export const CAPTURE_BUDGET_MS = 1_000;
export const DEFAULT_CLIENT_BUDGET_MS = 250;

/**
 * `daemon.clientBudgetMs` from the config file, read without loading the config module. A
 * config.json that is not a regular file of at most 1 MiB (a FIFO would block the hook) gives
 * the default, as an unreadable one or a value out of its range does.
 */
export function clientBudget(home: string): number {
  try {
    const read = readRegular(join(home, "config.json"), 1024 * 1024);
    if (!read.ok) return DEFAULT_CLIENT_BUDGET_MS;
    const c = JSON.parse(read.data.toString("utf8")) as { daemon?: { clientBudgetMs?: unknown } };
    const v = c.daemon?.clientBudgetMs;
    return typeof v === "number" && inRange(v, RANGES["daemon.clientBudgetMs"]!) ? v : DEFAULT_CLIENT_BUDGET_MS;
  } catch {
    return DEFAULT_CLIENT_BUDGET_MS;
  }
}

/** The request for a UserPromptSubmit payload; undefined when the prompt needs no memory. */
export function promptRequest(payload: Payload): PromptRequest | undefined {
  const prompt = str(payload, "prompt");
  if (!prompt || skipReason(prompt)) return undefined;
  // Absolute before it leaves the hook (whose directory is the session's): the daemon takes no relative cwd.
  return { prompt, cwd: resolve(str(payload, "cwd") ?? "."), session: str(payload, "session_id") ?? "" };
}

/** The capture event a tool, stop or notification payload is filed under. */
export function captureEvent(payload: Payload): string {
  const named = payload.hook_event_name;
  return named === "Stop" || named === "SubagentStop" || named === "Notification" || named === HOOK_EVENTS["post-tool-use-failure"] ? named : HOOK_EVENTS["post-tool-use"];
}

/** `pretool.budgetMs`'s default: what one tool call may wait for the check. */
export const DEFAULT_PRETOOL_BUDGET_MS = 150;

/** `pretool.budgetMs` from the config file, read as `clientBudget` reads its own. */
export function pretoolBudget(home: string): number {
  try {
    const read = readRegular(join(home, "config.json"), 1024 * 1024);
    if (!read.ok) return DEFAULT_PRETOOL_BUDGET_MS;
    const c = JSON.parse(read.data.toString("utf8")) as { pretool?: { budgetMs?: unknown } };
    const v = c.pretool?.budgetMs;
    return typeof v === "number" && inRange(v, RANGES["pretool.budgetMs"]!) ? v : DEFAULT_PRETOOL_BUDGET_MS;
  } catch {
    return DEFAULT_PRETOOL_BUDGET_MS;
  }
}

/** What the pre-tool check is asked about one tool call (src/inject/pretool-check.ts). */
export interface PretoolRequest {
  cwd: string;
  session: string;
  tool: string;
  input: Record<string, unknown>;
}

/** The request for a PreToolUse payload; undefined for a tool the check leaves alone (or no input). */
export function pretoolRequest(payload: Payload): PretoolRequest | undefined {
  const tool = str(payload, "tool_name");
  const input = payload.tool_input;
  if (!tool || !PRETOOL_TOOLS.has(tool) || input === null || typeof input !== "object" || Array.isArray(input)) return undefined;
  return { cwd: resolve(str(payload, "cwd") ?? "."), session: str(payload, "session_id") ?? "", tool, input: input as Record<string, unknown> };
}

/**
 * What the daemon is asked for a hot hook's payload, shared by the Node client (entry.cts) and the
 * daemon's HTTP socket for the curl client (src/daemon/hook-http.ts): a prompt's request, a
 * capture, or nothing to ask (a prompt that needs no memory, a forced continuation of a stop).
 */
export type HookAsk = { kind: "none" } | { kind: "prompt"; req: PromptRequest } | { kind: "pretool"; req: PretoolRequest } | { kind: "capture"; event: string; payload: Payload };

export function hookAsk(name: HookName, payload: Payload): HookAsk {
  if ((name === "stop" || name === "subagent-stop") && payload.stop_hook_active === true) return { kind: "none" };
  if (name === "pre-tool-use") {
    const req = pretoolRequest(payload);
    return req ? { kind: "pretool", req } : { kind: "none" };
  }
  if (name !== "user-prompt-submit") return { kind: "capture", event: captureEvent(payload), payload };
  const req = promptRequest(payload);
  return req ? { kind: "prompt", req } : { kind: "none" };
}

export type PromptOutcome = { answered: true; text?: string } | { answered: false };

/**
 * Asks the daemon, waiting at most `daemon.clientBudgetMs`. A daemon that is there but slow
 * counts as answered (with nothing: the prompt goes on without memories); only a missing or
 * broken daemon leaves the prompt to the in-process fallback.
 */
export async function promptViaDaemon(req: PromptRequest, env: NodeJS.ProcessEnv, dial?: Dial): Promise<PromptOutcome> {
  const home = dataHome(env);
  const budget = clientBudget(home);
  const r = await ask(home, { op: "prompt", ...req }, budget, dial);
  switch (r.kind) {
    case "reply":
      if (!r.reply.ok) hookLog(env, `user-prompt-submit: the daemon failed: ${r.reply.error}`);
      return r.reply.ok && typeof r.reply.text === "string" ? { answered: true, text: r.reply.text } : { answered: true };
    case "timeout":
      hookLog(env, `user-prompt-submit: the daemon did not answer within ${budget} ms; injected nothing`);
      return { answered: true };
    case "error":
      hookLog(env, `user-prompt-submit: daemon error: ${r.error}`);
      return { answered: false };
    case "refused":
      hookLog(env, `user-prompt-submit: refused the daemon's socket (${r.reason}); nothing sent, answered in-process`);
      return { answered: false };
    case "absent":
      return { answered: false };
  }
}

/**
 * The pre-tool check through the daemon, waiting at most `pretool.budgetMs`. As for a prompt, a
 * daemon that is there but slow counts as answered (with nothing: the tool call goes on unwarned).
 */
export async function pretoolViaDaemon(req: PretoolRequest, env: NodeJS.ProcessEnv, dial?: Dial): Promise<PromptOutcome> {
  const home = dataHome(env);
  const budget = pretoolBudget(home);
  const r = await ask(home, { op: "pretool", ...req }, budget, dial);
  switch (r.kind) {
    case "reply":
      if (!r.reply.ok) hookLog(env, `pre-tool-use: the daemon failed: ${r.reply.error}`);
      return r.reply.ok && typeof r.reply.text === "string" ? { answered: true, text: r.reply.text } : { answered: true };
    case "timeout":
      hookLog(env, `pre-tool-use: the daemon did not answer within ${budget} ms; no check`);
      return { answered: true };
    case "refused":
      hookLog(env, `pre-tool-use: refused the daemon's socket (${r.reason}); nothing sent`);
      return { answered: false };
    default:
      return { answered: false };
  }
}

/**
 * PostToolUse / PostToolUseFailure, Stop / SubagentStop, Notification through the daemon, which makes what they
 * capture durable in SQLite before it replies. False when the hook must write the event itself (no daemon, or no reply in
 * time); capture is idempotent on the tool_use_id, so a late daemon write and ours never make two.
 */
export async function captureViaDaemon(payload: Payload, env: NodeJS.ProcessEnv, dial?: Dial): Promise<boolean> {
  const r = await ask(dataHome(env), { op: "capture", event: captureEvent(payload), payload }, CAPTURE_BUDGET_MS, dial);
  return r.kind === "reply" && (r.reply.ok || r.reply.code === "malformed"); // malformed: refused and logged by the daemon, for good
}
