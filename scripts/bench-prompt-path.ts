/**
 * `npm run bench:prompt`: the daemon's answer to a prompt at scale, embedding aside. A synthetic
 * corpus of 100k chunks (`MEM_BENCH_CHUNKS`) is indexed with 768-dim hash vectors (the real
 * pipeline, SQLite FTS5 and LanceDB), the vector table is copied into memory as the daemon copies
 * it (MemoryIndex, the WebAssembly kernel), then for each of 300 prompts (`MEM_BENCH_PROMPTS`) it
 * times, apart: the prompt's embedding, the BM25 leg, the vector scan, the whole search (both legs,
 * fusion, salience) and the whole answer (search, then the floor, the selection and the budget);
 * selection = answer − search. Not a test: it prints p50/p95/p99 and the answer without the
 * embedding against the 50 ms target.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { indexPaths } from "../indexer/pipeline.js";
import { defaultConfig } from "../src/config/config.js";
import { firstHealthy } from "../src/embed/chain.js";
import { memoriesForPrompt, promptCandidates } from "../src/inject/for-prompt.js";
import { resolveProject } from "../src/project/identity.js";
import { bm25Leg } from "../src/retrieve/bm25.js";
import { MemoryIndex } from "../src/retrieve/memory-index.js";
import { openDb } from "../src/store/db.js";
import { VecState } from "../src/store/vec-state.js";
import { VectorStore, vectorTableName } from "../src/store/vectors.js";
import { HashEmbedder } from "../test/helpers/hash-embedder.js";
import { syntheticCorpus, syntheticQueries } from "./bench/scale.js";

const CHUNKS = Number(process.env.MEM_BENCH_CHUNKS ?? 100_000);
const PROMPTS = Number(process.env.MEM_BENCH_PROMPTS ?? 300);
const DIMS = 768;
const log = (s: string) => process.stdout.write(`${s}\n`);

function stats(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
  return `p50 ${at(50).toFixed(1)} ms, p95 ${at(95).toFixed(1)} ms, p99 ${at(99).toFixed(1)} ms`;
}

const work = mkdtempSync(join(tmpdir(), "mem-bench-prompt-"));
try {
  log(`mem bench:prompt — node ${process.version}, ${new Date().toISOString()}; ${CHUNKS.toLocaleString("en")} chunks, ${DIMS} dims, ${PROMPTS} prompts`);
  const docs = join(work, "docs");
  syntheticCorpus(docs, CHUNKS);
  const config = defaultConfig();
  const db = openDb(join(work, "mem.sqlite"));
  let store: VectorStore | undefined;
  const vectors = async () => (store ??= await VectorStore.open(join(work, "vectors")));
  const embedder = new HashEmbedder("hash-bench", DIMS);
  const project = resolveProject(docs);
  let t = performance.now();
  const indexed = await indexPaths({ db, config, providers: [embedder], vectors }, { roots: [docs], project, full: false });
  log(`indexed ${indexed.chunks.total.toLocaleString("en")} chunks in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const table = vectorTableName(embedder.name, embedder.model, DIMS);
  t = performance.now();
  const memory = await MemoryIndex.load(await vectors(), table, DIMS, new VecState(db).version(table) ?? "");
  log(`in-memory copy: ${memory.size.toLocaleString("en")} rows (${Math.round((memory.size * DIMS * 4) / 2 ** 20)} MiB, ${memory.kernel} kernel) in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const ctx = {
    db,
    config,
    vectors,
    projectRoot: () => docs,
    pickProvider: () => firstHealthy([embedder]),
    vectorSearch: async (_t: string, _d: number, v: Float32Array, projects: string[] | undefined, limit: number) => memory.search(v, projects, limit),
  };
  const times = { embed: [] as number[], bm25: [] as number[], vector: [] as number[], search: [] as number[], answer: [] as number[], selection: [] as number[], withoutEmbed: [] as number[] };
  let answered = 0;
  const qs = syntheticQueries(PROMPTS + 10);
  for (const [i, q] of qs.entries()) {
    const prompt = `why did we decide on ${q}?`;
    const e0 = performance.now();
    const [vec] = await embedder.embed([prompt]);
    const embedMs = performance.now() - e0;
    const b0 = performance.now();
    bm25Leg(db, prompt, { projects: [project.id] }, config.query.candidates);
    const bm25Ms = performance.now() - b0;
    const v0 = performance.now();
    memory.search(vec!, [project.id], config.query.candidates);
    const vectorMs = performance.now() - v0;
    const s0 = performance.now();
    await promptCandidates(ctx, { prompt, cwd: docs, session: `s-${i}` }, "hybrid");
    const searchMs = performance.now() - s0;
    const a0 = performance.now();
    const injection = await memoriesForPrompt(ctx, { prompt, cwd: docs, session: `a-${i}` }, "hybrid");
    const answerMs = performance.now() - a0;
    if (i < 10) continue; // the first few warm caches up
    if (injection) answered++;
    times.embed.push(embedMs);
    times.bm25.push(bm25Ms);
    times.vector.push(vectorMs);
    times.search.push(searchMs);
    times.answer.push(answerMs);
    times.selection.push(Math.max(0, answerMs - searchMs));
    times.withoutEmbed.push(Math.max(0, answerMs - embedMs));
  }
  log(`embedding (hash, in-process; a real model adds 5–20 ms): ${stats(times.embed)}`);
  log(`BM25 leg (FTS5, ${config.query.candidates} candidates):            ${stats(times.bm25)}`);
  log(`vector scan (in memory, ${config.query.candidates} candidates):         ${stats(times.vector)}`);
  log(`search (both legs, fusion, salience):       ${stats(times.search)}`);
  log(`selection (floor, evidence, budget) ≈ answer − search: ${stats(times.selection)}`);
  log(`the daemon's answer:                        ${stats(times.answer)}`);
  log(`the answer without the embedding (target p99 < 50 ms): ${stats(times.withoutEmbed)}; ${answered}/${PROMPTS} prompts got memories`);
  store?.close();
  db.close();
} finally {
  rmSync(work, { recursive: true, force: true });
}
