import { existsSync } from "node:fs";
import { basename, sep } from "node:path";
import { chunkCapturedEvents } from "../../indexer/captured.js";
import type { VectorReport } from "../../indexer/embed-step.js";
import { vectorPass } from "../../indexer/vector-pass.js";
import { indexPaths } from "../../indexer/pipeline.js";
import type { App } from "../app.js";
import { cleanText } from "../redact/clean.cjs";
import { ChunkStore } from "../store/chunks.js";
import { restoreTier } from "../store/restore.js";
import { VecState } from "../store/vec-state.js";
import type { SalvagedRoot, SalvagedSource } from "./salvage.js";

/**
 * Rebuilds what a fresh store lacks after the salvage: the markdown (and event-log files) indexed
 * again from disk, by the recorded roots where known (tiers depend on the path under the root),
 * else file by file (with the tier the file had); captured events chunked again; vectors through
 * the normal vector step when a provider answers.
 */
export interface RebuildResult {
  filesIndexed: number;
  filesMissing: number;
  vectorReports: VectorReport[];
  warnings: string[];
}

const project = (id: string) => ({ id: cleanText(id), name: basename(id) || id, root: id.startsWith("/") || /^[A-Za-z]:[\\/]/.test(id) ? id : undefined });
const under = (path: string, root: string) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

export async function reindex(app: App, roots: SalvagedRoot[], sources: SalvagedSource[], eventProjects: string[]): Promise<RebuildResult> {
  const warnings: string[] = [];
  const warn = (m: string) => warnings.push(m);
  const providers = await app.providers();
  const ctx = { db: app.db, config: app.config, providers, vectors: app.vectors, warn };
  const reports: VectorReport[] = [];
  let filesIndexed = 0;
  const filesMissing = sources.filter((s) => !existsSync(s.path)).length;

  const projects = new Set([...roots.map((r) => r.project), ...sources.map((s) => s.project)]);
  for (const p of [...projects].sort()) {
    const rs = roots.filter((r) => r.project === p && existsSync(r.path)).map((r) => r.path);
    const loose = sources.filter((s) => s.project === p && existsSync(s.path) && !roots.some((r) => r.project === p && under(s.path, r.path)));
    if (rs.length === 0 && loose.length === 0) continue;
    const s = await indexPaths(ctx, { roots: [...rs, ...loose.map((l) => l.path)], project: project(p), full: false });
    filesIndexed += s.files.indexed;
    reports.push(s.vector);
    for (const l of loose) if (l.tier) restoreTier(app.db, cleanText(p), cleanText(l.path), cleanText(l.tier));
  }
  // Projects with captured events and nothing on disk: their events become chunks and vectors here.
  const store = new ChunkStore(app.db);
  for (const p of eventProjects.filter((x) => !projects.has(x)).sort()) {
    chunkCapturedEvents(app.db, store, cleanText(p), Date.now());
    reports.push(await vectorsFor(app, p, warn));
  }
  return { filesIndexed, filesMissing, vectorReports: reports, warnings };
}

/** The normal vector step for one project, and the calibration of its leg. */
export async function vectorsFor(app: App, p: string, warn: (m: string) => void): Promise<VectorReport> {
  return vectorPass({
    db: app.db,
    project: cleanText(p),
    providers: await app.providers(),
    state: new VecState(app.db),
    vectors: app.vectors,
    batchSize: app.config.embedding.batchSize,
    concurrency: app.config.embedding.concurrency,
    full: false,
    now: Date.now,
    warn,
  });
}
