/**
 * The explorer's reads of sessions: a project's sessions with what each holds (prompts, events,
 * decisions), and one session's timeline (its briefing, its prompt runs, its captured events) in
 * time order, a page at a time. Every query is bounded by an index (sessions by project and
 * activity, events by project and session, the prompt log by session), so a page costs the same on
 * a large store. Reads only.
 */
import type { Db } from "./db.js";
import { parseList } from "./prompt-log.js";
import { prepared } from "./statements.js";

export interface SessionSummaryRow {
  session: string;
  startedAt: number | null;
  endedAt: number | null;
  endReason: string | null;
  updatedAt: number;
  prompts: number;
  events: number;
  decisions: number;
  /** Its first event's `metadata.assistant` as stored (unchecked: the page shows only a known one's label). */
  assistant: unknown;
}

/** A project's sessions, the most recently active first, paged, with their counts. */
export function sessionsPage(db: Db, project: string, limit: number, offset: number): { total: number; sessions: SessionSummaryRow[] } {
  const total = prepared(db, "SELECT count(*) FROM sessions WHERE project = ?").pluck().get(project) as number;
  const rows = prepared(
    db,
    `SELECT s.session, s.started_at AS startedAt, s.ended_at AS endedAt, s.end_reason AS endReason, s.updated_at AS updatedAt,
       (SELECT count(*) FROM prompt_runs p INDEXED BY prompt_runs_session WHERE p.session = s.session AND p.project = s.project AND p.hook = 'prompt') AS prompts,
       (SELECT count(*) FROM events e WHERE e.project = s.project AND e.session = s.session AND e.deleted_at IS NULL) AS events,
       (SELECT count(*) FROM events e INDEXED BY events_project_session WHERE e.project = s.project AND e.session = s.session AND e.type = 'decision' AND e.deleted_at IS NULL) AS decisions,
       (SELECT json_extract(e.metadata, '$.assistant') FROM events e INDEXED BY events_project_session WHERE e.project = s.project AND e.session = s.session ORDER BY e.time LIMIT 1) AS assistant
     FROM sessions s INDEXED BY sessions_project WHERE s.project = ? ORDER BY s.updated_at DESC LIMIT ? OFFSET ?`,
  ).all(project, limit, offset) as SessionSummaryRow[];
  return { total, sessions: rows };
}

/** Whether `project` knows session `session` (its record, a prompt run or an event). */
export function sessionKnown(db: Db, project: string, session: string): boolean {
  return (
    prepared(db, "SELECT 1 FROM sessions WHERE session = ? AND project = ?").get(session, project) !== undefined ||
    prepared(db, "SELECT 1 FROM prompt_runs INDEXED BY prompt_runs_session WHERE session = ? AND project = ? LIMIT 1").get(session, project) !== undefined ||
    prepared(db, "SELECT 1 FROM events INDEXED BY events_project_session WHERE project = ? AND session = ? LIMIT 1").get(project, session) !== undefined
  );
}

/** One moment of a session: a run of the prompt log (a briefing or a prompt) or a captured event. */
export type TimelineItem =
  | { kind: "run"; at: number; run: number; hook: "prompt" | "briefing" | "pretool"; prompt: string; ms: number | null; injected: string | null; items: number }
  | { kind: "event"; at: number; id: string; type: string; text: string; files: string };

interface Row {
  src: string;
  at: number;
  key: string;
  type: string;
  text: string;
  ms: number | null;
  injected: string | null;
  extra: string;
}

/** ISO time in ms since the epoch, in SQL (events keep ISO text, the prompt log ms). */
const MS = "CAST(round((julianday(time) - 2440587.5) * 86400000) AS INTEGER)";

/** A session's timeline in time order (a briefing first among equals, then prompts, then events), paged. */
export function sessionTimeline(db: Db, project: string, session: string, limit: number, offset: number): { total: number; items: TimelineItem[] } {
  const total =
    (prepared(db, "SELECT count(*) FROM prompt_runs INDEXED BY prompt_runs_session WHERE session = ? AND project = ?").pluck().get(session, project) as number) +
    (prepared(db, "SELECT count(*) FROM events INDEXED BY events_project_session WHERE project = ? AND session = ? AND deleted_at IS NULL").pluck().get(project, session) as number);
  const rows = prepared(
    db,
    `SELECT 'run' AS src, CASE hook WHEN 'briefing' THEN 0 ELSE 1 END AS ord, id AS n, at, CAST(id AS TEXT) AS key, hook AS type, prompt AS text, ms, injected, ids AS extra
       FROM prompt_runs INDEXED BY prompt_runs_session WHERE session = ? AND project = ?
     UNION ALL
     SELECT 'event', 2, rowid, ${MS}, id, type, text, NULL, NULL, files
       FROM events INDEXED BY events_project_session WHERE project = ? AND session = ? AND deleted_at IS NULL
     ORDER BY at, ord, n LIMIT ? OFFSET ?`,
  ).all(session, project, project, session, limit, offset) as Row[];
  const items = rows.map((r): TimelineItem => {
    if (r.src === "event") return { kind: "event", at: r.at, id: r.key, type: r.type, text: r.text, files: r.extra };
    // A damaged row's list reads as empty: no count.
    return { kind: "run", at: r.at, run: Number(r.key), hook: r.type === "briefing" || r.type === "pretool" ? r.type : "prompt", prompt: r.text, ms: r.ms, injected: r.injected, items: parseList(r.extra).length };
  });
  return { total, items };
}
