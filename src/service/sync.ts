import { chunkCapturedEvents } from "../../indexer/captured.js";
import { vectorPass } from "../../indexer/vector-pass.js";
import type { App } from "../app.js";
import type { Clean } from "../redact/clean.cjs";
import { ChunkStore } from "../store/chunks.js";
import { vectorBacklog } from "../store/memories.js";
import { VecState } from "../store/vec-state.js";

/**
 * Whether every chunk of a project has its vector in the active table: what `mem sync` and the
 * daemon's `sync` op report. `pending` counts chunks without a vector plus events not yet chunked.
 */
export interface SyncReport {
  project: string;
  done: boolean;
  chunks: number;
  pending: number;
  /** The active vector table and its provider, when one is healthy. */
  table: string | null;
  provider: string | null;
  /** Why it is not done: no provider, the vector step skipped, still embedding. */
  reason?: string;
  /** Vectors written by this call (in-process only). */
  embedded?: number;
}

/** The report for `project` against `table` (undefined: no provider, every chunk pending). */
export function syncReport(app: Pick<App, "db">, project: string, table: string | undefined, provider: string | undefined, reason?: string): SyncReport {
  const b = vectorBacklog(app.db, project, table);
  const pending = b.missing + b.unchunked;
  const done = pending === 0; // with no table, every chunk is pending
  return { project, done, chunks: b.chunks, pending, table: table ?? null, provider: provider ?? null, ...(!done ? { reason: reason ?? "still embedding" } : {}) };
}

/**
 * The vector step in this process (no daemon running), as `mem index` runs it for captured
 * events: the project's new events become chunks, then every chunk lacking a vector is embedded.
 */
export async function syncInProcess(app: App, project: Clean<string>, warn: (m: string) => void): Promise<SyncReport> {
  chunkCapturedEvents(app.db, new ChunkStore(app.db), project, Date.now());
  const r = await vectorPass({ db: app.db, project, providers: await app.providers(), state: new VecState(app.db), vectors: app.vectors, batchSize: app.config.embedding.batchSize, concurrency: 1, full: false, now: Date.now, warn });
  const report = syncReport(app, project, r.table, r.provider ? `${r.provider} ${r.model}` : undefined, r.status === "skipped" ? r.reason : undefined);
  return { ...report, embedded: r.embedded };
}
