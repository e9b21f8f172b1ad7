import PQueue from "p-queue";
import { describeUnhealthy, firstHealthy } from "../src/embed/chain.js";
import type { EmbeddingProvider } from "../src/embed/provider.js";
import { cleanText } from "../src/redact/clean.cjs";
import type { ChunkToEmbed, VecState } from "../src/store/vec-state.js";
import { vectorTableName, type VectorRow, type VectorStore } from "../src/store/vectors.js";

export interface VectorReport {
  status: "ok" | "skipped";
  /** Why the vector step was skipped (status "skipped"). */
  reason?: string;
  provider?: string;
  model?: string;
  table?: string;
  dims?: number;
  embedded: number;
  removed: number;
  /** Providers that failed their health check and were passed over, with why. */
  unavailable: string[];
  /** Providers given up on mid-run, with why. */
  failovers: string[];
  /** `maxRows` cut the run short: chunks are left to embed. */
  limited?: true;
}

export interface EmbedStepOptions {
  project: string;
  providers: EmbeddingProvider[];
  state: VecState;
  vectors: () => Promise<VectorStore>;
  batchSize: number;
  concurrency: number;
  /**
   * Drop this project's vectors in the active table and re-embed them. A table that cannot be read
   * is dropped and rebuilt whole, with every project's vectors (the same as for a lost table).
   */
  full: boolean;
  now: () => number;
  /** At most this many chunks embedded in one call (the daemon's share, so an index run waits little for the lock). */
  maxRows?: number;
  onProgress?: (done: number, total: number) => void;
  warn: (msg: string) => void;
}

class StoreError extends Error {}

/** A table that cannot be read or written: the run skips vectors and says how to rebuild it. */
const unreadable = (table: string, err: unknown) => new StoreError(`vector table ${table} is unreadable (${(err as Error).message}); run \`mem index --full\` to rebuild it`);

const MAX_EMBED_CHARS = 8000;
const WRITE_ROWS = 1024;
/** Small fragments (LanceDB's count) a table gathers before the vector step compacts it. */
export const COMPACT_AT = 8;

/** The text a chunk is embedded as: its heading path gives the passage its context. */
export function embedText(c: { heading: string; text: string }): string {
  const t = c.heading ? `${c.heading}\n\n${c.text}` : c.text;
  return t.length > MAX_EMBED_CHARS ? t.slice(0, MAX_EMBED_CHARS) : t;
}

async function withRetry<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if ((err as { retryable?: boolean }).retryable !== true) throw err;
    await new Promise((r) => setTimeout(r, 250));
    return fn();
  }
}

/**
 * LanceDB and SQLite disagree on what the table holds (a run killed between the two writes,
 * SQLite restored from a backup, rows deleted behind our back): rows of existing chunks are
 * recorded, rows of no chunk deleted, and records of rows that are gone dropped so those chunks
 * are embedded again. Returns how many rows were deleted.
 */
async function reconcile(o: EmbedStepOptions, store: VectorStore, table: string): Promise<number> {
  const inLance = new Set(await store.ids(table));
  const recorded = new Set(o.state.ids(table));
  const gone = [...recorded].filter((id) => !inLance.has(id));
  const strays = o.state.adopt(table, [...inLance].filter((id) => !recorded.has(id)));
  if (strays.length > 0) await store.delete(table, strays);
  o.state.unmark(table, gone);
  const adopted = inLance.size - (recorded.size - gone.length) - strays.length;
  o.warn(`vector table ${table} was out of step with SQLite: ${adopted} rows recorded, ${strays.length} stray rows deleted, ${gone.length} lost vectors to embed again`);
  return strays.length;
}

/** Chunks written again under their id (an edited memory): their old vectors go first. */
async function dropRedo(o: EmbedStepOptions, store: VectorStore, table: string): Promise<void> {
  const redo = o.state.redo(table);
  if (redo.length === 0) return;
  await store.delete(table, redo);
  o.state.redone(table, redo);
}

/**
 * Makes the table match SQLite: (re)creates it, forgets state for a lost table, removes orphans,
 * reconciles the two when their counts differ.
 * `rebuilt`: the table was recreated empty, so every project's vectors must go back in.
 */
