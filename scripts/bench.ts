/**
 * `npm run bench`: quality on BEIR SciFact (when ../shared/data/scifact is present) and latency /
 * scale on a synthetic corpus. Prints a report; asserts nothing (targets are for people to read).
 *   MEM_BENCH_SCALES=10000,100000  corpus sizes for the latency part
 *   MEM_BENCH_QUICK=1               10k only
 *   MEM_BENCH_LOCOMO_ONLY=1         the LoCoMo bench alone (as `npm run bench:locomo`)
 */
import { cpus } from "node:os";
import { loadConfig } from "../src/config/load.js";
import { createProviders, firstHealthy } from "../src/embed/chain.js";
import { HashEmbedder } from "../test/helpers/hash-embedder.js";
import { scale } from "./bench/scale.js";
import { bm25Variants } from "./bench/bm25-variants.js";
import { scifact, scifactDir, type QualityRow } from "./bench/scifact.js";
import { locomoDir } from "./bench/locomo-data.js";
import { locomo } from "./bench/locomo.js";

const log = (s: string) => process.stdout.write(`${s}\n`);
const f3 = (n: number) => n.toFixed(3);

log(`mem bench — node ${process.version}, ${cpus().length} cores, ${new Date().toISOString()}`);

async function locomoPart(): Promise<void> {
  const dir = locomoDir();
  if (!dir) {
    log("\nLoCoMo: skipped (../shared/data/locomo-dev not found; set MEM_LOCOMO_DIR)");
    return;
  }
  log(`\nLoCoMo dev: retrieval and the prompt's injection (${dir})`);
  await locomo(dir, log);
}

if (process.env.MEM_BENCH_LOCOMO_ONLY === "1") {
  await locomoPart();
  process.exit(0);
}

const dir = scifactDir();
const quality: QualityRow[] = [];
if (!dir) {
  log("\nSciFact: skipped (../shared/data/scifact not found; set MEM_SCIFACT_DIR)");
} else {
  log(`\nSciFact (BEIR test: 5,183 docs, 300 queries) from ${dir}`);
  const real = await firstHealthy(await createProviders(loadConfig("/nonexistent", process.env).config));
  if (real.selected) {
    const p = real.selected.provider;
    log(` real embedding model available: ${p.name} ${p.model}`);
    quality.push(...(await scifact(dir, p, `${p.name} ${p.model}`, log)));
  } else {
    log(` no real embedding model reachable here (${real.unhealthy.map((u) => `${u.provider}: ${u.reason}`).join("; ")})`);
    log(" → vector and hybrid rows below use the hash embedder: a lexical stand-in that proves the plumbing, not semantic quality");
    quality.push(...(await scifact(dir, new HashEmbedder("hash-384", 384), "hash embedder", log)));
  }
  log("\n | leg | nDCG@10 | R@10 |\n |---|---|---|");
  for (const r of quality) log(` | ${r.label} | ${f3(r.ndcg10)} | ${f3(r.recall10)} |`);
  const bm25 = quality.find((r) => r.mode === "bm25");
  if (bm25) log(` BM25 target nDCG@10 ≥ 0.68 (published BM25 0.665–0.679): ${bm25.ndcg10 >= 0.68 ? "met" : "NOT met"}`);
  log("\n BM25 design experiments (one row per document, FTS5 k1=1.2 b=0.75 fixed):\n | tokenizer | title weight | query stop words | nDCG@10 | R@10 |\n |---|---|---|---|---|");
  for (const v of bm25Variants(dir)) log(` | ${v.tokenizer.startsWith("porter") ? "porter + unicode61" : "unicode61 (no stemming)"} | ${v.headingWeight} | ${v.stopwords ? "removed" : "kept"} | ${f3(v.ndcg10)} | ${f3(v.recall10)} |`);
}

const sizes = (process.env.MEM_BENCH_SCALES ?? (process.env.MEM_BENCH_QUICK ? "10000" : "10000,100000")).split(",").map(Number);
log("\nLatency and scale (synthetic markdown, in-process search, k=10, 384-dim hash embedder)");
const scaleRows = [];
for (const n of sizes) scaleRows.push(await scale(n, 200, log));
log("\n | chunks | index chunks/s | no-op reindex | bm25 p50/p95 | vector p50/p95 | hybrid p50/p95 |\n |---|---|---|---|---|---|");
for (const r of scaleRows) {
  const l = (m: "bm25" | "vector" | "hybrid") => `${r.latency[m].p50.toFixed(1)} / ${r.latency[m].p95.toFixed(1)} ms`;
  const noop = r.noopSeconds !== undefined ? `${r.noopSeconds.toFixed(2)} s, ${r.noopEmbeddings} embeds` : "—";
  log(` | ${r.chunks} | ${Math.round(r.chunksPerSecond)} | ${noop} | ${l("bm25")} | ${l("vector")} | ${l("hybrid")} |`);
}
const tenK = scaleRows.find((r) => r.noopSeconds !== undefined);
if (tenK) log(` no-op reindex target ≤ 2 s with zero embeddings: ${tenK.noopSeconds! <= 2 && tenK.noopEmbeddings === 0 ? "met" : "NOT met"}`);

await locomoPart();
