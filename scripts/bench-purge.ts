/**
 * `npm run bench:purge`: what a purge costs on a store of 100k note chunks with 384-dim vectors (a
 * deterministic hash embedder), 1,000 memories and 3 snapshots, the vector table compacted into
 * one fragment as the weekly job leaves it. Two purges: one memory forgotten, then 100. Prints the
 * seconds of each step: the store (text overwritten), LanceDB (rows deleted, the fragments that
 * held them written anew, old versions removed), the WAL, each snapshot, and the whole.
 * Not a test. `MEM_BENCH_CHUNKS=N` changes the size; `MEM_BENCH_KEEP=1` keeps the data home.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { indexPaths } from "../indexer/pipeline.js";
import { defaultConfig } from "../src/config/config.js";
import { homePaths } from "../src/config/paths.cjs";
import { purgeEverywhere } from "../src/maintenance/purge.js";
import { cleanText } from "../src/redact/clean.cjs";
import { forgetMemory } from "../src/service/forget.js";
import { MemoryService } from "../src/service/memory.js";
import { openDb } from "../src/store/db.js";
import { takeSnapshot } from "../src/store/snapshots.js";
import { VecState } from "../src/store/vec-state.js";
import { VectorStore } from "../src/store/vectors.js";
import { HashEmbedder } from "../test/helpers/hash-embedder.js";
import { syntheticCorpus } from "./bench/scale.js";

const CHUNKS = Number(process.env.MEM_BENCH_CHUNKS ?? 100_000);
const MEMORIES = 1_000;
const log = (s: string) => process.stdout.write(`${s}\n`);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;

const work = mkdtempSync(join(tmpdir(), "mem-bench-purge-"));
try {
  const home = join(work, "home");
  mkdirSync(home, { recursive: true });
  const paths = homePaths(home);
  const docs = join(work, "docs");
  syntheticCorpus(docs, CHUNKS);
  const db = openDb(paths.sqlite);
  let store: VectorStore | undefined;
  const vectors = async () => (store ??= await VectorStore.open(paths.lance));
  const config = defaultConfig();
  const project = { id: cleanText(docs), name: "bench", root: docs };
  const svc = new MemoryService({ db, config, projectRoot: () => docs });
  const ids = Array.from({ length: MEMORIES }, (_, i) => svc.put({ project: project.id, text: `Decision ${i}: service ${i % 97} keeps its queue in region ${i % 13}, reviewed by team ${i % 29}.`, kind: "decision" }).memory.id);
  let t = performance.now();
  const r = await indexPaths({ db, config, providers: [new HashEmbedder("hash-bench", 384)], vectors }, { roots: [docs], project, full: false });
  const table = new VecState(db).tables()[0]!.name;
  await (await vectors()).optimize(table, new Date());
  log(`store: ${r.chunks.total} chunks and ${MEMORIES} memories with 384-dim vectors, built in ${s(performance.now() - t)}; mem.sqlite ${mib(statSync(paths.sqlite).size)}, ${await (await vectors()).count(table)} vector rows in one fragment`);
  for (const reason of ["auto", "reindex", "migration"]) takeSnapshot(db, paths.sqlite, reason, Date.now());

  const app = { db, vectors, paths };
  for (const [label, n, from] of [["1 memory forgotten", 1, 0], ["100 memories forgotten", 100, 1]] as const) {
    for (const id of ids.slice(from, from + n)) forgetMemory(db, svc, id, Date.now());
    t = performance.now();
    const p = await purgeEverywhere(app);
    const total = performance.now() - t;
    log(`\npurge, ${label}: ${s(total)} in all`);
    log(`  store (text overwritten, tombstones left):   ${s(p.ms.store)} (${p.memories} purged)`);
    log(`  LanceDB (delete, fragments written anew, old versions removed): ${s(p.ms.vectors)} (${p.vectors} deleted, ${p.rewritten} rows written again)`);
    log(`  text index merged and WAL truncated:        ${s(p.ms.wal)} (${p.wal})`);
    for (const c of p.copies) log(`  ${c.file}: ${c.action}${c.why ? ` (${c.why})` : ""}, ${s(c.ms ?? 0)}`);
    log(`  copies in all (walk, snapshots, files):     ${s(p.ms.copies)}`);
  }
  store?.close();
  db.close();
} finally {
  if (process.env.MEM_BENCH_KEEP === "1") log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
