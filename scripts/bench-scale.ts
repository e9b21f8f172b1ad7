/**
 * `npm run bench:scale`: the vector copy and the BM25 leg along a scale curve. For each size
 * (`--sizes 10000,100000,300000`; add 1000000 for the nightly size) and each dimension
 * (`--dims 384,768`), seeded clustered vectors (test/helpers/clustered-vectors.ts) are written to a
 * real LanceDB table, then copied into memory both ways the daemon can: float32 (MemoryIndex,
 * exact, the WebAssembly kernel and a scan worker) and compact codes (CodeIndex, as the daemon
 * holds them: sign codes and 4-bit rows in memory, the int8 rows in a file, read back for the best). It reports per size: the vector leg's p50/p95/p99 each way, recall@50 of the
 * codes against the exact scan, each copy's bytes, the RSS it leaves and (the codes) its load's
 * peak RSS, the refresh after 100 rows added and 100 removed (recorded in a real SQLite store, the
 * change read from its journal as the daemon reads it), and the load average (the figures are only as quiet as the
 * machine). `--no-locomo` skips the rows made from the LoCoMo USE vectors; `--bm25` adds the BM25
 * leg over synthetic Zipf text of the same sizes, bounded and not (bench/scale-bm25.ts), `--bm25-only` runs it alone,
 * `--bm25-dir DIR` keeps its stores in DIR and uses them again.
 * Not a test.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig } from "../src/config/config.js";
import { cleanText } from "../src/redact/clean.cjs";
import { CodeIndex, candidateCount, readBackCount } from "../src/retrieve/code-index.js";
import { MemoryIndex } from "../src/retrieve/memory-index.js";
import { refreshLimit } from "../src/retrieve/refresh-plan.js";
import { openDb } from "../src/store/db.js";
import { VecState } from "../src/store/vec-state.js";
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

/** A chunk-like id (32 hex characters, as the store's content-hash ids are). */
const idOf = (i: number) => createHash("sha256").update(`r${i}`).digest("hex").slice(0, 32);

/** `n` rows written to LanceDB, and recorded in SQLite as the indexer records them (VecState.mark). */
async function fill(store: VectorStore, state: VecState, table: string, dims: number, n: number, gen: ClusteredVectors): Promise<void> {
  const t = await store.ensure(table, dims);
  state.register(cleanText(table), cleanText("bench"), cleanText("bench"), dims, 1);
  for (let i = 0; i < n; i += 10_000) {
    const rows = Array.from({ length: Math.min(10_000, n - i) }, (_, k) => ({ id: cleanText(idOf(i + k)), project: cleanText(i + k < n * 0.9 ? "p-main" : "p-other"), vector: Array.from(gen.next()) }));
    await t.add(rows);
    state.mark(table, rows);
  }
}

/**
 * The code copy loaded by a process of its own (bench/copy-rss.ts): its RSS before and after, and
 * the load's peak; with glibc's malloc as it comes, then with the mmap threshold fixed as the
 * daemon the hooks start has it (MALLOC_MMAP_THRESHOLD_, src/hooks/user-prompt.ts).
 */
function copyAlone(dir: string, table: string, dims: number, rowsDir: string): string {
  const one = (env: NodeJS.ProcessEnv, rows?: string) => {
    const r = spawnSync(process.execPath, ["--expose-gc", join(import.meta.dirname, "bench/copy-rss.js"), dir, table, String(dims), ...(rows ? [rows] : [])], { encoding: "utf8", env });
    if (r.status !== 0) return `failed: ${r.stderr.trim().split("\n").at(-1)}`;
    const m = JSON.parse(r.stdout) as { rows: number; before: number; rss: number; maxRss: number; codes: number; ids: number; file: number; loadMs: number };
    return `RSS ${mib(m.rss)} after the load (${mib(m.before)} before it), peak ${mib(m.maxRss)}; codes ${mib(m.codes)} + ids ${mib(m.ids)}${m.file ? ` in memory, int8 rows ${mib(m.file)} in the file` : ""}; read in ${(m.loadMs / 1000).toFixed(1)} s`;
  };
  const plain = { ...process.env };
  delete plain.MALLOC_MMAP_THRESHOLD_;
  const daemon = { ...plain, MALLOC_MMAP_THRESHOLD_: "131072" };
  return `as the daemon runs (MALLOC_MMAP_THRESHOLD_=131072, the int8 rows in a file): ${one(daemon, rowsDir)}; the int8 rows in memory: ${one(daemon)}`;
}

const maxRss = () => process.resourceUsage().maxRSS * 1024;

