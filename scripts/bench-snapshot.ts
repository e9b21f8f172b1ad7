/**
 * `npm run bench:snapshot`: snapshots and restore on a store of 100k note chunks (BM25 only: a
 * snapshot copies SQLite, never the vectors) plus 5,000 captured events. Prints:
 *   - the time a snapshot takes (VACUUM INTO, in this process) and its size next to the store's;
 *   - the time `mem restore latest --yes` takes (a new process, as a user runs it);
 *   - what the identity check adds to opening the store (the prompt hook opens it on every
 *     prompt without a daemon): median of many opens with and without it;
 *   - the recount a write batch's close does (at most every 30 s).
 * Not a test. `MEM_BENCH_CHUNKS=N` changes the size; `MEM_BENCH_KEEP=1` keeps the data home.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { indexPaths } from "../indexer/pipeline.js";
import { defaultConfig } from "../src/config/config.js";
import { cleanText } from "../src/redact/clean.cjs";
import { openDb } from "../src/store/db.js";
import { noteWrites, recordIdentity } from "../src/store/identity.js";
import { takeSnapshot } from "../src/store/snapshots.js";
import { VectorStore } from "../src/store/vectors.js";
import { syntheticCorpus } from "./bench/scale.js";

const BIN = fileURLToPath(new URL("../../bin/mem.cjs", import.meta.url));
const CHUNKS = Number(process.env.MEM_BENCH_CHUNKS ?? 100_000);
const EVENTS = 5_000;
const OPENS = 300;
const log = (s: string) => process.stdout.write(`${s}\n`);
const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function mem(args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ ms: performance.now() - t, code, stdout, stderr }));
  });
}

/** Median time of `OPENS` opens and closes of the store. */
function opens(file: string, identity: boolean): number {
  const times: number[] = [];
  for (let i = 0; i < OPENS; i++) {
    const t = performance.now();
    openDb(file, { identity }).close();
    times.push(performance.now() - t);
  }
  return median(times);
}

const work = mkdtempSync(join(tmpdir(), "mem-bench-snapshot-"));
try {
  const home = join(work, "home");
  mkdirSync(home, { recursive: true });
  const file = join(home, "mem.sqlite");
  const docs = join(work, "docs");
  syntheticCorpus(docs, CHUNKS);
  const db = openDb(file);
  let t = performance.now();
  let store: VectorStore | undefined;
  const r = await indexPaths(
    { db, config: defaultConfig(), providers: [], vectors: async () => (store ??= await VectorStore.open(join(home, "vectors"))) },
    { roots: [docs], project: { id: cleanText(docs), name: "bench", root: docs }, full: false },
  );
  const ins = db.prepare("INSERT INTO events (id, project, session, type, time, text) VALUES (?, ?, 's', 'command_run', '2026-11-01T00:00:00Z', ?)");
  db.transaction(() => {
    for (let i = 0; i < EVENTS; i++) ins.run(`ev-${i}`, docs, `$ make step-${i} --target=service-${i % 97}`);
  })();
  db.prepare("INSERT INTO sessions (session, project, offset, updated_at) VALUES ('s', ?, 0, 1)").run(docs);
  recordIdentity(db, file, "bench");
  db.pragma("wal_checkpoint(TRUNCATE)");
  log(`store: ${r.chunks.total} chunks from ${r.files.indexed} files and ${EVENTS} events, built in ${((performance.now() - t) / 1000).toFixed(1)} s; mem.sqlite ${mib(statSync(file).size)}`);

  const snaps = [];
  for (let i = 0; i < 3; i++) snaps.push(takeSnapshot(db, file, "bench", Date.now() + i));
  const snapMs = median(snaps.map((s) => s.durationMs));
  log(`snapshot (VACUUM INTO): ${snapMs} ms median of 3 (${snaps.map((s) => s.durationMs).join(", ")} ms); ${mib(snaps[0]!.bytes)} on disk (store ${mib(statSync(file).size)})`);

  t = performance.now();
  for (let i = 0; i < 20; i++) noteWrites(db, file, Date.now(), { force: true });
  log(`identity recount (a write batch's close, at most every 30 s): ${((performance.now() - t) / 20).toFixed(2)} ms`);
  store?.close();
  db.close();

  const off = opens(file, false);
  const on = opens(file, true);
  log(`open + close, median of ${OPENS}: ${off.toFixed(3)} ms without the identity check, ${on.toFixed(3)} ms with it (+${(on - off).toFixed(3)} ms)`);

  const env = { PATH: process.env.PATH, HOME: work, MEM_HOME: home, MEM_NO_DAEMON: "1", MEM_EMBED_ORDER: "none", MEM_WATCH: "0" };
  const restore = await mem(["restore", "latest", "--yes", "--json"], env);
  if (restore.code !== 0) throw new Error(`mem restore exited ${restore.code}: ${restore.stderr}`);
  const rep = JSON.parse(restore.stdout) as { durationMs: number; counts: { chunks: number; events: number } };
  log(`mem restore latest --yes: ${(restore.ms / 1000).toFixed(2)} s wall (the restore itself ${(rep.durationMs / 1000).toFixed(2)} s): ${rep.counts.chunks} chunks, ${rep.counts.events} events back`);
} finally {
  if (process.env.MEM_BENCH_KEEP === "1") log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
