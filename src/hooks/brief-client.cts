/**
 * SessionStart's briefing asked of the warm daemon (src/daemon/briefing-op.ts). CommonJS with no
 * heavy import, shared by the hook entry (entry.cts: the briefing then costs no ESM load and no
 * store) and the runner's handler (session-start.ts), so both ask the same way.
 */
import { isAbsolute, resolve } from "node:path";
import { dataHome } from "../config/paths.cjs";
import type { Adapter } from "../contract/adapter.cjs";
import { hookOutput } from "../contract/assistants.cjs";
import { str, type Payload } from "../contract/hook.cjs";
import { ask, type Dial } from "../daemon/client.cjs";
import { hookLog } from "./log.cjs";
import { nudgedRecently } from "./nudge-stamp.cjs";

/** How long SessionStart waits for the daemon's briefing before making it itself (its deadline is 5 s). */
export const DAEMON_BRIEF_MS = 1_500;

/** The environment variables that say who the current user is (src/tiers/user.ts): sent along, as the daemon's own may differ. */
const USER_ENV = ["MEM_USER", "USER", "LOGNAME", "USERNAME"] as const;

export interface BriefRequest {
  /** The session's directory, absolute. */
  cwd: string;
  session: string;
  /** startup, resume, clear or compact. */
  source: string;
  transcript?: string;
  /** The hook's variables that say who the current user is ($MEM_USER, $USER, $LOGNAME, $USERNAME). */
  userEnv: Record<string, string>;
}

/** The briefing's request from a SessionStart payload: the directory made absolute before it leaves the hook. */
export function briefRequest(payload: Payload, env: NodeJS.ProcessEnv): BriefRequest {
  const transcript = str(payload, "transcript_path");
  const userEnv: Record<string, string> = {};
  for (const k of USER_ENV) {
    const v = env[k];
    if (typeof v === "string") userEnv[k] = v;
  }
  return { cwd: resolve(str(payload, "cwd") ?? "."), session: str(payload, "session_id") ?? "", source: str(payload, "source") ?? "startup", ...(transcript ? { transcript } : {}), userEnv };
}

export type BriefOutcome = { answered: true; text?: string } | { answered: false };

/**
 * Asks the warm daemon for the briefing, waiting at most `budgetMs`. Anything but its briefing
 * (no daemon, a socket that may not be ours, a failure, no reply in time) leaves the briefing to
 * this process. A relative transcript path is not sent (the daemon's directory is not the session's).
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
 * The hook entry's SessionStart: the daemon's briefing as the hook prints it, or `asked: false`
 * when the runner must take it (the older-install notice is due: its check needs the installer's
 * modules), or `out: undefined` when the daemon did not brief (the runner briefs in-process).
 */
export async function briefFromEntry(payload: Payload, env: NodeJS.ProcessEnv, adapter: Adapter | undefined, dial: Dial): Promise<{ asked: boolean; out?: string | null }> {
  const req = briefRequest(payload, env);
  if (req.source === "startup" && !adapter && !nudgedRecently(dataHome(env), Date.now())) return { asked: false };
  const r = await briefViaDaemon(req, env, DAEMON_BRIEF_MS, dial);
  return { asked: true, ...(r.answered ? { out: hookOutput(adapter, "session-start", r.text) ?? null } : {}) };
}
