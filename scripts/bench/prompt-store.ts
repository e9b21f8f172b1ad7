/**
 * bench:prompt's data home at a given size, built fast: a seed note is indexed through the real
 * indexer (it records the project, the source kind and the vector table as mem names it), then
 * `n` chunks of synthetic text (a 20,000-word vocabulary drawn Zipf-wise, ~180 words each, ten
 * to a source as bench:scale's corpus) are written straight into SQLite (FTS5 and the identifier
 * words through the same columns and triggers the indexer fills), their clustered vectors
 * (test/helpers/clustered-vectors.ts) into the LanceDB table, and each row recorded in `vec_rows`
 * as the indexer records it (VecState.mark). The sources' files are not written: nothing on the
 * prompt's path reads them. At 1M chunks the real indexer would take hours.
 */
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { App } from "../../src/app.js";
import { indexPaths } from "../../indexer/pipeline.js";
import { resolveProject } from "../../src/project/identity.js";
import { asStored } from "../../src/redact/clean.cjs";
import { chunkIdents } from "../../src/store/chunk-idents.js";
import { VecState } from "../../src/store/vec-state.js";
import { ClusteredVectors } from "../../test/helpers/clustered-vectors.js";
import { prng } from "../prng.js";
import { vocabulary, zipf } from "./scale.js";

const BATCH = 10_000;

/** The id of the `k`th chunk written: 32 hex digits, as the indexer's content-hash ids. */
export const bulkId = (k: number): string => createHash("sha256").update(`bench-prompt-chunk-${k}`).digest("hex").slice(0, 32);

export interface BuiltStore {
  project: string;
  table: string;
  chunks: number;
  /** Seconds spent writing SQLite, and LanceDB with vec_rows. */
  sqliteS: number;
  vectorsS: number;
}

/** Synthetic sections: a heading of two words and twelve sentences of 8–17 words. */
export function sectionWriter(seed: number): () => { heading: string; text: string } {
  const rand = prng(seed);
  const word = zipf(vocabulary(20_000, rand), rand);
  const sentence = () => `${Array.from({ length: 8 + Math.floor(rand() * 10) }, word).join(" ")}.`;
  return () => ({ heading: `${word()} ${word()}`, text: Array.from({ length: 12 }, sentence).join(" ") });
}

/** Indexes a seed note in `proj` (a git top), then adds `n` chunks and their vectors straight to the stores. */
export async function buildStore(app: App, proj: string, n: number, dims: number, log: (s: string) => void): Promise<BuiltStore> {
  const seedDir = join(proj, "notes");
  mkdirSync(seedDir, { recursive: true });
  writeFileSync(join(seedDir, "seed.md"), "# Seed\n\nThe bench's seed note: it makes the project and the vector table as mem names them.\n");
  const project = resolveProject(proj);
  await indexPaths({ db: app.db, config: app.config, providers: await app.providers(), vectors: app.vectors }, { roots: [seedDir], project, full: false });
  const db = app.db;
  const state = new VecState(db);
  const tables = state.tables();
  if (tables.length !== 1 || tables[0]!.dims !== dims) throw new Error(`the seed made ${JSON.stringify(tables)}, not one ${dims}-dim table`);
  const table = tables[0]!.name;
  const seed = db.prepare("SELECT kind, tier, metadata FROM sources WHERE project = ? LIMIT 1").get(project.id) as { kind: string; tier: string | null; metadata: string };

  let t = performance.now();
  const section = sectionWriter(7);
  const insSource = db.prepare("INSERT INTO sources (project, path, kind, tier, size, mtime_ms, content_hash, metadata, indexed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const insChunk = db.prepare(
    "INSERT INTO chunks (id, source_id, project, path, kind, tier, heading, start_line, end_line, text, tags, date, metadata, seq, idents) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '[]', NULL, '{}', ?, ?)",
  );
  const now = Date.now();
  for (let i = 0; i < n; i += BATCH) {
    db.transaction(() => {
      let sourceId = 0;
      let path = "";
      for (let k = i; k < Math.min(n, i + BATCH); k++) {
        if (k % 10 === 0) {
          path = join(proj, "bulk", `d${Math.floor(k / 5_000)}`, `note-${k / 10}.md`);
          sourceId = Number(insSource.run(project.id, path, seed.kind, seed.tier, 2_000, now, `bulk-${k}`, seed.metadata, now).lastInsertRowid);
        }
        const s = section();
        insChunk.run(bulkId(k), sourceId, project.id, path, seed.kind, seed.tier, s.heading, (k % 10) * 3 + 1, (k % 10) * 3 + 2, s.text, k % 10, chunkIdents(s.heading, s.text));
      }
    })();
  }
  const sqliteS = (performance.now() - t) / 1000;
  log(`  ${n.toLocaleString("en")} chunks written to SQLite and FTS5 in ${sqliteS.toFixed(0)} s`);

  t = performance.now();
  const gen = ClusteredVectors.synthetic(dims, 200, 13);
  const lance = await (await app.vectors()).ensure(table, dims);
  const pid = asStored(project.id);
  for (let i = 0; i < n; i += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, n - i) }, (_, j) => ({ id: bulkId(i + j), project: project.id, vector: Array.from(gen.next()) }));
    await lance.add(rows);
    state.mark(table, rows.map((r) => ({ id: asStored(r.id), project: pid })));
  }
  const vectorsS = (performance.now() - t) / 1000;
  log(`  ${n.toLocaleString("en")} vectors written to LanceDB and vec_rows in ${vectorsS.toFixed(0)} s`);
  return { project: project.id, table, chunks: n, sqliteS, vectorsS };
}
