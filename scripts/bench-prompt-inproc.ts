/**
 * `npm run bench:prompt:inproc`: the daemon's answer to a prompt at one size, taken apart in this
 * process (bench:prompt asks a real daemon along a curve of sizes). A synthetic
 * corpus of 100k chunks (`MEM_BENCH_CHUNKS`) is indexed with 768-dim hash vectors (the real
 * pipeline, SQLite FTS5 and LanceDB), the vector table is copied into memory as the daemon copies
 * it (MemoryIndex, the WebAssembly kernel, a scan worker from `daemon.scanWorkerRows` rows), then
 * for each of 300 prompts (`MEM_BENCH_PROMPTS`) it times, apart: the prompt's embedding, the BM25
 * leg alone, the vector scan alone (inline, and as the daemon scans: worker and this thread), then
 * the daemon's answer in its two parts: the search (both legs, the scan overlapping the BM25 leg,
 * fusion, salience) and the selection (floor, evidence, budget), and the same answer with the scan
 * inline (as before the worker, under the same load). Not a test: it prints p50/p95/p99,
 * the answer against the 50 ms p99 target, RSS, the GC pauses met, and the load average (the
 * figures are only as quiet as the machine). `MEM_BENCH_WORKER_ROWS` overrides `daemon.scanWorkerRows`;
 * `MEM_BENCH_DIR` keeps the indexed corpus for the next run.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { PerformanceObserver } from "node:perf_hooks";
import { join } from "node:path";
import { indexPaths } from "../indexer/pipeline.js";
import { defaultConfig } from "../src/config/config.js";
import { firstHealthy } from "../src/embed/chain.js";
import { chooseMemories, promptCandidates } from "../src/inject/for-prompt.js";
import { resolveProject } from "../src/project/identity.js";
import { bm25Leg } from "../src/retrieve/bm25.js";
import { MemoryIndex } from "../src/retrieve/memory-index.js";
import { openDb } from "../src/store/db.js";
import { VecState } from "../src/store/vec-state.js";
import { VectorStore, vectorTableName } from "../src/store/vectors.js";
import { HashEmbedder, hashVector } from "../test/helpers/hash-embedder.js";
import { cleanText } from "../src/redact/clean.cjs";
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

function threads(): string {
  try {
    return String(readdirSync("/proc/self/task").length);
  } catch {
    return "?"; // not Linux
  }
}

// `MEM_BENCH_DIR=DIR` keeps the indexed corpus in DIR and reuses it on the next run (same size).
const keep = process.env.MEM_BENCH_DIR ? join(process.env.MEM_BENCH_DIR, String(CHUNKS)) : undefined;
const reuse = keep !== undefined && existsSync(join(keep, "mem.sqlite"));
const work = keep ?? mkdtempSync(join(tmpdir(), "mem-bench-prompt-"));
if (keep) mkdirSync(keep, { recursive: true });
try {
  log(`mem bench:prompt — node ${process.version}, ${new Date().toISOString()}; ${CHUNKS.toLocaleString("en")} chunks, ${DIMS} dims, ${PROMPTS} prompts`);
  const docs = join(work, "docs");
  if (!reuse) syntheticCorpus(docs, CHUNKS);
  const config = defaultConfig();
  // `MEM_BENCH_WORKER_ROWS=0` scans any table with the worker, a large number never (to find the threshold).
  if (process.env.MEM_BENCH_WORKER_ROWS) config.daemon.scanWorkerRows = Number(process.env.MEM_BENCH_WORKER_ROWS);
  const db = openDb(join(work, "mem.sqlite"));
  let store: VectorStore | undefined;
  const vectors = async () => (store ??= await VectorStore.open(join(work, "vectors")));
  const embedder = new HashEmbedder("hash-bench", DIMS);
  const project = resolveProject(docs);
  let t = performance.now();
  if (reuse) log(`reusing the corpus indexed in ${work}`);
  else {
    const indexed = await indexPaths({ db, config, providers: [embedder], vectors }, { roots: [docs], project, full: false });
    log(`indexed ${indexed.chunks.total.toLocaleString("en")} chunks in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }

  const table = vectorTableName(embedder, DIMS);
  const rss0 = process.memoryUsage().rss;
  t = performance.now();
  const memory = await MemoryIndex.load(await vectors(), table, DIMS, new VecState(db).version(table) ?? "");
  // As the daemon does (src/daemon/server.ts): a table this large is scanned with a worker thread too.
  if (memory.size >= config.daemon.scanWorkerRows) await memory.useWorker({ log });
  const mib = (b: number) => `${Math.round(b / 2 ** 20)} MiB`;
  log(`in-memory copy: ${memory.size.toLocaleString("en")} rows (${mib(memory.size * DIMS * 4)}, ${memory.kernel} kernel, scan ${memory.scan}) in ${((performance.now() - t) / 1000).toFixed(1)} s; RSS ${mib(rss0)} before, ${mib(process.memoryUsage().rss)} after`);

  // The vector leg inside the search, as the daemon answers it: when it is posted and when its hits
  // are back, from the search's start.
  let searchStart = 0;
  let posted = 0;
  let back = 0;
  const ctx = {
    db,
    config,
    vectors,
    projectRoot: () => docs,
    pickProvider: () => firstHealthy([embedder]),
    vectorSearch: async (_t: string, _d: number, v: Float32Array, projects: string[] | undefined, limit: number) => {
      posted = performance.now() - searchStart;
      const hits = await memory.find(v, projects, limit);
      back = performance.now() - searchStart;
      return hits;
    },
  };
  // The same answer with the scan inline on this thread (as before the worker), for comparison under the same load.
  const inlineCtx = { ...ctx, vectorSearch: async (_t: string, _d: number, v: Float32Array, projects: string[] | undefined, limit: number) => memory.search(v, projects, limit) };
  const times = { inlineAnswer: [] as number[], embed: [] as number[], bm25: [] as number[], inline: [] as number[], scan: [] as number[], posted: [] as number[], back: [] as number[], search: [] as number[], selection: [] as number[], answer: [] as number[] };
  const gc: { start: number; ms: number }[] = [];
  const answers: { start: number; ms: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gc.push({ start: e.startTime, ms: e.duration });
  });
  let answered = 0;
  const qs = syntheticQueries(PROMPTS + 10);
  const load0 = loadavg()[0]!;
  for (const [i, q] of qs.entries()) {
    if (i === 10) observer.observe({ entryTypes: ["gc"] }); // the first few warm caches up
    const prompt = `why did we decide on ${q}?`;
    const e0 = performance.now();
    const [vec] = await embedder.embed([prompt], "query");
    const embedMs = performance.now() - e0;
    const b0 = performance.now();
    bm25Leg(db, prompt, { projects: [project.id] }, config.query.candidates);
    const bm25Ms = performance.now() - b0;
    const i0 = performance.now();
    memory.search(vec!, [project.id], config.query.candidates);
    const inlineMs = performance.now() - i0;
    const v0 = performance.now();
    await memory.find(vec!, [project.id], config.query.candidates);
    const scanMs = performance.now() - v0;
    const inlineAnswer = async () => {
      const n0 = performance.now();
      const inlineFound = await promptCandidates(inlineCtx, { prompt, cwd: docs, session: `n-${i}` }, "hybrid");
      if (inlineFound) chooseMemories(inlineCtx, inlineFound);
      return performance.now() - n0;
    };
    // Either answer first, turn about: neither always gets the caches the other warmed.
    let inlineAnswerMs = i % 2 === 0 ? await inlineAnswer() : 0;
    // The daemon's answer (memoriesForPrompt), its two parts timed apart.
    searchStart = performance.now();
    const found = await promptCandidates(ctx, { prompt, cwd: docs, session: `s-${i}` }, "hybrid");
    const searchMs = performance.now() - searchStart;
    const c0 = performance.now();
    const injection = found ? chooseMemories(ctx, found) : undefined;
    const selectionMs = performance.now() - c0;
    if (i % 2 === 1) inlineAnswerMs = await inlineAnswer();
    if (i < 10) continue;
    if (injection) answered++;
    times.inlineAnswer.push(inlineAnswerMs);
    times.embed.push(embedMs);
    times.bm25.push(bm25Ms);
    times.inline.push(inlineMs);
    times.scan.push(scanMs);
    times.posted.push(posted);
    times.back.push(back);
    times.search.push(searchMs);
    times.selection.push(selectionMs);
    times.answer.push(searchMs + selectionMs);
    answers.push({ start: searchStart, ms: searchMs + selectionMs });
  }
  observer.disconnect();
  const c = config.query.candidates;
  log(`embedding (hash, in-process; a real model adds 5–20 ms): ${stats(times.embed)}`);
  log(`BM25 leg alone (FTS5, ${c} candidates):            ${stats(times.bm25)}`);
  log(`vector scan alone, inline (${c} candidates):          ${stats(times.inline)}`);
  log(`vector scan alone, as the daemon scans (${memory.scan}): ${stats(times.scan)}`);
  log(`in the search, the scan posted at:                 ${stats(times.posted)} (before the BM25 leg when ≈ 0)`);
  log(`in the search, the scan's hits back at:            ${stats(times.back)}`);
  log(`search (both legs, fusion, salience):              ${stats(times.search)}`);
  log(`selection (floor, evidence, budget):               ${stats(times.selection)}`);
  log(`the daemon's answer = search + selection, the hash embedding in (target p99 < 50 ms): ${stats(times.answer)}; ${answered}/${PROMPTS} prompts got memories`);
  log(`the same answer with the scan inline, before BM25 (as before):   ${stats(times.inlineAnswer)}`);
  const counts = memory.scanCounts;
  if (counts) log(`scan shared with the worker: this thread scored ${((100 * counts.here) / Math.max(1, counts.blocks)).toFixed(0)}% of ${counts.blocks.toLocaleString("en")} blocks over ${counts.scans} scans, ${counts.takenOver} of them taken over from a worker that had not finished them`);
  const slowest = [...answers].sort((a, b) => b.ms - a.ms).slice(0, Math.max(3, Math.ceil(answers.length / 100)));
  const hit = slowest.filter((a) => gc.some((g) => g.start < a.start + a.ms && g.start + g.ms > a.start)).length;
  log(`GC pauses: ${gc.length}, ${gc.reduce((s, g) => s + g.ms, 0).toFixed(0)} ms in all, the longest ${Math.max(0, ...gc.map((g) => g.ms)).toFixed(1)} ms; ${hit} of the ${slowest.length} slowest answers met one`);
  log(`RSS ${mib(process.memoryUsage().rss)}, ${threads()} threads; load average ${load0.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end, on ${cpus().length} cores (others' work shows in the figures)`);
  // After the indexer adds or removes rows, the daemon refreshes its copy (only the new rows are
  // read) instead of reading the table whole: 100 rows in, then the same 100 out. The corpus is
  // left as it was.
  const vs = await vectors();
  const extra = Array.from({ length: 100 }, (_, i) => ({ id: cleanText(`bench-refresh-${i}`), project: cleanText(project.id), vector: hashVector(`refresh ${i}`, DIMS) }));
  await vs.upsert(table, extra);
  let r0 = performance.now();
  const ids = new Set<string>(extra.map((e) => e.id));
  const grown = await memory.refresh(vs, "bench-grown", { gone: new Set(), recorded: ids });
  const growMs = performance.now() - r0;
  await vs.delete(table, extra.map((e) => e.id));
  r0 = performance.now();
  const shrunk = await grown?.refresh(vs, "bench-shrunk", { gone: ids, recorded: new Set() });
  const shrinkMs = performance.now() - r0;
  r0 = performance.now();
  const whole = await MemoryIndex.load(vs, table, DIMS, "bench-whole");
  const wholeMs = performance.now() - r0;
  log(`the daemon's copy after a change (refresh: what SQLite's journal lists, only the rows added read): 100 rows in ${growMs.toFixed(0)} ms (${grown?.rowsRead ?? "-"} read), the same 100 out ${shrinkMs.toFixed(0)} ms (${shrunk?.rowsRead ?? "-"} read); read whole ${wholeMs.toFixed(0)} ms (${whole.rowsRead.toLocaleString("en")} read)`);
  await Promise.all([grown?.close(), shrunk?.close(), whole.close()]);
  await memory.close();
  store?.close();
  db.close();
} finally {
  if (!keep) rmSync(work, { recursive: true, force: true });
}
