import { chunkCapturedEvents } from "../../../indexer/captured.js";
import type { VectorReport } from "../../../indexer/embed-step.js";
import { vectorPass } from "../../../indexer/vector-pass.js";
import { indexPaths, type IndexSummary } from "../../../indexer/pipeline.js";
import type { Config } from "../../config/config.js";
import type { EmbeddingProvider } from "../../embed/provider.js";
import { cleanText } from "../../redact/clean.cjs";
import { ChunkStore } from "../../store/chunks.js";
import type { Db } from "../../store/db.js";
import { memoryProjects } from "../../store/memories.js";
import { VecState } from "../../store/vec-state.js";
import type { VectorStore } from "../../store/vectors.js";
import { projectOf, registeredRoots } from "../roots.js";

/**
 * The re-index step of the weekly job: every registered root of every project, incrementally (an
 * unchanged file costs a stat), through the indexer's own pipeline; projects with captured
 * memories and no root on disk get their events chunked and embedded. A root that is gone is a
 * problem (its files stay indexed: nothing is dropped because a disk is not mounted); so is a
 * skipped vector step, unless `embedding.order` is empty (vectors turned off on purpose) or no
 * embedding model has ever answered in this data home (BM25 only: `bm25Only`).
 */
const NO_MODEL = /^(no embedding provider|every provider failed)/;
export interface StepContext {
  db: Db;
  config: Config;
  providers: EmbeddingProvider[];
  vectors: () => Promise<VectorStore>;
  now: () => number;
  warn: (m: string) => void;
  onProgress?: (label: string, done: number, total: number) => void;
}

export interface ProjectRun {
  project: string;
  roots: string[];
  missingRoots: string[];
  files: IndexSummary["files"] | null;
  chunks: IndexSummary["chunks"] | null;
  /** Captured events turned into chunks. */
  events: number;
  vector: VectorReport;
}

export async function reindexProjects(ctx: StepContext): Promise<{ runs: ProjectRun[]; problems: string[]; bm25Only: boolean }> {
  const roots = registeredRoots(ctx.db);
  const projects = [...new Set([...roots.keys(), ...memoryProjects(ctx.db)])].sort();
  const runs: ProjectRun[] = [];
  const problems: string[] = [];
  const skipped = new Map<string, string[]>(); // reason → projects
  for (const [i, id] of projects.entries()) {
    const g = roots.get(id) ?? { present: [], missing: [] };
    for (const m of g.missing) problems.push(`root ${m} of project ${id} is missing (its files stay indexed; mount it again, or \`mem reindex --forget-missing\` drops it)`);
    const label = projects.length > 1 ? `${i + 1}/${projects.length}` : "";
    const progress = ctx.onProgress ? (phase: string, d: number, t: number) => ctx.onProgress!(`${label} ${phase}`.trim(), d, t) : undefined;
    let run: ProjectRun;
    if (g.present.length > 0) {
      const s = await indexPaths(
        { db: ctx.db, config: ctx.config, providers: ctx.providers, vectors: ctx.vectors, now: ctx.now, warn: ctx.warn, ...(progress ? { onProgress: progress } : {}) },
        { roots: g.present, project: projectOf(id), full: false },
      );
      run = { project: id, roots: g.present, missingRoots: g.missing, files: s.files, chunks: s.chunks, events: s.events, vector: s.vector };
    } else {
      const events = chunkCapturedEvents(ctx.db, new ChunkStore(ctx.db), cleanText(id), ctx.now());
      const vector = await vectorPass({
        db: ctx.db,
        project: cleanText(id),
        providers: ctx.providers,
        state: new VecState(ctx.db),
        vectors: ctx.vectors,
        batchSize: ctx.config.embedding.batchSize,
        concurrency: ctx.config.embedding.concurrency,
        full: false,
        now: ctx.now,
        warn: ctx.warn,
        ...(progress ? { onProgress: (d: number, t: number) => progress("embed", d, t) } : {}),
      });
      run = { project: id, roots: [], missingRoots: g.missing, files: null, chunks: null, events, vector };
    }
    runs.push(run);
    if (run.vector.status === "skipped" && ctx.config.embedding.order.length > 0) {
      const reason = run.vector.reason ?? "no reason given";
      skipped.set(reason, [...(skipped.get(reason) ?? []), id]);
    }
  }
  // No model has ever answered here (no vector table was ever made): BM25 only is how this store
  // runs, not a failure. Once a provider worked, its silence fails the job loudly.
  const bm25Only = skipped.size > 0 && [...skipped.keys()].every((r) => NO_MODEL.test(r)) && new VecState(ctx.db).tables().length === 0;
  if (!bm25Only) for (const [reason, ps] of skipped) problems.push(`vector step skipped (${ps.length === 1 ? `project ${ps[0]}` : `${ps.length} projects`}): ${reason}`);
  return { runs, problems, bm25Only };
}
