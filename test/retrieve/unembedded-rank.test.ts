/**
 * A chunk that has no vector yet (captured a moment ago, its vector still to come) is ranked by
 * BM25 alone in hybrid search: the vector leg counts as missing for it, not as having ranked it
 * last. A real index (SQLite FTS5 + LanceDB, hash embedder); the chunk is left without a vector by
 * indexing its file with no provider.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { indexPaths } from "../../indexer/pipeline.js";
import { defaultConfig } from "../../src/config/config.js";
import { firstHealthy } from "../../src/embed/chain.js";
import { resolveProject } from "../../src/project/identity.js";
import { search, type SearchOptions } from "../../src/retrieve/search.js";
import { openDb } from "../../src/store/db.js";
import { VectorStore } from "../../src/store/vectors.js";
import { HashEmbedder } from "../helpers/hash-embedder.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-unembedded-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("hybrid search ranks a chunk without a vector by BM25 alone, and it can come first", async () => {
  const docs = join(tmp, "docs");
  mkdirSync(docs);
  const notes = [
    "The ingest worker batches rows before it writes them to the warehouse.",
    "Backups of the warehouse run nightly and are kept for thirty days.",
    "The ingest worker retries a failed batch three times with a backoff.",
    "Dashboards read from the warehouse replica, never from the primary.",
    "The scheduler starts the ingest worker every five minutes.",
    "Schema changes to the warehouse go through a reviewed migration.",
  ];
  notes.forEach((t, i) => writeFileSync(join(docs, `n${i}.md`), `# Note ${i}\n\n${t}\n`));
  const db = openDb(join(tmp, "home", "mem.sqlite"));
  const store = await VectorStore.open(join(tmp, "home", "vectors"));
  const embedder = new HashEmbedder("hash-unembedded", 128);
  const project = resolveProject(docs);
  const config = defaultConfig();
  try {
    const first = await indexPaths({ db, config, providers: [embedder], vectors: async () => store }, { roots: [docs], project, full: false });
    assert.equal(first.vector.status, "ok");
    // A new note, indexed with no provider: its chunk has no vector (as a capture before the daemon embeds it).
    writeFileSync(join(docs, "fresh.md"), "# Fresh\n\nThe ingest worker writes its checkpoint to the zeppelin bucket after every batch.\n");
    const second = await indexPaths({ db, config, providers: [], vectors: async () => store }, { roots: [docs], project, full: false });
    assert.equal(second.vector.status, "skipped");
    const freshId = db.prepare("SELECT id FROM chunks WHERE text LIKE '%zeppelin%'").pluck().get() as string;
    assert.equal(db.prepare("SELECT count(*) FROM vec_rows WHERE chunk_id = ?").pluck().get(freshId), 0, "the new chunk has no vector");

    const ctx = { db, vectors: async () => store, projectRoot: () => docs, pickProvider: () => firstHealthy([embedder]) };
    const opts: SearchOptions = { text: "ingest worker checkpoint zeppelin bucket", k: 10, mode: "hybrid", filters: { projects: [project.id] }, candidates: 50, rrfK: 60, weights: { bm25: 1, vector: 1 }, dedupeThreshold: 0.99 };
    const res = await search(ctx, opts);
    assert.deepEqual(res.legs, ["bm25", "vector"]);
    assert.ok(res.fusion, "weighted fusion ran");
    assert.ok(res.fusion.weights.vector > 0, "the vector leg has a weight");
    assert.equal(res.fusion.unembedded, 1, "the search knows one BM25 candidate has no vector");
    const fresh = res.results.find((r) => r.id === freshId);
    assert.ok(fresh, "found");
    assert.equal(fresh.legs.vector, undefined, "not in the vector leg");
    assert.equal(fresh.legs.bm25?.rank, 1, "the best BM25 match");
    // Ranked by BM25 alone: its fused score is its BM25 score as a share of the best, here 1. Were
    // it ranked last in the vector leg it would be 1 / (1 + the vector weight).
    assert.ok(Math.abs(fresh.score - 1) < 1e-9, `score ${fresh.score}`);
    assert.equal(res.results[0]?.id, freshId, "it comes first");
    const others = res.results.filter((r) => r.id !== freshId);
    assert.ok(others.length > 0 && others.every((r) => r.legs.vector !== undefined || r.legs.bm25 !== undefined));

    // Once it has its vector, it is in both legs.
    await indexPaths({ db, config, providers: [embedder], vectors: async () => store }, { roots: [docs], project, full: false });
    const again = await search(ctx, opts);
    assert.equal(again.fusion?.unembedded, 0);
    assert.ok(again.results.find((r) => r.id === freshId)?.legs.vector, "now in the vector leg too");
  } finally {
    store.close();
    db.close();
  }
});
