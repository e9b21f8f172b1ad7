/**
 * bench:prompt's parts apart, in the bench's own process on the same data home: the prompt's
 * embedding through mem's Ollama client against the loopback server (what the daemon's answer
 * includes of it), the BM25 leg alone (FTS5), the vector leg alone as the daemon holds the table
 * (VectorCopies with the daemon's settings: float32 with a scan worker, codes from
 * `daemon.codeRows` rows with their int8 rows in a file of the data home, LanceDB when over
 * `daemon.vectorMemoryMB`) and, a code copy's, in turns with the same copy holding its int8 rows
 * in memory, and the real indexer's throughput on a fresh batch of markdown added to a store of
 * that size.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { join } from "node:path";
import type { App } from "../../src/app.js";
import { indexPaths } from "../../indexer/pipeline.js";
import { resolveProject } from "../../src/project/identity.js";
import { searchScope } from "../../src/project/scope.js";
import { bm25Leg } from "../../src/retrieve/bm25.js";
import { VECTOR_ROWS_DIR } from "../../src/config/paths.cjs";
import { VectorCopies } from "../../src/retrieve/vector-copies.js";
import { VecState } from "../../src/store/vec-state.js";
import { hashVector } from "../../test/helpers/hash-embedder.js";
import { sectionWriter } from "./prompt-store.js";
import { waitFor } from "./prompt-daemon.js";

/** Candidates per leg on the prompt's path (src/inject/for-prompt.ts). */
const PROMPT_CANDIDATES = 30;

export interface Legs {
  embed: number[];
  bm25: number[];
  vector: number[];
  /** The vector leg of a code copy holding its int8 rows in memory, timed in turns with `vector` (empty otherwise). */
  vectorInMemory: number[];
  /** How the vector leg was answered: the copy's kernel and scan, or "lancedb". */
  vectorBy: string;
  /** Seconds to load the copy (0 for LanceDB). */
  loadS: number;
}

async function timed(f: () => unknown | Promise<unknown>): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

/** Runs `f` with this thread at priority 0 (a niced bench measures at a user's priority; root only), then back. */
async function unniced<T>(f: () => Promise<T>): Promise<T> {
  const own = getPriority();
  try {
    if (own > 0) setPriority(0);
  } catch {
    // not root: measured niced
  }
  try {
    return await f();
  } finally {
    if (own > 0) setPriority(own);
  }
}

export function legs(app: App, table: string, dims: number, proj: string, prompts: string[], warm: number): Promise<Legs> {
  return unniced(() => timeLegs(app, table, dims, proj, prompts, warm));
}

async function timeLegs(app: App, table: string, dims: number, proj: string, prompts: string[], warm: number): Promise<Legs> {
  const out: Legs = { embed: [], bm25: [], vector: [], vectorInMemory: [], vectorBy: "", loadS: 0 };
  const project = resolveProject(proj);
  const projects = searchScope(project, app.config.query.includeGlobal);
  const [provider] = await app.providers();
  if (!provider) throw new Error("no embedding provider");
  const lines: string[] = [];
  const copies = new VectorCopies({ state: new VecState(app.db), vectors: app.vectors, config: app.config.daemon, log: (l) => lines.push(l), rowsDir: join(app.paths.home, VECTOR_ROWS_DIR) });
  const probe = hashVector(prompts[0]!, dims);
  const t = performance.now();
  let lance = false;
  await waitFor(async () => {
    if ((await copies.search(table, dims, probe, projects, PROMPT_CANDIDATES)) !== undefined) return true;
    lance = lines.some((l) => /over daemon\.vectorMemoryMB/.test(l));
    return lance;
  }, 30 * 60_000, `the copy of ${table}`);
  out.loadS = lance ? 0 : (performance.now() - t) / 1000;
  const store = await app.vectors();
  const held = copies.status()[0];
  out.vectorBy = lance ? "lancedb (over daemon.vectorMemoryMB)" : `${held?.kernel}, ${held?.scan}${held?.fileBytes ? ", int8 rows in a file" : ""}`;
  // A code copy: the same copy with its int8 rows in memory, held beside it and timed in turns.
  const inMemory = held?.fileBytes ? new VectorCopies({ state: new VecState(app.db), vectors: app.vectors, config: app.config.daemon, log: (l) => lines.push(l) }) : undefined;
  if (inMemory) await waitFor(async () => (await inMemory.search(table, dims, probe, projects, PROMPT_CANDIDATES)) !== undefined, 30 * 60_000, `the in-memory copy of ${table}`);
  for (const [i, prompt] of prompts.entries()) {
    const embedMs = await timed(() => provider.embed([prompt], "query"));
    const bm25Ms = await timed(() => bm25Leg(app.db, prompt, { projects }, PROMPT_CANDIDATES));
    const vec = hashVector(prompt, dims); // what the loopback server answers for it
    // With two copies, each goes first every other prompt (the first after the BM25 leg meets colder caches).
    const other = inMemory && i % 2 === 1 ? await timed(() => inMemory.search(table, dims, vec, projects, PROMPT_CANDIDATES)) : undefined;
    const vectorMs = await timed(async () => (lance ? store.search(table, vec, projects, PROMPT_CANDIDATES) : copies.search(table, dims, vec, projects, PROMPT_CANDIDATES)));
    const inMemoryMs = inMemory && i % 2 === 0 ? await timed(() => inMemory.search(table, dims, vec, projects, PROMPT_CANDIDATES)) : other;
    if (i < warm) continue;
    out.embed.push(embedMs);
    out.bm25.push(bm25Ms);
    out.vector.push(vectorMs);
    if (inMemoryMs !== undefined) out.vectorInMemory.push(inMemoryMs);
  }
  await copies.close();
  await inMemory?.close();
  return out;
}

/** Writes `chunks` sections of markdown (ten a file) under `proj`/batch and indexes them with the real indexer; chunks a second. */
export async function indexThroughput(app: App, proj: string, chunks: number): Promise<{ chunks: number; seconds: number; perSecond: number }> {
  const dir = join(proj, "batch");
  mkdirSync(dir, { recursive: true });
  const section = sectionWriter(99);
  for (let f = 0; f < Math.ceil(chunks / 10); f++) {
    const parts = [`# Batch ${f}`];
    for (let s = 0; s < 10; s++) {
      const x = section();
      parts.push(`## ${x.heading}`, x.text);
    }
    writeFileSync(join(dir, `batch-${f}.md`), `${parts.join("\n\n")}\n`);
  }
  const t = performance.now();
  const r = await indexPaths({ db: app.db, config: app.config, providers: await app.providers(), vectors: app.vectors }, { roots: [dir], project: resolveProject(proj), full: false });
  const seconds = (performance.now() - t) / 1000;
  return { chunks: r.chunks.added, seconds, perSecond: r.chunks.added / seconds };
}