async function prepare(o: EmbedStepOptions, store: VectorStore, table: string, dims: number): Promise<{ removed: number; rebuilt: boolean }> {
  let rebuilt = false;
  try {
    if (o.full && (await store.has(table))) {
      try {
        await store.deleteProject(table, o.project);
        o.state.clear(table, o.project);
      } catch (err) {
        o.warn(`vector table ${table} is unreadable (${(err as Error).message}); rebuilding it from scratch, with every project's vectors`);
        await store.drop(table).catch(() => undefined);
        o.state.clear(table);
        rebuilt = true;
      }
    }
    if (!(await store.has(table)) && o.state.count(table) > 0) {
      o.warn(`vector table ${table} is missing; its ${o.state.count(table)} vectors, of every project, are rebuilt`);
      o.state.clear(table);
      rebuilt = true;
    }
    await store.ensure(table, dims);
    await dropRedo(o, store, table);
    const orphans = o.state.orphans(table);
    if (orphans.length > 0) {
      await store.delete(table, orphans);
      o.state.unmark(table, orphans);
    }
    const strays = (await store.count(table)) !== o.state.count(table) ? await reconcile(o, store, table) : 0;
    return { removed: orphans.length + strays, rebuilt };
  } catch (err) {
    throw unreadable(table, err);
  }
}

/**
 * Embeds what `table` lacks for the projects (this run's first, then the others). A chunk edited
 * while it was embedded is embedded again at once, a few times at most (an edit per second would
 * otherwise keep the run going); what is left is redone by the next run.
 */
async function embedAll(o: EmbedStepOptions, store: VectorStore, provider: EmbeddingProvider, table: string, projects: string[]): Promise<{ embedded: number; limited: boolean }> {
  let embedded = 0;
  let limited = false;
  let spent = 0; // rows embedded over the rounds: `maxRows` bounds them all, redone ones too
  for (let round = 0; round < 3; round++) {
    const limit = o.maxRows === undefined ? undefined : o.maxRows - spent;
    if (limit !== undefined && limit <= 0) {
      limited = true;
      break;
    }
    const { done, stale, cut } = await embedMissing(o, store, provider, table, projects, round === 0, limit);
    spent += done;
    embedded += done - stale; // what was kept
    limited ||= cut;
    if (stale === 0) break;
    await dropRedo(o, store, table).catch((err) => {
      throw unreadable(table, err);
    });
  }
  return { embedded, limited };
}

/** One pass of `embedAll`: how many were embedded, and how many of those were found edited meanwhile. Progress is reported on the first pass only. */
async function embedMissing(o: EmbedStepOptions, store: VectorStore, provider: EmbeddingProvider, table: string, projects: string[], report: boolean, limit: number | undefined): Promise<{ done: number; stale: number; cut: boolean }> {
  const all = projects.flatMap((p) => o.state.missing(table, p));
  const missing = limit !== undefined && all.length > limit ? all.slice(0, limit) : all;
  const total = missing.length;
  let done = 0;
  const progress = report ? o.onProgress : undefined;
  progress?.(0, total);
  const embedQueue = new PQueue({ concurrency: o.concurrency });
  const writeQueue = new PQueue({ concurrency: 1 });
  let pending: { row: VectorRow; chunk: ChunkToEmbed }[] = [];
  let failure: unknown;
  let stale = 0;
  const flush = () => {
    const rows = pending;
    pending = [];
    if (rows.length === 0) return;
    void writeQueue.add(async () => {
      try {
        await store.upsert(table, rows.map((r) => r.row));
      } catch (err) {
        throw new StoreError(`writing vectors to ${table} failed (${(err as Error).message}); run \`mem index --full\` to rebuild it`);
      }
      stale += o.state.markEmbedded(table, rows.map((r) => r.chunk)).length;
      done += rows.length;
      progress?.(done, total);
    }).catch((err) => (failure ??= err));
  };
  for (let i = 0; i < missing.length; i += o.batchSize) {
    const batch = missing.slice(i, i + o.batchSize);
    void embedQueue.add(async () => {
      if (failure) return;
      try {
        const vecs = await withRetry(() => provider.embed(batch.map(embedText), "document"));
        batch.forEach((c, j) => pending.push({ row: { id: c.id, project: c.project, vector: vecs[j]! }, chunk: c }));
        if (pending.length >= WRITE_ROWS) flush();
      } catch (err) {
        failure ??= err;
        embedQueue.clear();
      }
    });
  }
  await embedQueue.onIdle();
  flush(); // keep every vector that was computed, even when a later batch failed
  await writeQueue.onIdle();
  if (failure) throw failure;
  return { done: total, stale, cut: missing.length < all.length };
}

