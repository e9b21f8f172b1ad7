import type { Clean } from "../redact/clean.cjs";
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
  })();
}

export function listRoots(db: Db): RootRow[] {
  return db.prepare("SELECT project, path, added_at FROM roots ORDER BY project, path").all() as RootRow[];
}
