import { dataHome } from "../config/paths.cjs";
import { str, type Payload } from "../contract/hook.cjs";
import type { HookAnswer } from "./answer.js";
import { briefRequest, briefViaDaemon } from "./brief-client.cjs";
import type { HookIO } from "./io.js";
import { nudgedRecently } from "./nudge-stamp.cjs";

/**
 * SessionStart: the briefing, from the warm daemon when one answers (src/hooks/brief-client.cts;
 * the hook entry usually asked it already, and this runs only when it did not brief), else made
 * here (src/hooks/session-brief.ts: the same function, so the same bytes). This module stays
 * light: the store is opened only when the daemon did not brief.
 */
export async function sessionStart(payload: Payload, io: HookIO): Promise<HookAnswer> {
  const req = briefRequest(payload, io.env);
  const viaDaemon = io.env.MEM_NO_DAEMON !== "1" && !io.daemonTried ? await briefViaDaemon(req, io.env) : { answered: false as const };
  const briefing = viaDaemon.answered ? viaDaemon.text : await (await import("./session-brief.js")).briefInProcess(req, io);
  // Hooks an older mem installed: the user is told (not the model), at most once a day; in Claude Code only (the notice is about its settings).
  // (The stamp is looked at first: the nudge's modules are loaded only when a check is due.)
  const now = (io.now ?? Date.now)();
  const home = dataHome(io.env);
  const notice = req.source === "startup" && !io.adapter && !nudgedRecently(home, now) ? (await import("./install-nudge.js")).installNudge({ env: io.env, cwd: str(payload, "cwd") ?? process.cwd(), home, now }) : undefined;
  return { context: briefing, ...(notice ? { notice } : {}) };
}
