import { existsSync } from "node:fs";
import type { VectorReport } from "../../indexer/embed-step.js";
import type { App } from "../app.js";
import { clearDerived } from "../store/derived.js";
import { listRoots } from "../store/roots.js";
import { reindex } from "./rebuild.js";
import type { SalvagedSource } from "./salvage.js";

/**
 * Replay: the chunks, the FTS5 index and every vector table made again from SQLite (events and
 * explicit memories) and the markdown files alone. Chunk ids are content hashes, so a memory keeps
 * its id (and its salience, and whether a session was shown it); vectors are embedded again by the
 * first healthy provider. The daemon must not be running (the caller stops it).
 */
export interface ReplayReport {
  before: { chunks: number; sources: number; vectors: number; tables: string[] };
  after: { chunks: number; sources: number; events: number; filesMissing: number };
  vectors: VectorReport[];
  warnings: string[];
  durationMs: number;
}

export async function replay(app: App): Promise<ReplayReport> {
  const started = Date.now();
  const roots = listRoots(app.db);
  const sources = app.db.prepare("SELECT project, path, kind, tier, indexed_at FROM sources WHERE path NOT LIKE 'session:%'").all() as SalvagedSource[];
  const eventProjects = app.db.prepare("SELECT DISTINCT project FROM events WHERE deleted_at IS NULL").pluck().all() as string[];
  const before = clearDerived(app.db);
  const store = before.tables.length > 0 ? await app.vectors() : undefined;
  for (const t of before.tables) if (store && (await store.has(t))) await store.drop(t);
  const r = await reindex(app, roots.filter((x) => existsSync(x.path)), sources, eventProjects);
  const count = (sql: string) => app.db.prepare(sql).pluck().get() as number;
  return {
    before,
    after: { chunks: count("SELECT count(*) FROM chunks"), sources: count("SELECT count(*) FROM sources"), events: count("SELECT count(*) FROM events WHERE chunked = 1"), filesMissing: r.filesMissing },
    vectors: r.vectorReports,
    warnings: r.warnings,
    durationMs: Date.now() - started,
  };
}
