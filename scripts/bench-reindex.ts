/**
 * `npm run bench:reindex`: the weekly maintenance job as the scheduler runs it (`mem reindex
 * --json`, a new process each time) on a project of 10k note chunks (1,000 markdown files) plus
 * 1,000 explicit memories, with vectors from a loopback server that speaks Ollama's API (384-dim
 * hash vectors: the real HTTP, LanceDB and SQLite paths; no model weights here). In order:
 *   - the first run after `mem index` (the LanceDB versions the index left are cleaned up);
 *   - no-op runs (nothing changed since: target under 5 s);
 *   - a run after 5% of the files changed and 50 memories were forgotten.
 * Each prints its wall time, what it did and the store's size before and after compaction.
 * Not a test. `MEM_BENCH_CHUNKS=N` changes the size; `MEM_BENCH_KEEP=1` keeps the data home.
 */
import { spawn } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ReindexReport } from "../src/maintenance/reindex/types.js";
import { startFakeOllama } from "../test/helpers/fake-ollama.js";
import { syntheticCorpus } from "./bench/scale.js";
import { prng } from "./prng.js";

const BIN = fileURLToPath(new URL("../../bin/mem.cjs", import.meta.url));
const CHUNKS = Number(process.env.MEM_BENCH_CHUNKS ?? 10_000);
const MEMORIES = 1_000;
const log = (s: string) => process.stdout.write(`${s}\n`);
const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;

function mem(args: string[], env: NodeJS.ProcessEnv, input = "", cwd?: string): Promise<{ ms: number; code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ["pipe", "pipe", "pipe"], ...(cwd ? { cwd } : {}) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ ms: performance.now() - t, code, stdout, stderr }));
    child.stdin.end(input);
  });
}

async function reindex(env: NodeJS.ProcessEnv): Promise<{ ms: number; r: ReindexReport }> {
  const out = await mem(["reindex", "--json"], env);
  if (out.code !== 0) throw new Error(`mem reindex exited ${out.code}: ${out.stderr}${out.stdout.slice(0, 2000)}`);
  return { ms: out.ms, r: JSON.parse(out.stdout) as ReindexReport };
}

function row(name: string, x: { ms: number; r: ReindexReport }): string {
  const { r } = x;
  const files = r.projects.reduce((n, p) => n + (p.files?.indexed ?? 0), 0);
  const embedded = r.projects.reduce((n, p) => n + p.vector.embedded, 0);
  const v = r.compaction.tables.map((t) => `${t.versionsBefore} → ${t.versionsAfter}`).join(", ") || "—";
  return ` | ${name} | ${(x.ms / 1000).toFixed(2)} s (job ${(r.durationMs / 1000).toFixed(2)} s) | ${files} | ${embedded} | ${r.purge.memories} | ${v} | ${mib(r.size.before.total)} → ${mib(r.size.after.total)} (SQLite ${mib(r.size.before.sqlite)} → ${mib(r.size.after.sqlite)}, vectors ${mib(r.size.before.vectors)} → ${mib(r.size.after.vectors)}) |`;
}

const work = mkdtempSync(join(tmpdir(), "mem-bench-reindex-"));
const fake = await startFakeOllama({ dims: 384 });
try {
  const proj = join(work, "proj");
  const notes = join(proj, "memory", "reference");
  mkdirSync(join(proj, ".git"), { recursive: true });
  syntheticCorpus(notes, CHUNKS);
  const env = { PATH: process.env.PATH, HOME: work, MEM_HOME: join(work, "home"), MEM_EMBED_ORDER: "ollama", MEM_OLLAMA_HOST: fake.url, MEM_NO_DAEMON: "1" };
  let t = performance.now();
  const indexed = await mem(["index", join(proj, "memory"), "--json", "-q"], env);
  if (indexed.code !== 0) throw new Error(indexed.stderr);
  const rand = prng(3);
  const lines = Array.from({ length: MEMORIES }, (_, i) => JSON.stringify({ text: `Memory ${i}: the ${["otter", "heron", "lynx", "ibis"][i % 4]} service ${["retries", "caches", "logs", "pages"][i % 4]} after ${Math.floor(rand() * 100)} seconds`, kind: ["decision", "learned", "note", "preference"][i % 4] }));
  const imported = await mem(["import", "-", "--json"], env, `${lines.join("\n")}\n`, proj);
  if (imported.code !== 0) throw new Error(imported.stderr);
  const synced = await mem(["index", join(proj, "memory"), "-q"], env); // the imported memories' vectors
  if (synced.code !== 0) throw new Error(synced.stderr);
  log(`mem reindex on ${CHUNKS} note chunks in ${Math.ceil(CHUNKS / 10)} files + ${MEMORIES} memories: indexed with vectors in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  log("\n | run | wall (spawned) | files indexed | embedded | purged | LanceDB versions | store size before → after compaction |\n |---|---|---|---|---|---|---|");

  log(row("first run after indexing", await reindex(env)));
  const noops: number[] = [];
  for (let i = 0; i < 3; i++) {
    const x = await reindex(env);
    noops.push(x.ms);
    log(row(`no-op ${i + 1}`, x));
  }

  // 5% of the files changed; 50 memories forgotten.
  const files = readdirSync(notes, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name));
  const changed = files.filter((_, i) => i % 20 === 0);
  for (const f of changed) appendFileSync(f, "\n## Changed this week\n\nThe otter service now retries three times before it pages anyone about the outage.\n");
  const listed = await mem(["list", "--json", "--limit", "50"], env, "", proj);
  const ids = (JSON.parse(listed.stdout) as { memories: { id: string }[] }).memories.map((m) => m.id);
  for (const id of ids) await mem(["forget", id, "--json"], env, "", proj);
  t = performance.now();
  log(row(`${changed.length} files changed (5%), ${ids.length} forgotten`, await reindex(env)));
  log(row("no-op after it", await reindex(env)));
  const sorted = [...noops].sort((a, b) => a - b);
  const median = sorted[1]!;
  log(`\n no-op weekly run target < 5 s: ${(median / 1000).toFixed(2)} s median of 3 (${median < 5000 ? "met" : "NOT met"})`);
} finally {
  await fake.close();
  if (process.env.MEM_BENCH_KEEP === "1") log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
