/**
 * The daemon's `brief` request: the SessionStart briefing, made by the same function the hook
 * runs in-process (src/hooks/session-brief.ts), on the daemon's warm store. Only its main socket
 * takes it (the one socket-guard.cts checks: this user's, 0600, in a private directory). The
 * request is checked as any outside input: a field of the wrong type or size is refused, and the
 * hook then briefs in-process. What the briefing showed is recorded only once the reply reached
 * the hook (a hook past its wait briefs itself and records its own). A briefing made shows the
 * store works: a damage marker goes and the spooled captures are written, as after an in-process hook.
 */
import type { App } from "../app.js";
import { briefSession, type BriefRequest } from "../hooks/session-brief.js";
import { storeFlagged } from "../maintenance/flags.js";
import { isAbsolutePath } from "../util/absolute.cjs";

const USER_KEYS = new Set(["MEM_USER", "USER", "LOGNAME", "USERNAME"]);
const MAX_FIELD = 4_096;

/** The request as the daemon takes it, or why not. Pure. */
export function briefRequestOf(req: Record<string, unknown>): BriefRequest | { error: string } {
  const { cwd, session, source, transcript, userEnv } = req;
  if (typeof cwd !== "string" || !isAbsolutePath(cwd) || cwd.length > MAX_FIELD) return { error: "cwd must be an absolute path" };
  if (typeof session !== "string" || session.length > MAX_FIELD) return { error: "session must be a string" };
  if (typeof source !== "string" || source.length > 40) return { error: "source must be a string" };
  if (transcript !== undefined && (typeof transcript !== "string" || !isAbsolutePath(transcript) || transcript.length > MAX_FIELD)) return { error: "transcript must be an absolute path" };
  if (userEnv === null || typeof userEnv !== "object" || Array.isArray(userEnv)) return { error: "userEnv must be an object" };
  const users: Record<string, string> = {};
  for (const [k, v] of Object.entries(userEnv)) {
    if (!USER_KEYS.has(k) || typeof v !== "string" || v.length > 256) return { error: `userEnv.${k.slice(0, 40)} is not accepted` };
    users[k] = v;
  }
  return { cwd, session, source, ...(transcript !== undefined ? { transcript } : {}), userEnv: users };
}

export interface BriefOpContext {
  app: App;
  log: (line: string) => void;
  /** Run after the reply went (a decision folder a pull created is looked for). */
  after?: (cwd: string) => void;
}

export async function answerBrief(ctx: BriefOpContext, req: Record<string, unknown>, delivered: (then: () => void) => void): Promise<Record<string, unknown>> {
  const r = briefRequestOf(req);
  if ("error" in r) return { ok: false, error: r.error };
  const t0 = performance.now();
  const b = await briefSession(ctx.app, r, Date.now(), (l) => ctx.log(`session-start: ${l}`));
  delivered(b.record);
  if (ctx.after) setTimeout(() => ctx.after!(r.cwd), 5).unref();
  setTimeout(() => void storeWorksAfterBrief(ctx.app.paths.home, ctx.log), 5).unref();
  return { ok: true, ...(b.briefing !== undefined ? { text: b.briefing } : {}), ms: Math.round((performance.now() - t0) * 100) / 100 };
}

/** How long the daemon gives the spool's replay after a briefing (the in-process path has what is left of the hook's 5 s). */
const REPLAY_MS = 30_000;
/** Data homes whose marker and spool are being seen to: one replay at a time (it takes the spool under this process's id). */
const seeing = new Set<string>();

/**
 * The briefing was made on the store, so the store works: the damage marker an earlier hook left
 * goes and the captures spooled meanwhile are written (src/maintenance/hook-damage.ts storeWorks,
 * what src/hooks/run.ts does after a hook in-process), not left for the next in-process hook. Run
 * after the reply; cheap when nothing waits (two file checks); never throws.
 */
export async function storeWorksAfterBrief(home: string, log: (line: string) => void): Promise<void> {
  if (seeing.has(home) || !storeFlagged(home)) return;
  seeing.add(home);
  try {
    const { storeWorks } = await import("../maintenance/hook-damage.js");
    await storeWorks("session-start", { ...process.env, MEM_HOME: home }, Date.now() + REPLAY_MS);
  } catch (err) {
    log(`session-start: the damage marker and the spool were not seen to: ${(err as Error).message}`);
  } finally {
    seeing.delete(home);
  }
}
