import type { Clean } from "../redact/clean.cjs";
import type { Db } from "./db.js";

export type RunStatus = "ok" | "vector-skipped" | "failed";

/** Records the start of an index run; returns its id. */
export function startRun(db: Db, project: Clean<string>, now: number): number {
  return Number(db.prepare("INSERT INTO runs (project, started_at, status) VALUES (?, ?, 'running')").run(project, now).lastInsertRowid);
}

/** Records how a run ended; the summary (counts, warnings naming files) comes through the redaction boundary. */
export function finishRun(db: Db, id: number, status: RunStatus, summary: Clean<Record<string, unknown>>, now: number): void {
  db.prepare("UPDATE runs SET finished_at = ?, status = ?, summary = ? WHERE id = ?").run(now, status, JSON.stringify(summary), id);
}
