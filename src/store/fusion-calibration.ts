import { clean, type Clean } from "../redact/clean.cjs";
import type { Db } from "./db.js";
import { prepared } from "./statements.js";

/** What a calibration of a vector leg records (src/retrieve/calibration.ts makes it). */
export interface CalibrationRecord {
  /** How far to trust the leg (0 to 1). */
  weight: number;
  /** Chunks in the project when calibrated (those it was made from: not the cold tier). */
  chunks: number;
  /** Every chunk of the project then, cold ones too (what the next check compares; absent in older rows). */
  total?: number;
  /** Pseudo-queries it rests on. */
  queries: number;
  /** Chunks sampled to make them (absent in rows made before the sample was recorded, of 40). */
  sampled?: number;
  /** The weight in words. */
  reason: string;
}

/** A stored calibration of a vector table's leg in one project. */
export interface StoredCalibration extends CalibrationRecord {
  table: string;
  project: string;
  at: number;
}

/** Records the calibration of `table` in `project` (replacing the last). */
export function saveCalibration(db: Db, table: Clean<string>, project: Clean<string>, c: CalibrationRecord, now: number): void {
  const detail = clean(JSON.stringify(c));
  db.prepare(
    `INSERT INTO fusion_calibration (table_name, project, weight, detail, chunks, at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(table_name, project) DO UPDATE SET weight = excluded.weight, detail = excluded.detail, chunks = excluded.chunks, at = excluded.at`,
  ).run(table, project, c.weight, detail, c.chunks, now);
}

/** The calibrations of `table` in `projects` (every project when undefined). */
export function calibrationsOf(db: Db, table: string, projects?: readonly string[]): StoredCalibration[] {
  const rows = prepared(db, "SELECT table_name, project, detail, at FROM fusion_calibration WHERE table_name = ?").all(table) as { table_name: string; project: string; detail: string; at: number }[];
  const out: StoredCalibration[] = [];
  for (const r of rows) {
    if (projects && !projects.includes(r.project)) continue;
    try {
      out.push({ ...(JSON.parse(r.detail) as CalibrationRecord), table: r.table_name, project: r.project, at: r.at });
    } catch {
      // a damaged row: as if never calibrated (the next index run writes it again)
    }
  }
  return out;
}

/** Records each chunk's shared-direction share in `table` (replacing the project's last). */
export function saveHubs(db: Db, table: Clean<string>, project: Clean<string>, hubs: ReadonlyMap<string, number>): void {
  db.transaction(() => {
    db.prepare("DELETE FROM vec_hub WHERE table_name = ? AND chunk_id IN (SELECT id FROM chunks WHERE project = ?)").run(table, project);
    const put = db.prepare("INSERT OR REPLACE INTO vec_hub (table_name, chunk_id, hub) VALUES (?, ?, ?)");
    for (const [id, h] of hubs) put.run(table, clean(id), h);
  })();
}

/** The hub rows of a search's candidates: CROSS JOIN pins the loop order (look each candidate up; never scan the table, 100k rows: 0.5 s a search). */
export const HUBS_SQL = "SELECT v.chunk_id AS id, v.hub AS hub FROM json_each(?) j CROSS JOIN vec_hub v ON v.table_name = ? AND v.chunk_id = j.value";

/** The shared-direction share of each of `ids` that has one in `table`. */
export function hubsOf(db: Db, table: string, ids: readonly string[]): Map<string, number> {
  if (ids.length === 0) return new Map();
  const rows = prepared(db, HUBS_SQL).all(JSON.stringify(ids), table) as { id: string; hub: number }[];
  return new Map(rows.map((r) => [r.id, r.hub] as const));
}
