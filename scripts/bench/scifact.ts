import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cleanText } from "../../src/redact/clean.cjs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { defaultConfig, type Config } from "../../src/config/config.js";
import type { EmbeddingProvider } from "../../src/embed/provider.js";
import { firstHealthy } from "../../src/embed/chain.js";
import { openDb } from "../../src/store/db.js";
import { VectorStore } from "../../src/store/vectors.js";
import { search, type Mode } from "../../src/retrieve/search.js";
import { indexPaths } from "../../indexer/pipeline.js";
import { ndcgAt, parseQrels, recallAt } from "./metrics.js";

export interface QualityRow {
  label: string;
  mode: Mode;
  ndcg10: number;
  recall10: number;
  queries: number;
}

/**
 * BEIR SciFact through the real indexer and search path: each abstract becomes a markdown file
 * (`# title` + text), queries run through `search()`, chunk hits map back to documents.
 */
export async function scifact(dataDir: string, provider: EmbeddingProvider | undefined, providerLabel: string, log: (s: string) => void): Promise<QualityRow[]> {
  const work = mkdtempSync(join(tmpdir(), "mem-scifact-"));
  try {
    const docs = join(work, "docs");
    mkdirSync(docs);
    for (const line of readFileSync(join(dataDir, "corpus.jsonl"), "utf8").split("\n")) {
      if (!line.trim()) continue;
      const d = JSON.parse(line) as { _id: string; title: string; text: string };
      writeFileSync(join(docs, `${d._id}.md`), `# ${d.title.replace(/\s+/g, " ")}\n\n${d.text}\n`);
    }
    const qrels = parseQrels(readFileSync(join(dataDir, "qrels-test.tsv"), "utf8"));
    const queries = readFileSync(join(dataDir, "queries.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { _id: string; text: string })
      .filter((q) => qrels.has(q._id));

    const config: Config = defaultConfig();
    const db = openDb(join(work, "mem.sqlite"));
    let store: VectorStore | undefined;
    const vectors = async () => (store ??= await VectorStore.open(join(work, "vectors")));
    const providers = provider ? [provider] : [];
    const t0 = Date.now();
    const summary = await indexPaths({ db, config, providers, vectors }, { roots: [docs], project: { id: cleanText("scifact"), name: "scifact", root: docs }, full: false });
    log(`  indexed ${summary.files.indexed} docs → ${summary.chunks.total} chunks in ${((Date.now() - t0) / 1000).toFixed(1)} s (vectors: ${summary.vector.status === "ok" ? `${summary.vector.embedded} with ${providerLabel}` : `skipped: ${summary.vector.reason}`})`);

    const modes: Mode[] = provider && summary.vector.status === "ok" ? ["bm25", "vector", "hybrid"] : ["bm25"];
    const rows: QualityRow[] = [];
    for (const mode of modes) {
      let ndcg = 0;
      let recall = 0;
      for (const q of queries) {
        const res = await search(
          { db, vectors, projectRoot: () => docs, pickProvider: () => firstHealthy(providers) },
          { text: q.text, k: 100, mode, filters: { projects: ["scifact"] }, candidates: 100, rrfK: config.query.rrfK, weights: config.query.weights, dedupeThreshold: 1.01 },
        );
        const ranked: string[] = [];
        for (const r of res.results) {
          const id = basename(r.path, ".md");
          if (!ranked.includes(id)) ranked.push(id);
        }
        ndcg += ndcgAt(ranked, qrels.get(q._id)!, 10);
        recall += recallAt(ranked, qrels.get(q._id)!, 10);
      }
      rows.push({ label: mode === "bm25" ? "BM25 (FTS5, porter)" : `${mode} (${providerLabel})`, mode, ndcg10: ndcg / queries.length, recall10: recall / queries.length, queries: queries.length });
    }
    store?.close();
    db.close();
    return rows;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function scifactDir(): string | undefined {
  const dir = process.env.MEM_SCIFACT_DIR ?? join(process.cwd(), "..", "shared", "data", "scifact");
  return existsSync(join(dir, "corpus.jsonl")) ? dir : undefined;
}
