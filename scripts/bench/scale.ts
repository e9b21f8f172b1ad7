import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cleanText } from "../../src/redact/clean.cjs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig } from "../../src/config/config.js";
import { firstHealthy } from "../../src/embed/chain.js";
import { openDb } from "../../src/store/db.js";
import { VectorStore } from "../../src/store/vectors.js";
import { search, type Mode } from "../../src/retrieve/search.js";
import { indexPaths } from "../../indexer/pipeline.js";
import { HashEmbedder } from "../../test/helpers/hash-embedder.js";
import { prng } from "../prng.js";
import { percentile } from "./metrics.js";

export function vocabulary(n: number, rand: () => number): string[] {
  const syl = ["ka", "lo", "mi", "ter", "an", "vel", "or", "is", "un", "pra", "dex", "sio", "em", "ru", "qua", "zen", "fi", "bo"];
  const words = new Set<string>();
  while (words.size < n) {
    let w = "";
    const len = 2 + Math.floor(rand() * 3);
    for (let i = 0; i < len; i++) w += syl[Math.floor(rand() * syl.length)];
    words.add(w);
  }
  return [...words];
}

/** Zipf-ish word picker: low indexes are common. */
export function zipf(words: string[], rand: () => number): () => string {
  return () => words[Math.min(words.length - 1, Math.floor(words.length * rand() ** 3))]!;
}

/** Writes `chunks` sections of ~180 words, 10 sections a file, each section one chunk. */
export function syntheticCorpus(dir: string, chunks: number, seed = 7): void {
  const rand = prng(seed);
  const word = zipf(vocabulary(20_000, rand), rand);
  const sentence = () => `${Array.from({ length: 8 + Math.floor(rand() * 10) }, word).join(" ")}.`;
  const files = Math.ceil(chunks / 10);
  for (let f = 0; f < files; f++) {
    const sub = join(dir, `d${Math.floor(f / 500)}`);
    if (f % 500 === 0) mkdirSync(sub, { recursive: true });
    const parts = [`# Note ${f}`];
    for (let s = 0; s < 10 && f * 10 + s < chunks; s++) {
      parts.push(`## ${word()} ${word()}`, Array.from({ length: 12 }, sentence).join(" "));
    }
    writeFileSync(join(sub, `note-${f}.md`), `${parts.join("\n\n")}\n`);
  }
}

/** Queries of 3–7 content words: ranks 50–5,000 of the vocabulary (the top 50 act as stop words). */
export function syntheticQueries(n: number, seed = 11): string[] {
  const words = vocabulary(20_000, prng(7));
  const rand = prng(seed);
  const pick = () => words[50 + Math.floor(rand() * 4950)]!;
  return Array.from({ length: n }, () => Array.from({ length: 3 + Math.floor(rand() * 5) }, pick).join(" "));
}

export interface ScaleReport {
  chunks: number;
  indexSeconds: number;
  chunksPerSecond: number;
  noopSeconds?: number;
  noopEmbeddings?: number;
  latency: Record<Mode, { p50: number; p95: number }>;
}

export async function scale(chunks: number, queries: number, log: (s: string) => void): Promise<ScaleReport> {
  const work = mkdtempSync(join(tmpdir(), "mem-scale-"));
  try {
    const docs = join(work, "docs");
    syntheticCorpus(docs, chunks);
    const config = defaultConfig();
    const db = openDb(join(work, "mem.sqlite"));
    let store: VectorStore | undefined;
    const vectors = async () => (store ??= await VectorStore.open(join(work, "vectors")));
    const embedder = new HashEmbedder("hash-bench", 384);
    const ctx = { db, config, providers: [embedder], vectors };
    const project = { id: cleanText("bench"), name: "bench", root: docs };
    let t = performance.now();
    const first = await indexPaths(ctx, { roots: [docs], project, full: false });
    const indexSeconds = (performance.now() - t) / 1000;
    log(`  ${chunks} chunks: indexed ${first.chunks.total} chunks from ${first.files.indexed} files in ${indexSeconds.toFixed(1)} s (${Math.round(first.chunks.total / indexSeconds)} chunks/s, 384-dim hash embedder)`);
    const report: ScaleReport = { chunks: first.chunks.total, indexSeconds, chunksPerSecond: first.chunks.total / indexSeconds, latency: {} as ScaleReport["latency"] };
    if (chunks <= 10_000) {
      const before = embedder.texts;
      t = performance.now();
      await indexPaths(ctx, { roots: [docs], project, full: false });
      report.noopSeconds = (performance.now() - t) / 1000;
      report.noopEmbeddings = embedder.texts - before;
      log(`  no-op reindex: ${report.noopSeconds.toFixed(2)} s, ${report.noopEmbeddings} embeddings`);
    }
    const qs = syntheticQueries(queries);
    for (const mode of ["bm25", "vector", "hybrid"] as Mode[]) {
      const times: number[] = [];
      for (const [i, q] of qs.entries()) {
        const s = performance.now();
        await search(
          { db, vectors, projectRoot: () => docs, pickProvider: () => firstHealthy([embedder]) },
          { text: q, k: 10, mode, filters: { projects: ["bench"] }, candidates: config.query.candidates, rrfK: 60, weights: config.query.weights, dedupeThreshold: config.query.dedupeThreshold },
        );
        if (i >= 5) times.push(performance.now() - s); // the first few warm caches up
      }
      times.sort((a, b) => a - b);
      report.latency[mode] = { p50: percentile(times, 50), p95: percentile(times, 95) };
      log(`  ${mode.padEnd(6)} p50 ${report.latency[mode].p50.toFixed(1)} ms, p95 ${report.latency[mode].p95.toFixed(1)} ms (${times.length} queries)`);
    }
    store?.close();
    db.close();
    return report;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
