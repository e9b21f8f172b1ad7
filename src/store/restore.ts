import type { Clean } from "../redact/clean.cjs";
import type { Db } from "./db.js";
import type { EventRow } from "./events.js";
import type { SessionRow } from "./sessions.js";

/**
 * Writes what a repair salvaged from a damaged store into a fresh one. Salvaged rows are untrusted
 * input: they come in through the redaction boundary again (`Clean`). Events go in as not yet
 * chunked, so the indexer turns them into chunks and vectors as it does for new captures.
 */

/** An events row as a repair writes it back (not yet chunked). */
export type RestoredEvent = Omit<EventRow, "updated_at" | "client_key">;

/** A sessions row as a repair writes it back. */
export type RestoredSession = Omit<SessionRow, "summary"> & { summary?: string | null };

/** Returns how many events were written (an id already there is kept). */
export function restoreEvents(db: Db, events: Clean<RestoredEvent[]>): number {
  const ins = db.prepare("INSERT OR IGNORE INTO events (id, project, session, type, time, files, text, metadata, chunked, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)");
  return db.transaction(() => events.reduce((n, e) => n + ins.run(e.id, e.project, e.session, e.type, e.time, e.files, e.text, e.metadata, e.deleted_at ?? null).changes, 0)).immediate();
}

export function restoreSessions(db: Db, sessions: Clean<RestoredSession[]>): number {
  const ins = db.prepare(
    "INSERT OR IGNORE INTO sessions (session, project, transcript_path, offset, task_state, started_at, ended_at, end_reason, updated_at, summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  return db.transaction(() => sessions.reduce((n, s) => n + ins.run(s.session, s.project, s.transcript_path, s.offset, s.task_state, s.started_at, s.ended_at, s.end_reason, s.updated_at, typeof s.summary === "string" ? s.summary : null).changes, 0)).immediate();
}

export function restoreRoots(db: Db, roots: Clean<{ project: string; path: string; added_at: number }[]>): void {
  const ins = db.prepare("INSERT OR IGNORE INTO roots (project, path, added_at) VALUES (?, ?, ?)");
  db.transaction(() => {
    for (const r of roots) ins.run(r.project, r.path, r.added_at);
  }).immediate();
}

/** Puts back the tier a file had (re-indexed on its own, its path relative to its old root is unknown). */
export function restoreTier(db: Db, project: Clean<string>, path: Clean<string>, tier: Clean<string>): void {
  db.transaction(() => {
    const id = db.prepare("SELECT id FROM sources WHERE project = ? AND path = ?").pluck().get(project, path) as number | undefined;
    if (id === undefined) return;
    db.prepare("UPDATE sources SET tier = ? WHERE id = ?").run(tier, id);
    db.prepare("UPDATE chunks SET tier = ? WHERE source_id = ?").run(tier, id);
  }).immediate();
}

/** The columns a repair writes back, per smaller table (a damaged file names no column of its own choosing). */
const EXTRA_COLUMNS: Record<string, readonly string[]> = {
  tasks: ["id", "project", "content", "status", "source", "created_session", "created_at", "updated_session", "updated_at", "closed_at", "blocked_reason"],
  task_refs: ["session", "local_id", "task_id"],
  memory_history: ["memory", "version", "at", "kind", "text", "tags"],
  salience: ["chunk_id", "salience", "last_used_at", "uses"],
  links: ["a", "b", "kind", "at"],
  anchors: ["memory", "path", "blob", "branch", "at"],
  prompt_runs: ["id", "at", "session", "project", "hook", "ms", "mode", "prompt", "injected", "ids", "candidates"],
};

/** Writes back the salvaged rows of one of the smaller tables (through the redaction boundary); returns how many went in. */
export function restoreRows(db: Db, table: string, rows: Clean<Record<string, unknown>[]>): number {
  const cols = EXTRA_COLUMNS[table];
  if (!cols || rows.length === 0) return 0;
  const ins = db.prepare(`INSERT OR IGNORE INTO ${table} (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`);
  const n = db.transaction(() => rows.reduce((k, r) => k + ins.run(...cols.map((c) => (r[c] === undefined ? null : r[c]))).changes, 0)).immediate();
  // The task list came back whole: it is not to be built again from the sessions' saved lists.
  if (table === "tasks") db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('tasks-backfilled', ?)").run(String(n));
  return n;
}
