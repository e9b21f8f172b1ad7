import { isAbsolute, resolve } from "node:path";
import { dataHome } from "../config/paths.cjs";
import { str, type Payload } from "../contract/hook.cjs";
import { ask, type Dial } from "../daemon/client.cjs";
import type { HookAnswer } from "./answer.js";
import type { HookIO } from "./io.js";
import { hookLog } from "./log.cjs";
import { nudgedRecently } from "./nudge-stamp.js";
import type { BriefRequest } from "./session-brief.js";

/** How long SessionStart waits for the daemon's briefing before making it itself (its deadline is 5 s). */
export const DAEMON_BRIEF_MS = 1_500;
/** The environment variables that say who the current user is (src/tiers/user.ts): sent along, as the daemon's own may differ. */
const USER_ENV = ["MEM_USER", "USER", "LOGNAME", "USERNAME"] as const;

/** The briefing's request from a SessionStart payload: the directory made absolute before it leaves the hook. */
export function briefRequest(payload: Payload, env: NodeJS.ProcessEnv): BriefRequest {
  const transcript = str(payload, "transcript_path");
  const userEnv: BriefRequest["userEnv"] = {};
  for (const k of USER_ENV) if (typeof env[k] === "string") userEnv[k] = env[k];
  return { cwd: resolve(str(payload, "cwd") ?? "."), session: str(payload, "session_id") ?? "", source: str(payload, "source") ?? "startup", ...(transcript ? { transcript } : {}), userEnv };
}

export type BriefOutcome = { answered: true; text?: string } | { answered: false };

/**
 * Asks the warm daemon for the briefing, waiting at most DAEMON_BRIEF_MS. Anything but its
 * briefing (no daemon, a socket that may not be ours, a failure, no reply in time) leaves the
 * briefing to this process. A relative transcript path is not sent (the daemon's directory is not the session's).
 */
export async function briefViaDaemon(req: BriefRequest, env: NodeJS.ProcessEnv, budgetMs = DAEMON_BRIEF_MS, dial?: Dial): Promise<BriefOutcome> {
  if (req.transcript !== undefined && !isAbsolute(req.transcript)) return { answered: false };
  const r = await ask(dataHome(env), { op: "brief", ...req }, budgetMs, dial);
  switch (r.kind) {
    case "reply":
      if (r.reply.ok) return typeof r.reply.text === "string" ? { answered: true, text: r.reply.text } : { answered: true };
      hookLog(env, `session-start: the daemon failed: ${r.reply.error}; briefed in-process`);
      return { answered: false };
    case "timeout":
      hookLog(env, `session-start: the daemon did not brief within ${budgetMs} ms; briefed in-process`);
      return { answered: false };
    case "error":
      hookLog(env, `session-start: daemon error: ${r.error}; briefed in-process`);
      return { answered: false };
    case "refused":
      hookLog(env, `session-start: refused the daemon's socket (${r.reason}); nothing sent, briefed in-process`);
      return { answered: false };
    case "absent":
      return { answered: false };
  }
}

/**
 * SessionStart: the briefing, from the warm daemon when one answers, else made here
 * (src/hooks/session-brief.ts: the same function, so the same bytes). This module stays light:
 * the store is opened only when the daemon did not brief.
 */
export async function sessionStart(payload: Payload, io: HookIO): Promise<HookAnswer> {
  const req = briefRequest(payload, io.env);
  const viaDaemon = io.env.MEM_NO_DAEMON !== "1" ? await briefViaDaemon(req, io.env) : { answered: false as const };
  const briefing = viaDaemon.answered ? viaDaemon.text : await (await import("./session-brief.js")).briefInProcess(req, io);
  // Hooks an older mem installed: the user is told (not the model), at most once a day; in Claude Code only (the notice is about its settings).
  // (The stamp is looked at first: the nudge's modules are loaded only when a check is due.)
  const now = (io.now ?? Date.now)();
  const home = dataHome(io.env);
  const notice = req.source === "startup" && !io.adapter && !nudgedRecently(home, now) ? (await import("./install-nudge.js")).installNudge({ env: io.env, cwd: str(payload, "cwd") ?? process.cwd(), home, now }) : undefined;
  return { context: briefing, ...(notice ? { notice } : {}) };
}