/** One size and dimension: both copies, their scans, recall, bytes, refresh. */
async function point(work: string, n: number, dims: number, gen: ClusteredVectors, queries: Float32Array[], label: string): Promise<void> {
  const store = await VectorStore.open(join(work, `v-${dims}-${n}`));
  const db = openDb(join(work, `s-${dims}-${n}.sqlite`));
  const state = new VecState(db);
  const table = `bench_${dims}`;
  const [, writeMs] = await time(() => fill(store, state, table, dims, n, gen));
  const rowsDir = join(work, "vector-rows");
  const alone = copyAlone(join(work, `v-${dims}-${n}`), table, dims, rowsDir);
  // The codes first, so that the process's peak RSS (maxRSS) is their load's, not the float32 copy's.
  gc();
  const rss1 = process.memoryUsage().rss;
  const peak1 = maxRss();
  const [codes, codesLoad] = await time(() => CodeIndex.load(store, table, dims, state.version(table)!, { rowsDir, log }));
  const peakCodes = maxRss();
  gc();
  const rssCodes = process.memoryUsage().rss;
  const codeTimes: number[] = [];
  const codeHits: string[][] = [];
  for (const q of queries) {
    const [hits, ms] = await time(() => codes.find(q, ["p-main"], LIMIT));
    codeTimes.push(ms);
    codeHits.push(hits.map((h) => h.id));
  }
  const loadCodes = load();
  const codesRefresh = await refreshPair(store, state, table, gen, codes);
  const codeBytes = codes.bytes;
  const idBytes = codes.idBytes;
  const fileBytes = codes.fileBytes;
  const rescored = candidateCount(codes.size, LIMIT);
  await codes.close();
  // The same codes with the int8 rows in memory (as a daemon whose file cannot be made holds them): every candidate rescored from int8.
  const inMemory = await CodeIndex.load(store, table, dims, state.version(table)!);
  const memTimes: number[] = [];
  const memHits: string[][] = [];
  for (const q of queries) {
    const [hits, ms] = await time(() => inMemory.find(q, ["p-main"], LIMIT));
    memTimes.push(ms);
    memHits.push(hits.map((h) => h.id));
  }
  const loadMem = load();
  await inMemory.close();
  gc();
  const rss0 = process.memoryUsage().rss;
  const [exact, exactLoad] = await time(() => MemoryIndex.load(store, table, dims, state.version(table)!));
  if (exact.size >= defaultConfig().daemon.scanWorkerRows) await exact.useWorker({ log });
  gc();
  const rssExact = process.memoryUsage().rss;
  const exactTimes: number[] = [];
  let overlap = 0;
  let overlapMem = 0;
  for (const [i, q] of queries.entries()) {
    const [hits, ms] = await time(() => exact.find(q, ["p-main"], LIMIT));
    exactTimes.push(ms);
    const want = new Set(hits.map((h) => h.id));
    overlap += codeHits[i]!.filter((id) => want.has(id)).length / Math.max(1, want.size);
    overlapMem += memHits[i]!.filter((id) => want.has(id)).length / Math.max(1, want.size);
  }
  const loadExact = load();
  const exactScan = `${exact.kernel}, scan ${exact.scan}`;
  const exactRefresh = await refreshPair(store, state, table, gen, exact);
  await exact.close();
  log(
    `${label} ${n.toLocaleString("en")} × ${dims}: written in ${(writeMs / 1000).toFixed(1)} s\n` +
      `  exact (float32, ${exactScan}): ${pct(exactTimes)} [load ${loadExact}]; copy ${mib(n * dims * 4)}, RSS +${mib(rssExact - rss0)} (${mib(rssExact)}); read in ${(exactLoad / 1000).toFixed(1)} s; refresh +100/−100 rows ${exactRefresh}\n` +
      `  codes (${codes.kernel}, ${rescored.toLocaleString("en")} candidates, ${fileBytes ? `${readBackCount(LIMIT)} read back from the int8 rows' file` : "rescored from int8 rows in memory"}): ${pct(codeTimes)} [load ${loadCodes}]; copy ${mib(codeBytes)} + ids ${mib(idBytes)} in memory, ${mib(fileBytes)} in the file, RSS +${mib(rssCodes - rss1)} (${mib(rssCodes)}), load's peak RSS ${mib(peakCodes)} (${peakCodes > peak1 ? "raised by the load" : `not raised: ${mib(peak1)} before`}); read in ${(codesLoad / 1000).toFixed(1)} s; refresh +100/−100 rows ${codesRefresh}\n` +
      `  the int8 rows in memory instead (every candidate rescored from int8): ${pct(memTimes)} [load ${loadMem}]\n` +
      `  recall@${LIMIT} of the codes against the exact scan: ${(overlap / queries.length).toFixed(4)} (the int8 rows in memory: ${(overlapMem / queries.length).toFixed(4)})\n` +
      `  a process holding the code copy alone (as the daemon does): ${alone}`,
  );
  store.close();
  db.close();
}

/**
 * 100 rows added (written to LanceDB, recorded in SQLite, the copy refreshed: timed, SQLite's
 * journal read included), then the same 100 removed (the same); the table is left as it was.
 * The float32 copy is made anew by a refresh, the codes changed in place.
 */
async function refreshPair(store: VectorStore, state: VecState, table: string, gen: ClusteredVectors, first: MemoryIndex | CodeIndex): Promise<string> {
  const extra = Array.from({ length: 100 }, (_, i) => ({ id: cleanText(`extra-${i}`), project: cleanText("p-main"), vector: gen.next() }));
  const refresh = async (idx: MemoryIndex | CodeIndex) => {
    const version = state.version(table)!;
    const change = state.changedSince(table, idx.version, refreshLimit(idx.size));
    return change && (await idx.refresh(store, version, change));
  };
  await store.upsert(table, extra);
  state.mark(table, extra);
  const [grown, inMs] = await time(() => refresh(first));
  const after = [grown?.size, grown?.rowsRead]; // the codes change in place: read before the next refresh
  await store.delete(
    table,
    extra.map((e) => e.id),
  );
  state.unmark(
    table,
    extra.map((e) => e.id),
  );
  const [shrunk, outMs] = await time(async () => grown && (await refresh(grown)));
  if (grown !== first) await grown?.close();
  if (shrunk !== first) await shrunk?.close();
  return `${inMs.toFixed(0)} ms in / ${outMs.toFixed(0)} ms out (${grown === first ? "in place" : "a new copy"}: ${after[0] ?? "-"} → ${shrunk?.size ?? "-"} rows, ${after[1] ?? "-"} + ${shrunk?.rowsRead ?? "-"} read)`;
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
