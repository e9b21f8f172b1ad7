/**
 * `npm run bench:scale`: the vector copy and the BM25 leg along a scale curve. For each size
 * (`--sizes 10000,100000,300000`; add 1000000 for the nightly size) and each dimension
 * (`--dims 384,768`), seeded clustered vectors (test/helpers/clustered-vectors.ts) are written to a
 * real LanceDB table, then copied into memory both ways the daemon can: float32 (MemoryIndex,
 * exact, the WebAssembly kernel and a scan worker) and compact codes (CodeIndex: sign codes and
 * int8, rescored). It reports per size: the vector leg's p50/p95/p99 each way, recall@50 of the
 * codes against the exact scan, each copy's bytes and the RSS it leaves, the refresh after 100
 * rows added and 100 removed, and the load average (the figures are only as quiet as the
 * machine). `--no-locomo` skips the rows made from the LoCoMo USE vectors; `--bm25` adds the BM25
 * leg over synthetic Zipf text of the same sizes, bounded and not (bench/scale-bm25.ts), `--bm25-only` runs it alone,
 * `--bm25-dir DIR` keeps its stores in DIR and uses them again.
 * Not a test.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig } from "../src/config/config.js";
import { cleanText } from "../src/redact/clean.cjs";
import { CodeIndex, candidateCount } from "../src/retrieve/code-index.js";
import { MemoryIndex } from "../src/retrieve/memory-index.js";
import { VectorStore } from "../src/store/vectors.js";
import { ClusteredVectors } from "../test/helpers/clustered-vectors.js";
import { bm25Curve } from "./bench/scale-bm25.js";

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : dflt;
};
const SIZES = arg("sizes", "10000,100000,300000").split(",").map(Number);
const DIMS = arg("dims", "384,768").split(",").map(Number);
const QUERIES = Number(arg("queries", "200"));
const LIMIT = defaultConfig().query.candidates;
const log = (s: string) => process.stdout.write(`${s}\n`);
const mib = (b: number) => `${Math.round(b / 2 ** 20)} MiB`;
const load = () => loadavg()[0]!.toFixed(1);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

function pct(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
  return `p50 ${at(50).toFixed(1)} / p95 ${at(95).toFixed(1)} / p99 ${at(99).toFixed(1)} ms`;
}

async function time<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const out = await f();
  return [out, performance.now() - t];
}

async function fill(store: VectorStore, table: string, dims: number, n: number, gen: ClusteredVectors): Promise<void> {
  const t = await store.ensure(table, dims);
  for (let i = 0; i < n; i += 10_000) {
    const rows = Array.from({ length: Math.min(10_000, n - i) }, (_, k) => ({ id: `r${i + k}`, project: i + k < n * 0.9 ? "p-main" : "p-other", vector: Array.from(gen.next()) }));
    await t.add(rows);
  }
}

/** One size and dimension: both copies, their scans, recall, bytes, refresh. */
async function point(work: string, n: number, dims: number, gen: ClusteredVectors, queries: Float32Array[], label: string): Promise<void> {
  const store = await VectorStore.open(join(work, `v-${dims}-${n}`));
  const table = `bench_${dims}`;
  const [, writeMs] = await time(() => fill(store, table, dims, n, gen));
  gc();
  const rss0 = process.memoryUsage().rss;
  const [exact, exactLoad] = await time(() => MemoryIndex.load(store, table, dims, "v1"));
  if (exact.size >= defaultConfig().daemon.scanWorkerRows) await exact.useWorker({ log });
  gc();
  const rssExact = process.memoryUsage().rss;
  const exactTimes: number[] = [];
  const exactHits: string[][] = [];
  for (const q of queries) {
    const [hits, ms] = await time(() => exact.find(q, ["p-main"], LIMIT));
    exactTimes.push(ms);
    exactHits.push(hits.map((h) => h.id));
  }
  const loadExact = load();
  const exactScan = `${exact.kernel}, scan ${exact.scan}`;
  // the codes alone: the float32 copy let go first, as the daemon would hold one or the other
  const [grownExact, exactRefreshIn] = await refreshPair(store, table, gen, exact);
  await exact.close();
  await grownExact?.close();
  gc();
  const rss1 = process.memoryUsage().rss;
  const [codes, codesLoad] = await time(() => CodeIndex.load(store, table, dims, "v1"));
  gc();
  const rssCodes = process.memoryUsage().rss;
  const codeTimes: number[] = [];
  let overlap = 0;
  for (const [i, q] of queries.entries()) {
    const [hits, ms] = await time(() => codes.find(q, ["p-main"], LIMIT));
    codeTimes.push(ms);
    const want = new Set(exactHits[i]);
    overlap += hits.filter((h) => want.has(h.id)).length / Math.max(1, want.size);
  }
  const loadCodes = load();
  const [, codesRefreshIn] = await refreshPair(store, table, gen, codes);
  log(
    `${label} ${n.toLocaleString("en")} × ${dims}: written in ${(writeMs / 1000).toFixed(1)} s\n` +
      `  exact (float32, ${exactScan}): ${pct(exactTimes)} [load ${loadExact}]; copy ${mib(n * dims * 4)}, RSS +${mib(rssExact - rss0)} (${mib(rssExact)}); read in ${(exactLoad / 1000).toFixed(1)} s; refresh +100/−100 rows ${exactRefreshIn}\n` +
      `  codes (${codes.kernel}, ${candidateCount(codes.size, LIMIT).toLocaleString("en")} rescored): ${pct(codeTimes)} [load ${loadCodes}]; copy ${mib(codes.bytes)}, RSS +${mib(rssCodes - rss1)} (${mib(rssCodes)}); read in ${(codesLoad / 1000).toFixed(1)} s; refresh +100/−100 rows ${codesRefreshIn}\n` +
      `  recall@${LIMIT} of the codes against the exact scan: ${(overlap / queries.length).toFixed(4)}`,
  );
  store.close();
}

