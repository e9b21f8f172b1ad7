import { parseSession, pickSession, type PickedSession } from "../render/session-id.js";
import type { Db } from "./db.js";
import { prepared } from "./statements.js";

/** The smallest string above every string that starts with `prefix` (SQLite compares text bytewise). */
const above = (prefix: string) => `${prefix}\u{10ffff}`;

/**
 * The sessions of `project` whose id starts with `start` (its record, a prompt run or an event
 * names it), distinct, at most `limit`: each a range over an index on the session id. Read only.
 */
export function sessionsStartingWith(db: Db, project: string, start: string, limit = 50): string[] {
  const out = new Set<string>();
  const queries = [
    "SELECT session FROM sessions WHERE session >= ? AND session < ? AND project = ? LIMIT ?",
    "SELECT DISTINCT session FROM prompt_runs INDEXED BY prompt_runs_session WHERE session >= ? AND session < ? AND project = ? LIMIT ?",
    "SELECT DISTINCT session FROM events INDEXED BY events_project_session WHERE session >= ? AND session < ? AND project = ? LIMIT ?",
  ];
  for (const q of queries) {
    for (const s of prepared(db, q).pluck().all(start, above(start), project, limit) as (string | null)[]) if (s) out.add(s);
  }
  return [...out].slice(0, limit);
}

/**
 * The one session of `project` a typed id stands for (the whole id, the short form outputs show,
 * or a start of six characters or more), by src/render/session-id.ts's rule. Read only.
 */
export function resolveSession(db: Db, project: string, typed: unknown): PickedSession {
  const parsed = parseSession(typed);
  if (!parsed.ok) return { ok: false, code: "bad_argument", message: parsed.message };
  return pickSession(parsed.input, sessionsStartingWith(db, project, parsed.input.start));
}
