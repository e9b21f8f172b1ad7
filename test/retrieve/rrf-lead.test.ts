/**
 * Weighted RRF keeps a clear BM25 lead at the top: a vector leg whose ranks put BM25's distant
 * second first (a model that answers every question with the same kind of text) no longer
 * overturns the one note holding all the question's words, as the calibrated combination never
 * let it. A real index (SQLite FTS5 + LanceDB); the vector leg is a steered embedder whose
 * similarities are set per note.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { indexPaths } from "../../indexer/pipeline.js";
import { defaultConfig } from "../../src/config/config.js";
import { firstHealthy } from "../../src/embed/chain.js";
import { normalize, type EmbedKind } from "../../src/embed/provider.js";
import { resolveProject } from "../../src/project/identity.js";
import { fusionLine } from "../../src/retrieve/explain.js";
import { search, type SearchOptions } from "../../src/retrieve/search.js";
import { openDb } from "../../src/store/db.js";
import { VectorStore } from "../../src/store/vectors.js";
import { HashEmbedder } from "../helpers/hash-embedder.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-rrf-lead-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const QUERY = "lighthouse keeper rotation";
/** Query: axis 0. The note BM25 ranks second: axis 0 (the vector leg's first). The others: none of it. The note holding every query word: against it (the vector leg's last). */
class Steered extends HashEmbedder {
  override async embed(texts: string[], _kind?: EmbedKind): Promise<Float32Array[]> {
    return texts.map((t) => {
      const v = new Float32Array(this.dims);
      const other = 1 + (t.length % (this.dims - 1));
      if (t === QUERY || t.includes("night shift")) v[0] = 1;
      else {
        v[0] = t.includes("harbour board") ? -0.5 : 0;
        v[other] = 1;
      }
      return normalize(v);
    });
  }
}

test("RRF: a light vector leg does not put BM25's distant second above the note holding all the words", async () => {
  const docs = join(tmp, "docs");
  mkdirSync(docs);
  const notes = [
    "The lighthouse keeper rotation schedule is posted on the harbour board every week.",
    "The rotation of the night shift is agreed each Monday by the crew.",
    "Fuel for the generator is delivered by boat in the spring.",
    "The fog horn was replaced after the storm damaged its housing.",
    "Visitors may climb the tower on Sundays when the weather allows.",
    "The log book records every passing ship and the wind direction.",
  ];
  notes.forEach((t, i) => writeFileSync(join(docs, `n${i}.md`), `# Note ${i}\n\n${t}\n`));
  const db = openDb(join(tmp, "home", "mem.sqlite"));
  const store = await VectorStore.open(join(tmp, "home", "vectors"));
  const embedder = new Steered("steered-rrf-lead", 16);
  const project = resolveProject(docs);
  try {
    const ix = await indexPaths({ db, config: defaultConfig(), providers: [embedder], vectors: async () => store }, { roots: [docs], project, full: false });
    assert.equal(ix.vector.status, "ok");
    const ctx = { db, vectors: async () => store, projectRoot: () => docs, pickProvider: () => firstHealthy([embedder]) };
    const opts = (fusion: "rrf" | "calibrated"): SearchOptions => ({ text: QUERY, k: 10, mode: "hybrid", filters: { projects: [project.id] }, candidates: 50, rrfK: 10, weights: { bm25: 1, vector: 1 }, dedupeThreshold: 0.99, fusion });
    const path = (r: { path: string }) => r.path.split("/").pop();

    const rrf = await search(ctx, opts("rrf"));
    const f = rrf.fusion!;
    assert.equal(f.method, "rrf");
    assert.ok(f.weights.vector >= 0.4, `the vector leg weighs enough to matter: ${f.weights.vector}`);
    const bm = rrf.results.find((r) => path(r) === "n0.md")!;
    const second = rrf.results.find((r) => path(r) === "n1.md")!;
    assert.equal(bm.legs.bm25?.rank, 1);
    assert.equal(second.legs.bm25?.rank, 2);
    assert.equal(second.legs.vector?.rank, 1, "the vector leg puts BM25's second first");
    assert.ok(second.legs.bm25!.score < 0.6 * bm.legs.bm25!.score, "BM25's lead is clear");
    assert.ok(f.lead !== undefined && f.lead < 0.5, `the vector leg keeps a small share of its weight against the lead: ${f.lead}`);
    assert.equal(path(rrf.results[0]!), "n0.md", "BM25's clear first stays first");
    assert.match(fusionLine(f) ?? "", /^fusion: weighted RRF \(k 10\); BM25 1(\.0+)?, vector \d\.\d\d = .*, in RRF × 0\.\d\d for BM25's lead at the top: /);

    const cal = await search(ctx, opts("calibrated"));
    assert.equal(path(cal.results[0]!), "n0.md", "as the calibrated combination ranks it");
    assert.equal(cal.fusion?.lead, undefined);
  } finally {
    store.close();
    db.close();
  }
});