/** 100 rows added (refresh timed), then the same 100 removed (refresh timed); the table is left as it was. */
async function refreshPair<T extends MemoryIndex | CodeIndex>(store: VectorStore, table: string, gen: ClusteredVectors, idx: T): Promise<[T | undefined, string]> {
  const extra = Array.from({ length: 100 }, (_, i) => ({ id: cleanText(`extra-${i}`), project: cleanText("p-main"), vector: gen.next() }));
  await store.upsert(table, extra);
  const [grown, inMs] = await time(async () => (await idx.refresh(store, "v2", new Set())) as T | undefined);
  await store.delete(
    table,
    extra.map((e) => e.id),
  );
  const [shrunk, outMs] = await time(async () => (await grown?.refresh(store, "v3", new Set())) as T | undefined);
  await shrunk?.close();
  return [grown, `${inMs.toFixed(0)} ms in / ${outMs.toFixed(0)} ms out (${grown?.size ?? "-"} → ${shrunk?.size ?? "-"} rows)`];
}

const work = mkdtempSync(join(tmpdir(), "mem-bench-scale-"));
try {
  log(`mem bench:scale — node ${process.version}, ${new Date().toISOString()}, ${cpus().length} cores, load ${loadavg().map((x) => x.toFixed(1)).join(" ")}; sizes ${SIZES.join(", ")}; dims ${DIMS.join(", ")}; ${QUERIES} queries, top ${LIMIT}`);
  const real = ClusteredVectors.locomo(join(import.meta.dirname, "../../../shared/data/locomo-dev/vectors/use-conv-30.json"), 5);
  const vectorsToo = !process.argv.includes("--bm25-only");
  if (!vectorsToo) log("(--bm25-only: the BM25 leg alone)");
  else if (process.argv.includes("--no-locomo")) log("(--no-locomo: the real-vector rows are skipped)");
  else if (real) {
    // Real sentence vectors (USE, 512 dims): LoCoMo turns mixed with noise as rows, its questions as queries.
    for (const n of SIZES) await point(work, n, real.rows.dims, real.rows, real.questions, "LoCoMo USE");
  } else log("(no LoCoMo USE vectors in ../shared: the real-vector rows are skipped)");
  for (const dims of vectorsToo ? DIMS : []) {
    for (const n of SIZES) {
      const gen = ClusteredVectors.synthetic(dims, Math.max(50, Math.round(n / 200)), 7);
      const queries = Array.from({ length: QUERIES }, () => gen.next());
      await point(work, n, dims, gen, queries, "synthetic");
    }
  }
  // `--bm25-dir DIR` keeps the BM25 stores there for the next run (a 1M store takes minutes to write)
  const bm25Dir = arg("bm25-dir", work);
  if (bm25Dir !== work) mkdirSync(bm25Dir, { recursive: true });
  if (process.argv.includes("--bm25") || !vectorsToo) for (const n of SIZES) await bm25Curve(bm25Dir, n, QUERIES, log);
} finally {
  rmSync(work, { recursive: true, force: true });
}
