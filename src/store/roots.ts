import { asStoredRow, type Clean, type CleanFields } from "../redact/clean.cjs";
import type { Db } from "./db.js";

export interface RootRow {
  project: string;
  path: string;
  added_at: number;
}

/** Records the roots a project is indexed from (first time seen kept), so a repair can re-index by root. */
export function recordRoots(db: Db, project: Clean<string>, paths: readonly Clean<string>[], now: number): void {
  const ins = db.prepare("INSERT OR IGNORE INTO roots (project, path, added_at) VALUES (?, ?, ?)");
  db.transaction(() => {
    for (const p of paths) ins.run(project, p, now);
  }).immediate();
}

/** Every recorded root, as stored (clean). */
export function listRoots(db: Db): CleanFields<RootRow>[] {
  return (db.prepare("SELECT project, path, added_at FROM roots ORDER BY project, path").all() as RootRow[]).map((r) => asStoredRow(r));
}

/**
 * Drops a root from a project's registry with what was indexed under it (sources, their chunks and
 * so their text-index entries): for a root that is gone for good. Their vectors go with the next
 * vector step or purge (rows of chunks that no longer exist). Returns the sources removed.
 */
export function forgetRoot(db: Db, project: string, path: string): number {
  return db.transaction(() => {
    const under = "project = ? AND (path = ? OR substr(path, 1, length(?) + 1) = ? || '/')";
    db.prepare(`DELETE FROM chunks WHERE source_id IN (SELECT id FROM sources WHERE ${under})`).run(project, path, path, path);
    const n = db.prepare(`DELETE FROM sources WHERE ${under}`).run(project, path, path, path).changes;
    db.prepare("DELETE FROM roots WHERE project = ? AND path = ?").run(project, path);
    return n;
  }).immediate();
}

/** The roots one project was indexed from. */
export function rootsOf(db: Db, project: string): string[] {
  return db.prepare("SELECT path FROM roots WHERE project = ? ORDER BY path").pluck().all(project) as string[];
}

/** The projects that recorded `path` as one of their roots (a root indexed again keeps its project). */
export function projectsOfRoot(db: Db, path: string): string[] {
  return db.prepare("SELECT DISTINCT project FROM roots WHERE path = ? ORDER BY project").pluck().all(path) as string[];
}
