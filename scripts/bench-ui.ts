/**
 * `npm run bench:ui`: the memory explorer (`mem ui`) at scale. A synthetic store of 100k chunks
 * (`MEM_BENCH_CHUNKS`) is indexed with 768-dim hash vectors (the real pipeline: SQLite FTS5 and
 * LanceDB), 2,000 explicit memories are added through the memory service (in 200 sessions), and
 * 20,000 prompt hook runs are logged; then the explorer's real HTTP server is started and every
 * page of its nav is fetched (the whole HTML answer, as a browser's first request gets it), each
 * 20 times: p50/p95 per page, and for search 60 different queries, hybrid (the scan of LanceDB
 * as `mem ui` runs it, with no daemon's copy in memory) and BM25 alone. With Chromium at
 * /usr/bin/chromium (or MEM_CHROMIUM) and playwright-core, also the browser's page load (the
 * `load` event) of the search page. Not a test: it prints figures. `MEM_BENCH_DIR` keeps the store.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { indexPaths } from "../indexer/pipeline.js";
import { appWith, loadAppConfig } from "../src/app.js";
import { firstHealthy } from "../src/embed/chain.js";
import { resolveProject } from "../src/project/identity.js";
import { cleanText, clean } from "../src/redact/clean.cjs";
import { openDb } from "../src/store/db.js";
import { recordPromptRun } from "../src/store/prompt-log.js";
import { VectorStore } from "../src/store/vectors.js";
import { uiContext } from "../src/web/context.js";
import { VIEWS } from "../src/web/layout.js";
import { startUi } from "../src/web/server.js";
import { HashEmbedder } from "../test/helpers/hash-embedder.js";
import { syntheticCorpus, syntheticQueries } from "./bench/scale.js";

const CHUNKS = Number(process.env.MEM_BENCH_CHUNKS ?? 100_000);
const DIMS = 768;
const REPEAT = 20;
const log = (s: string): void => {
  process.stdout.write(`${s}\n`);
};

function stats(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
  return `p50 ${at(50).toFixed(1)} ms, p95 ${at(95).toFixed(1)} ms, max ${s[s.length - 1]!.toFixed(1)} ms`;
}

const keep = process.env.MEM_BENCH_DIR ? join(process.env.MEM_BENCH_DIR, `ui-${CHUNKS}`) : undefined;
const reuse = keep !== undefined && existsSync(join(keep, "mem.sqlite"));
const work = keep ?? mkdtempSync(join(tmpdir(), "mem-bench-ui-"));
if (keep) mkdirSync(keep, { recursive: true });
const env = { ...process.env, MEM_HOME: work, MEM_EMBED_ORDER: "none", MEM_WATCH: "0", MEM_NO_DAEMON: "1" };
try {
  log(`mem bench:ui — node ${process.version}, ${new Date().toISOString()}; ${CHUNKS.toLocaleString("en")} chunks, ${DIMS} dims`);
  const docs = join(work, "docs");
  const db = openDb(join(work, "mem.sqlite"));
  const app = appWith(loadAppConfig(env), db);
  const embedder = new HashEmbedder("hash-bench", DIMS);
  const project = resolveProject(docs);
  if (reuse) log(`reusing the store in ${work}`);
  else {
    syntheticCorpus(docs, CHUNKS);
    let t = performance.now();
    let store: VectorStore | undefined;
    const vectors = async () => (store ??= await VectorStore.open(join(work, "vectors")));
    const indexed = await indexPaths({ db, config: app.config, providers: [embedder], vectors }, { roots: [docs], project, full: false });
    log(`indexed ${indexed.chunks.total.toLocaleString("en")} chunks in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    t = performance.now();
    const ctx = uiContext(app, project, docs);
    const words = syntheticQueries(2_000, 3);
    for (let i = 0; i < 2_000; i++) ctx.svc.put({ text: `Decided ${words[i]} because ${words[(i * 7) % 2_000]}`, kind: i % 5 === 0 ? "learned" : "decision", project: docs, session: `bench-session-${i % 200}` });
    log(`2,000 memories in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const now = Date.now();
    db.transaction(() => {
      for (let i = 0; i < 20_000; i++) {
        recordPromptRun(db, { at: now - (20_000 - i) * 60_000, session: cleanText(`bench-session-${i % 200}`), project: project.id, hook: "prompt", ms: 5 + (i % 37), mode: "hybrid", prompt: cleanText(words[i % 2_000]!), injected: cleanText(`<mem-context>\n- ${words[(i + 1) % 2_000]}\n</mem-context>`), ids: [], candidates: clean([]) });
      }
    })();
  }
  const ctx = uiContext(app, project, docs);
  // The hash embedder stands for the user's model (no weights can be downloaded here).
  ctx.pickProvider = async () => firstHealthy([embedder]);
  const token = "B".repeat(43);
  const ui = await startUi({ ctx, token, port: 0, log });
  const base = `http://127.0.0.1:${ui.port}/${token}`;
  const fetchTimed = async (path: string): Promise<{ ms: number; status: number; bytes: number }> => {
    const t = performance.now();
    const r = await fetch(`${base}${path}`, { redirect: "manual" });
    const body = await r.arrayBuffer();
    return { ms: performance.now() - t, status: r.status, bytes: body.byteLength };
  };
  const pages = [...VIEWS.map((v) => v.path), "/memories?offset=1500", "/prompts?offset=10000"];
  log("\npage (whole HTML answer over HTTP, 20 times each):");
  for (const p of pages) {
    const first = await fetchTimed(p);
    const times: number[] = [];
    for (let i = 0; i < REPEAT; i++) times.push((await fetchTimed(p)).ms);
    log(`  ${p.padEnd(24)} ${first.status} ${(first.bytes / 1024).toFixed(1).padStart(6)} kB  first ${first.ms.toFixed(1)} ms; then ${stats(times)}`);
  }
  const queries = syntheticQueries(60, 23);
  // As a running `mem ui` after its first search: the vector table copied into memory (as the daemon holds it).
  const t0 = performance.now();
  await fetchTimed(`/search?q=${encodeURIComponent(queries[59]!)}`);
  while (ctx.heldVectors().length === 0 && performance.now() - t0 < 120_000) await new Promise((r) => setTimeout(r, 200));
  log(`vectors copied into memory after the first search: ${ctx.heldVectors().map((c) => `${c.table} ${c.rows.toLocaleString("en")} rows`).join(", ") || "none"} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  for (const mode of ["hybrid", "bm25"]) {
    const times: number[] = [];
    let results = 0;
    for (const q of queries) {
      const t = performance.now();
      const r = await fetch(`${base}/search?q=${encodeURIComponent(q)}&mode=${mode}`);
      const body = await r.text();
      times.push(performance.now() - t);
      results += (body.match(/<li class="result"/g) ?? []).length;
    }
    log(`search (${mode}), 60 queries, 20 results a page: ${stats(times)}; ${(results / queries.length).toFixed(1)} results a query`);
  }
  for (const q of queries.slice(0, 20)) await fetchTimed(`/legs?q=${encodeURIComponent(q)}`);
  const legs: number[] = [];
  for (const q of queries.slice(20, 40)) legs.push((await fetchTimed(`/legs?q=${encodeURIComponent(q)}`)).ms);
  log(`legs (the hook's search, floor and budget for a query), 20 queries: ${stats(legs)}`);
  await browserLoad(`${base}/search?q=${encodeURIComponent(queries[0]!)}`, `${base}/memories`);
  await ui.close();
  await ctx.close();
  await app.close();
  log(`load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
} finally {
  if (!keep) rmSync(work, { recursive: true, force: true });
}

/** The browser's page load (navigation start to the load event) of a search and of the memories, when Chromium is here. */
async function browserLoad(search: string, memories: string): Promise<void> {
  const exe = process.env.MEM_CHROMIUM ?? "/usr/bin/chromium";
  if (!existsSync(exe)) return log(`browser page load: skipped (no Chromium at ${exe})`);
  let pw: typeof import("playwright-core");
  try {
    pw = await import("playwright-core");
  } catch {
    return log("browser page load: skipped (playwright-core is not installed)");
  }
  const browser = await pw.chromium.launch({ executablePath: exe, args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
  try {
    const page = await browser.newPage();
    for (const [name, url] of [["search", search], ["memories", memories]] as const) {
      const times: number[] = [];
      for (let i = 0; i < 10; i++) {
        await page.goto(url, { waitUntil: "load" });
        times.push(await page.evaluate(() => performance.getEntriesByType("navigation")[0]!.duration));
      }
      log(`browser page load (navigation to load event), ${name}, 10 times: ${stats(times)}`);
    }
  } finally {
    await browser.close();
  }
}
