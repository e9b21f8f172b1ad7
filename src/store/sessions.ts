import type { TaskListState } from "../tasks/state.js";
import { asStored, type Clean } from "../redact/clean.cjs";
import type { Db } from "./db.js";
import { prepared } from "./statements.js";

/** What a session did, as src/capture/summary.ts builds it with no LLM and the next briefing shows it. */
export interface SessionSummary {
  /** The first prompts, shortened. */
  goal: string[];
  filesChanged: string[];
  /** Commands that failed and then passed: what was fixed. */
  fixed: string[];
  /** Commands whose last run failed. */
  failing: string[];
  decisions: string[];
  openTasks: number;
  /** ISO time of the last event. */
  lastActivity: string;
  events: number;
}

export interface SessionRow {
  session: string;
  project: string;
  transcript_path: string | null;
  offset: number;
  task_state: string | null;
  started_at: number | null;
  ended_at: number | null;
  end_reason: string | null;
  updated_at: number;
  summary: string | null;
}

/**
 * Per-session capture state: transcript offset, task list, start and end. Everything written comes
 * through the redaction boundary: session ids, paths, reasons and the task list (subjects,
 * descriptions and the inputs of calls still waiting for their result) are `Clean`.
 */
export class SessionStore {
  constructor(readonly db: Db) {}

  get(session: string): SessionRow | undefined {
    return this.db.prepare("SELECT * FROM sessions WHERE session = ?").get(session) as SessionRow | undefined;
  }

  /** Creates the row if missing; never overwrites what is known. */
  touch(session: Clean<string>, project: Clean<string>, now: number, transcriptPath?: Clean<string>): SessionRow {
    this.db
      .prepare(
        `INSERT INTO sessions (session, project, transcript_path, started_at, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(session) DO UPDATE SET updated_at = excluded.updated_at,
           transcript_path = coalesce(sessions.transcript_path, excluded.transcript_path)`,
      )
      .run(session, project, transcriptPath ?? null, now, now);
    return this.get(session)!;
  }

  taskState(row: SessionRow | undefined): Clean<TaskListState> | undefined {
    if (!row?.task_state) return undefined;
    try {
      return asStored(JSON.parse(row.task_state) as TaskListState);
    } catch {
      return undefined;
    }
  }

  saveTasks(session: Clean<string>, state: Clean<TaskListState>, now: number): void {
    this.db.prepare("UPDATE sessions SET task_state = ?, updated_at = ? WHERE session = ?").run(JSON.stringify(state), now, session);
  }

  summaryOf(row: SessionRow | undefined): Clean<SessionSummary> | undefined {
    if (!row?.summary) return undefined;
    try {
      return asStored(JSON.parse(row.summary) as SessionSummary);
    } catch {
      return undefined;
    }
  }

  saveSummary(session: Clean<string>, summary: Clean<SessionSummary>, now: number): void {
    this.db.prepare("UPDATE sessions SET summary = ?, updated_at = ? WHERE session = ?").run(JSON.stringify(summary), now, session);
  }

  /** The latest session of a project other than `except` that has a summary. */
  lastSummarized(project: string, except: string): SessionRow | undefined {
    return this.db.prepare("SELECT * FROM sessions WHERE project = ? AND session != ? AND summary IS NOT NULL ORDER BY updated_at DESC LIMIT 1").get(project, except) as SessionRow | undefined;
  }

  saveOffset(session: Clean<string>, path: Clean<string>, offset: number, now: number): void {
    this.db.prepare("UPDATE sessions SET transcript_path = ?, offset = ?, updated_at = ? WHERE session = ?").run(path, offset, now, session);
  }

  end(session: Clean<string>, reason: Clean<string>, now: number): void {
    this.db.prepare("UPDATE sessions SET ended_at = ?, end_reason = ?, updated_at = ? WHERE session = ?").run(now, reason, now, session);
  }

  /** Most recently active sessions of a project, newest first. */
  recent(project: string, limit: number): SessionRow[] {
    return this.db.prepare("SELECT * FROM sessions WHERE project = ? ORDER BY updated_at DESC LIMIT ?").all(project, limit) as SessionRow[];
  }
}

/** The day (UTC, YYYY-MM-DD) a session began, when the store knows it. */
export function sessionDay(db: Db, session: string): string | undefined {
  const at = prepared(db, "SELECT started_at FROM sessions WHERE session = ?").pluck().get(session) as number | null | undefined;
  return typeof at === "number" && Number.isFinite(at) ? new Date(at).toISOString().slice(0, 10) : undefined;
}

/**
 * A purge's pass over the sessions' own records: a summary or task list that still quotes a
 * forgotten memory (`holds` says; a decision a summary listed, say) loses the items that quote it,
 * overwritten on disk. Returns how many sessions changed.
 */
export function withholdInSessions(db: Db, holds: (text: string) => boolean): number {
  const rows = db.prepare("SELECT session, summary, task_state FROM sessions WHERE summary IS NOT NULL OR task_state IS NOT NULL").all() as { session: string; summary: string | null; task_state: string | null }[];
  const put = db.prepare("UPDATE sessions SET summary = ?, task_state = ? WHERE session = ?");
  const was = db.pragma("secure_delete", { simple: true }) as number;
  db.pragma("secure_delete = ON");
  let n = 0;
  try {
    db.transaction(() => {
      for (const r of rows) {
        const summary = withheldJson(r.summary, holds);
        const tasks = withheldJson(r.task_state, holds);
        if (summary !== r.summary || tasks !== r.task_state) n += put.run(summary, tasks, r.session).changes;
      }
    }).immediate();
  } finally {
    db.pragma(`secure_delete = ${was ? "ON" : "OFF"}`);
  }
  return n;
}

/**
 * A stored JSON value without what `holds` matches: a list's items that quote it (a string, or an
 * item such as a task, with a subject, content or text) dropped, other such strings emptied. The
 * same text when nothing matched; null when it is not JSON.
 */
export function withheldJson(json: string | null, holds: (text: string) => boolean): string | null {
  if (json === null || !holds(json)) return json;
  const quoted = (x: unknown) => (typeof x === "string" ? holds(x) : x !== null && typeof x === "object" && !Array.isArray(x) && isItem(x) && holds(JSON.stringify(x)));
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return holds(v) ? "" : v;
    if (Array.isArray(v)) return v.filter((x) => !quoted(x)).map(walk);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  try {
    return JSON.stringify(walk(JSON.parse(json)));
  } catch {
    return null; // not JSON: dropped whole
  }
}

/** A list item that is one thing (a task: its subject, description), dropped whole when it quotes forgotten text. */
const isItem = (x: object) => "subject" in x || "content" in x || "text" in x;