/**
 * Said once, when the model's prefix policy has a table no run has made yet while a table of the
 * same model made another way exists (say, the prefix-less table of nomic-embed-text before mem
 * fed it its task prefixes): the vectors are rebuilt, never mixed with the old ones.
 */
function newPolicyNote(state: VecState, provider: EmbeddingProvider, dims: number, table: string): string | undefined {
  const tables = state.tables();
  if (tables.some((t) => t.name === table)) return undefined;
  const older = tables.filter((t) => t.provider === provider.name && t.model === provider.model && t.dims === dims).map((t) => t.name);
  if (older.length === 0) return undefined;
  const p = provider.prefixes;
  const how = p && (p.query !== "" || p.document !== "") ? `the prefixes its model card asks for (queries: ${JSON.stringify(p.query)}, documents: ${JSON.stringify(p.document)})` : "no prefixes";
  return `${provider.name} ${provider.model} is now fed ${how}: its vectors are rebuilt in ${table} and never mixed with those of ${older.join(", ")} (kept until removed)`;
}

/**
 * Ensures the first healthy provider's table holds a vector for every chunk of the project.
 * A provider that fails mid-run is dropped and the next healthy one takes over with its own
 * table, so a table only ever holds vectors of one model.
 */
export async function embedStep(o: EmbedStepOptions): Promise<VectorReport> {
  const failovers: string[] = [];
  const unavailable: string[] = [];
  let removed = 0;
  let from = 0;
  let recoveries = 0;
  const rebuilt = new Set<string>();
  for (;;) {
    const { selected, unhealthy } = await firstHealthy(o.providers, from);
    unavailable.push(...unhealthy.map((u) => `${u.provider} (${u.model}): ${u.reason}`));
    if (!selected) {
      const reason = from === 0 ? describeUnhealthy(unhealthy) : `every provider failed (${[...failovers, ...unavailable].join("; ")})`;
      return { status: "skipped", reason, embedded: 0, removed, unavailable, failovers };
    }
    const { provider, dims } = selected;
    const table = vectorTableName(provider, dims);
    const policyNote = newPolicyNote(o.state, provider, dims, table);
    if (policyNote) o.warn(policyNote);
    try {
      const store = await o.vectors();
      o.state.register(cleanText(table), cleanText(provider.name), cleanText(provider.model), dims, o.now());
      const prepared = await prepare(o, store, table, dims);
      removed += prepared.removed;
      if (prepared.rebuilt) rebuilt.add(table); // and stays so if this provider is retried
      const others = rebuilt.has(table) ? o.state.projectsMissing(table).filter((p) => p !== o.project) : [];
      const { embedded, limited } = await embedAll(o, store, provider, table, [o.project, ...others]);
      // Many small writes leave many fragments, and flat search slows with each: compacted once
      // COMPACT_AT small ones have gathered, not after every run, since LanceDB's compaction
      // rewrites every fragment under a million rows with them (the whole table below that size:
      // an index run's cost grew with the store, issue 35).
      if ((embedded > 0 || removed > 0) && (await store.fragments(table).then((f) => f.small >= COMPACT_AT, () => true))) {
        await store.optimize(table).catch((err: Error) => o.warn(`compacting ${table} failed: ${err.message}`));
      }
      return { status: "ok", provider: provider.name, model: provider.model, table, dims, embedded, removed, unavailable, failovers, ...(limited ? { limited: true as const } : {}) };
    } catch (err) {
      if (err instanceof StoreError) return { status: "skipped", reason: err.message, embedded: 0, removed, unavailable, failovers };
      const msg = `${provider.name} (${provider.model}) failed mid-run: ${(err as Error).message}`;
      // Health is checked again on failure: a provider that recovered keeps its table (a little longer).
      if (recoveries < 2 && (await provider.health()).ok) {
        recoveries++;
        o.warn(`${msg}; it answers its health check again, so retrying it`);
        from = selected.index;
        continue;
      }
      o.warn(`${msg}; trying the next provider`);
      failovers.push(msg);
      from = selected.index + 1;
    }
  }
}
