/**
 * The Claude Code session a call of `mem mcp` belongs to, for what it stores (MCP `remember`), so
 * an explicit memory converges with the session's edits as a `[MEMORY: …]` tag does.
 *
 * What Claude Code gives (code.claude.com/docs/en/env-vars, `CLAUDE_CODE_SESSION_ID`; since
 * 2.1.154, and on `--resume` since 2.1.163): a stdio MCP server is started with
 * `CLAUDE_CODE_SESSION_ID`, the `session_id` its hooks see, and `CLAUDECODE=1`. The server keeps
 * the id it was started with: after `/clear` the hooks see a new session, the server still the
 * old one; on `--continue` it may be the first id of the run. So, at each call:
 *   1. the id from the environment (only with `CLAUDECODE=1`: a value left in a user's shell is
 *      not a session), then, while the hooks recorded that session ending by `/clear` and exactly
 *      one session of the project starting at that moment (within `CLEAR_GAP_MS`), that one;
 *   2. without it (an older Claude Code, a plugin's server, which reportedly is not given it,
 *      anthropics/claude-code#61752; a server started by hand): the one session of the project the
 *      hooks saw active within the window (`memory.convergeWindowMs`) and not ended, when there
 *      is exactly one; several at once are two stories, so none is guessed.
 * Undefined: the memory is stored with no session, as before. Pure.
 */
import type { SessionRow } from "../store/sessions.js";

export { sessionFromEnv } from "../capture/claude-env.js";

/** How soon after a session ended by `/clear` its successor starts (SessionEnd, then SessionStart). */
export const CLEAR_GAP_MS = 15_000;

export type SessionSeen = Pick<SessionRow, "session" | "started_at" | "ended_at" | "end_reason" | "updated_at">;

/** The session to record (see above), from the environment's id and the project's sessions the hooks recorded. */
export function pickSession(fromEnv: string | undefined, seen: readonly SessionSeen[], now: number, windowMs: number): string | undefined {
  if (fromEnv !== undefined) {
    let id = fromEnv;
    const visited = new Set([id]);
    for (;;) {
      const row = seen.find((s) => s.session === id);
      if (!row || row.end_reason !== "clear" || row.ended_at === null) return id;
      const ended = row.ended_at;
      const next = seen.filter((s) => s.session !== id && s.started_at !== null && s.started_at >= ended - 1_000 && s.started_at <= ended + CLEAR_GAP_MS);
      if (next.length !== 1 || visited.has(next[0]!.session)) return id;
      id = next[0]!.session;
      visited.add(id);
    }
  }
  const active = seen.filter((s) => s.ended_at === null && now - s.updated_at <= windowMs && s.updated_at <= now + 60_000);
  return active.length === 1 ? active[0]!.session : undefined;
}
