/**
 * `npm run bench:prompt`: a real daemon's answer to a prompt along a curve of store sizes. For each
 * dimension (`--dims 768`, `384` too where cheap) and size (`--sizes 10000,100000,300000`, add
 * 1000000 for the nightly size), a data home is built fast (scripts/bench/prompt-store.ts: a seed
 * note through the real indexer, then synthetic chunks straight into SQLite/FTS5 and clustered
 * vectors into LanceDB and vec_rows), the real indexer's throughput is measured on a fresh batch of
 * markdown (`--batch`, 2,000 chunks) added to it, then a real `mem serve` is started on it against
 * a loopback Ollama that answers the embed API at once with deterministic vectors
 * (test/helpers/fake-ollama.ts), and `--prompts` (300) prompts are sent over its socket as the
 * UserPromptSubmit hook sends them, one at a time, `--gap-ms` (100) apart. Per point it prints the daemon's answer p50/p95/p99 (its own
 * `ms`, which includes the loopback embedding, timed apart and subtracted at the median), the
 * client's round trip, each leg alone (BM25; the vector leg as the daemon holds the table), the
 * daemon's RSS from /proc/<pid>/status (VmRSS after warm-up and after the prompts, VmHWM its peak)
 * beside what it says of itself, the index throughput, and the load average (others' work shows
 * in the figures). `--cpu-prof DIR` runs the daemon under `node --cpu-prof` (its V8 profile
 * written to DIR when it stops). `--vector-memory-mb N` sets `daemon.vectorMemoryMB`; `--keep DIR` keeps the
 * data homes, and `--reuse` (with `--keep`) asks a store kept by an earlier run again, without
 * building it or indexing a batch into it (a 1M store takes about 12 minutes to build). Linux only (/proc). Not a test.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { openApp } from "../src/app.js";
import { startFakeOllama } from "../test/helpers/fake-ollama.js";
import { syntheticQueries } from "./bench/scale.js";
import { buildStore } from "./bench/prompt-store.js";
import { niceOf, procMemory, sendPrompts, startDaemon, status, waitFor } from "./bench/prompt-daemon.js";
import { indexThroughput, legs } from "./bench/prompt-legs.js";

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : dflt;
};
const SIZES = arg("sizes", "10000,100000,300000").split(",").map(Number);
const DIMS = arg("dims", "768").split(",").map(Number);
const PROMPTS = Number(arg("prompts", "300"));
const BATCH = Number(arg("batch", "2000"));
const VECTOR_MB = arg("vector-memory-mb", "");
const KEEP = arg("keep", "");
const GAP_MS = Number(arg("gap-ms", "100"));
/** `--cpu-prof DIR`: the daemon writes a V8 CPU profile there when it stops (where its answer's time goes). */
const CPU_PROF = arg("cpu-prof", "");
const REUSE = process.argv.includes("--reuse");
const WARM = 10;
/** An Ollama model of each size, as `ollama pull` names them. */
const MODEL: Record<number, string> = { 768: "nomic-embed-text", 384: "all-minilm" };
const log = (s: string) => process.stdout.write(`${s}\n`);
const mib = (b: number) => `${Math.round(b / 2 ** 20).toLocaleString("en")} MiB`;
const load = () => loadavg()[0]!.toFixed(1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

function pct(xs: number[], minus = 0): string {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => Math.max(0, s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! - minus).toFixed(1);
  return `${at(50)} / ${at(95)} / ${at(99)}`;
}

const rows: string[] = [];

async function point(dims: number, n: number, ollamaUrl: string): Promise<void> {
  const model = MODEL[dims] ?? "nomic-embed-text";
  const work = KEEP ? join(KEEP, `${dims}-${n}`) : mkdtempSync(join(tmpdir(), "mem-bench-prompt-"));
  const home = join(work, "home");
  const proj = join(work, "proj");
  mkdirSync(home, { recursive: true, mode: 0o700 });
  mkdirSync(join(proj, ".git"), { recursive: true });
  const daemon = { idleMs: 3_600_000, indexEveryMs: 60_000, ...(VECTOR_MB ? { vectorMemoryMB: Number(VECTOR_MB) } : {}) };
  writeFileSync(join(home, "config.json"), JSON.stringify({ embedding: { order: ["ollama"], ollama: { host: ollamaUrl, model } }, index: { watch: false }, daemon }));
  const env = { PATH: process.env.PATH, HOME: work, MEM_HOME: home, MEM_WATCH: "0" };
  try {
    log(`${n.toLocaleString("en")} chunks × ${dims} dims (${model}), ${new Date().toISOString()} [load ${load()}]`);
    let app = openApp(env);
    const kept = join(work, "built.json");
    const reused = REUSE && KEEP !== "" && existsSync(kept);
    const built = reused ? (JSON.parse(readFileSync(kept, "utf8")) as Awaited<ReturnType<typeof buildStore>>) : await buildStore(app, proj, n, dims, log);
    if (KEEP) writeFileSync(kept, JSON.stringify(built));
    const index = reused ? { chunks: 0, seconds: 0, perSecond: Number.NaN } : await indexThroughput(app, proj, BATCH);
    if (reused) log(`  the store kept in ${work} asked again (--reuse): not built, no batch indexed`);
    else log(`  the real indexer: ${index.chunks.toLocaleString("en")} new chunks in ${index.seconds.toFixed(1)} s, ${Math.round(index.perSecond)} chunks/s (loopback embedder) [load ${load()}]`);
    const total = app.db.prepare("SELECT count(*) FROM vec_rows WHERE table_name = ?").pluck().get(built.table) as number;
    await app.close();

    const d = await startDaemon(home, work, CPU_PROF ? ["--cpu-prof", "--cpu-prof-dir", CPU_PROF] : []);
    try {
      // The warm-up loads the table into memory (or finds it over daemon.vectorMemoryMB).
      const t = performance.now();
      await waitFor(async () => {
        const held = (await status(home))?.inMemory as { rows: number }[] | undefined;
        return held?.[0]?.rows === total || /over daemon\.vectorMemoryMB/.test(d.stderr());
      }, 30 * 60_000, "the daemon's copy");
      const loadS = (performance.now() - t) / 1000;
      const warm = procMemory(d.pid);
      const nice = niceOf(d.pid);
      const qs = syntheticQueries(PROMPTS + WARM).map((q) => `why did we decide on ${q}?`);
      const load0 = load();
      const times = await sendPrompts(home, proj, qs, WARM, 5_000, GAP_MS);
      const load1 = load();
      const after = procMemory(d.pid);
      const said = (await status(home)) as { memory?: { rss: number; heapUsed: number; vectorBytes: number; external?: number; vectorFileBytes?: number }; inMemory?: { kernel: string; scan: string }[] } | undefined;
      await d.stop();
      const held = said?.inMemory?.[0];
      const by = held ? `${held.kernel}, ${held.scan}` : "lancedb";
      log(`  daemon ${d.pid} (nice ${nice}): copy ready in ${loadS.toFixed(1)} s (${by}); VmRSS ${mib(warm.rss)} after warm-up, ${mib(after.rss)} after the prompts (anonymous ${mib(after.anon)}, file-backed ${mib(after.file)}, shared ${mib(after.shmem)}), VmHWM ${mib(after.hwm)}; it says RSS ${mib(said?.memory?.rss ?? 0)}, heap ${mib(said?.memory?.heapUsed ?? 0)}, external ${mib(said?.memory?.external ?? 0)}, vectors ${mib(said?.memory?.vectorBytes ?? 0)} in memory and ${mib(said?.memory?.vectorFileBytes ?? 0)} in files`);
      if (times.failed.length > 0) log(`  ${times.failed.length} prompts failed: ${[...new Set(times.failed)].join("; ")}`);

      app = openApp(env);
      const parts = await legs(app, built.table, dims, proj, qs, WARM);
      await app.close();
      const embed = median(parts.embed);
      log(`  the daemon's answer (its ms, the loopback embedding in): ${pct(times.daemon)} ms; ${times.answered}/${times.daemon.length} prompts got memories [load ${load0} → ${load1}]`);
      log(`  the same, the embedding's median (${embed.toFixed(1)} ms) aside:      ${pct(times.daemon, embed)} ms`);
      log(`  the client's round trip on the socket:                  ${pct(times.roundTrip)} ms`);
      log(`  embedding alone (mem's Ollama client, loopback):        ${pct(parts.embed)} ms`);
      log(`  BM25 leg alone (FTS5, 30 candidates):                   ${pct(parts.bm25)} ms`);
      log(`  vector leg alone (${parts.vectorBy}):  ${pct(parts.vector)} ms [load ${load()}]`);
      if (parts.vectorInMemory.length > 0) log(`  the same copy with its int8 rows in memory, in turns with it:  ${pct(parts.vectorInMemory)} ms`);
      rows.push(`| ${dims} | ${n.toLocaleString("en")} | **${pct(times.daemon, embed)}** | ${pct(times.roundTrip)} | ${pct(parts.bm25)} | ${pct(parts.vector)} (${by}) | ${mib(warm.rss)} / ${mib(after.rss)} / ${mib(after.hwm)} | ${mib(said?.memory?.vectorBytes ?? 0)} | ${Math.round(index.perSecond)} | ${load0}–${load1} |`);
    } finally {
      await d.stop();
    }
  } finally {
    if (!KEEP) rmSync(work, { recursive: true, force: true });
  }
}

log(`mem bench:prompt — node ${process.version}, ${cpus().length} cores; sizes ${SIZES.join(", ")}; dims ${DIMS.join(", ")}; ${PROMPTS} prompts after ${WARM} to warm up, ${GAP_MS} ms apart`);
for (const dims of DIMS) {
  const fake = await startFakeOllama({ models: [`${MODEL[dims] ?? "nomic-embed-text"}:latest`], dims });
  try {
    for (const n of SIZES) await point(dims, n, fake.url);
  } finally {
    await fake.close();
  }
}
log("\n| dims | chunks | answer p50 / p95 / p99 ms, embedding aside | round trip ms | BM25 leg ms | vector leg ms | daemon VmRSS warm / after / VmHWM | vectors held | index chunks/s | load |");
log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
for (const r of rows) log(r);
