import Database from "better-sqlite3";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_QUERY_TERMS, queryTerms } from "../../src/retrieve/fts-query.js";
import { ndcgAt, parseQrels, recallAt } from "./metrics.js";

/**
 * BM25 design experiments on SciFact, outside the product schema: tokenizer (Porter stemming or
 * not), heading (title) weight, and stop-word removal in the query. One document per row.
 */
export interface Variant {
  tokenizer: string;
  headingWeight: number;
  stopwords: boolean;
  ndcg10: number;
  recall10: number;
}

export function bm25Variants(dataDir: string): Variant[] {
  const docs = readFileSync(join(dataDir, "corpus.jsonl"), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as { _id: string; title: string; text: string });
  const qrels = parseQrels(readFileSync(join(dataDir, "qrels-test.tsv"), "utf8"));
  const queries = readFileSync(join(dataDir, "queries.jsonl"), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as { _id: string; text: string }).filter((q) => qrels.has(q._id));
  const out: Variant[] = [];
  for (const tokenizer of ["porter unicode61 remove_diacritics 2", "unicode61 remove_diacritics 2"]) {
    const db = new Database(":memory:");
    db.exec(`CREATE VIRTUAL TABLE d USING fts5(id UNINDEXED, heading, text, tokenize = '${tokenizer}')`);
    const ins = db.prepare("INSERT INTO d (id, heading, text) VALUES (?, ?, ?)");
    db.transaction(() => {
      for (const d of docs) ins.run(d._id, d.title, `${d.title}\n\n${d.text}`);
    })();
    for (const headingWeight of [0, 1, 2, 4]) {
      for (const stopwords of [true, false]) {
        const q = db.prepare(`SELECT id FROM d WHERE d MATCH ? ORDER BY bm25(d, 0, ${headingWeight}, 1) LIMIT 10`);
        let ndcg = 0;
        let recall = 0;
        for (const query of queries) {
          const terms = stopwords ? queryTerms(query.text) : [...new Set(query.text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])].slice(0, MAX_QUERY_TERMS);
          const ranked = terms.length ? (q.pluck().all(terms.map((t) => `"${t}"`).join(" OR ")) as string[]) : [];
          ndcg += ndcgAt(ranked, qrels.get(query._id)!, 10);
          recall += recallAt(ranked, qrels.get(query._id)!, 10);
        }
        out.push({ tokenizer, headingWeight, stopwords, ndcg10: ndcg / queries.length, recall10: recall / queries.length });
      }
    }
    db.close();
  }
  return out;
}
