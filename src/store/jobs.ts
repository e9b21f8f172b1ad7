import { asStoredRow, type Clean, type CleanFields } from "../redact/clean.cjs";
import type { Db } from "./db.js";

/**
 * Maintenance job runs (`maintenance_runs`): the weekly `mem reindex` records its start, then how it
 * ended, what went wrong (problems: a missing root, a skipped vector step) and its summary. What is
 * written (problems and the summary name paths) comes through the redaction boundary.
 */
export type JobStatus = "running" | "ok" | "failed";

export interface JobRow {
  id: number;
  job: string;
  started_at: number;
  finished_at: number | null;
  status: JobStatus;
  /** JSON: a list of strings. */
  problems: string;
  /** JSON object. */
  summary: string;
}

/** Records the start of a job; returns its id. */
export function startJob(db: Db, job: Clean<string>, now: number): number {
  return Number(db.prepare("INSERT INTO maintenance_runs (job, started_at, status) VALUES (?, ?, 'running')").run(job, now).lastInsertRowid);
}

/** Records how a job ended: ok, or failed with its problems. */
export function finishJob(db: Db, id: number, status: Exclude<JobStatus, "running">, problems: Clean<string[]>, summary: Clean<Record<string, unknown>>, now: number): void {
  db.prepare("UPDATE maintenance_runs SET finished_at = ?, status = ?, problems = ?, summary = ? WHERE id = ?").run(now, status, JSON.stringify(problems), JSON.stringify(summary), id);
}

/** The last run of `job` that finished (a run still going, or killed, is not an outcome). */
export function lastFinishedJob(db: Db, job: string): CleanFields<JobRow> | undefined {
  const r = db.prepare("SELECT * FROM maintenance_runs WHERE job = ? AND finished_at IS NOT NULL ORDER BY id DESC LIMIT 1").get(job) as JobRow | undefined;
  return r ? asStoredRow(r) : undefined;
}

/** The last run of `job`, finished or not. */
export function lastJob(db: Db, job: string): CleanFields<JobRow> | undefined {
  const r = db.prepare("SELECT * FROM maintenance_runs WHERE job = ? ORDER BY id DESC LIMIT 1").get(job) as JobRow | undefined;
  return r ? asStoredRow(r) : undefined;
}
