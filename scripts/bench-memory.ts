/**
 * `npm run bench:memory`: explicit memory at scale. For each size (10k and 100k memories by
 * default: `MEM_BENCH_SIZES=10000,100000`), a fresh data home is filled by `importLines` (a third
 * of the memories outside any session, the rest in sessions of 100), then:
 *   - the daemon (`mem serve`) embeds them all through a loopback server speaking Ollama's API
 *     (384-dim hash vectors: the real HTTP, LanceDB and SQLite paths; no model weights here);
 *   - put, get, list and search through the socket, p50/p99 (one client, requests one at a time);
 *   (the same ops through the MCP server are timed by `npm run bench:mcp`);
 *   - the SessionStart briefing (the hook process, wall time);
 *   - `mem rebuild` (chunks, FTS5 and the vector table made again from SQLite), wall time.
 * Not a test. `MEM_BENCH_OPS=N` changes the number of each op (default 200); `MEM_BENCH_KEEP=1`
 * keeps the data homes.
 */
import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openApp } from "../src/app.js";
import { ask } from "../src/daemon/client.cjs";
import { resolveProject } from "../src/project/identity.js";
import { importLines } from "../src/service/import.js";
import { startFakeOllama } from "../test/helpers/fake-ollama.js";
import { percentile } from "./bench/metrics.js";
import { syntheticQueries, vocabulary, zipf } from "./bench/scale.js";
import { prng } from "./prng.js";

const BIN = fileURLToPath(new URL("../../bin/mem.cjs", import.meta.url));
const SIZES = (process.env.MEM_BENCH_SIZES ?? "10000,100000").split(",").map(Number);
const OPS = Number(process.env.MEM_BENCH_OPS ?? 200);
const log = (s: string) => process.stdout.write(`${s}\n`);
const KINDS = ["decision", "learned", "preference", "note", "rejected", "task"];
const TAGS = ["db", "api", "ui", "build", "auth", "search", "deploy", "tests"];
type Stats = { p50: number; p99: number; n: number };
const stats = (xs: number[]): Stats => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99), n: s.length };
};
const fmt = (x: Stats) => `p50 ${x.p50.toFixed(1)} ms, p99 ${x.p99.toFixed(1)} ms (n=${x.n})`;

/** Sentences of 8–17 words drawn Zipf-like from a 20k-word synthetic vocabulary (as bench:scale's corpus). */
function sentences(seed: number): () => string {
  const rand = prng(seed);
  const word = zipf(vocabulary(20_000, prng(7)), rand);
  return () => Array.from({ length: 8 + Math.floor(rand() * 10) }, word).join(" ");
}

async function timed<T>(f: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const r = await f();
  return [performance.now() - t, r];
}

/** The ops, each `OPS` times, through one transport; every answer checked. */
async function measure(call: (op: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>, ids: string[], seed: number): Promise<Record<string, Stats>> {
  const rand = prng(seed);
  const sentence = sentences(seed);
  const queries = syntheticQueries(OPS, seed);
  const out: Record<string, number[]> = { put: [], get: [], list: [], search: [] };
  for (let i = 0; i < OPS; i++) {
    const [ms, r] = await timed(() => call("put", { text: `bench put ${i} ${Math.floor(rand() * 1e9)}: ${sentence()}`, kind: KINDS[i % KINDS.length], tags: [TAGS[i % TAGS.length]] }));
    if (typeof r.id !== "string") throw new Error(`put answered ${JSON.stringify(r).slice(0, 200)}`);
    out.put!.push(ms);
  }
  for (let i = 0; i < OPS; i++) {
    const id = ids[Math.floor(rand() * ids.length)]!;
    const [ms, r] = await timed(() => call("get", { id }));
    if (r.id !== id) throw new Error(`get answered ${JSON.stringify(r).slice(0, 200)}`);
    out.get!.push(ms);
  }
  for (let i = 0; i < OPS; i++) {
    const filter = i % 3 === 0 ? { kinds: [KINDS[i % KINDS.length]] } : i % 3 === 1 ? { tags: [TAGS[i % TAGS.length]] } : {};
    const [ms, r] = await timed(() => call("list", { ...filter, limit: 20, offset: (i % 5) * 20 }));
    if (!Array.isArray(r.memories) || r.memories.length === 0) throw new Error(`list answered ${JSON.stringify(r).slice(0, 200)}`);
    out.list!.push(ms);
  }
  for (let i = 0; i < OPS; i++) {
    const [ms, r] = await timed(() => call("search", { text: queries[i]!, k: 10 }));
    if (!Array.isArray(r.results)) throw new Error(`search answered ${JSON.stringify(r).slice(0, 200)}`);
    out.search!.push(ms);
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, stats(v)]));
}

// Children run asynchronously: the loopback Ollama answers from this process's event loop.
const run = promisify(execFile);
function hookOnce(payload: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "hook", "session-start"], { env, stdio: ["pipe", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", reject);
    child.on("close", () => resolve(out));
    child.stdin.end(payload);
  });
}
const fake = await startFakeOllama({ dims: 384 });
log(`mem bench:memory — node ${process.version}, ${new Date().toISOString()}, ${OPS} of each op`);
try {
  for (const size of SIZES) {
    const work = mkdtempSync(join(tmpdir(), `mem-bench-memory-${size}-`));
    const repo = join(work, "repo");
    mkdirSync(join(repo, ".git"), { recursive: true });
    const home = join(work, "home");
    const env = { PATH: process.env.PATH, HOME: work, MEM_HOME: home, MEM_OLLAMA_HOST: fake.url, MEM_EMBED_ORDER: "ollama" };
    try {
      const project = resolveProject(repo).id;
      const sentence = sentences(size);
      const ids: string[] = [];
      const lines = function* () {
        for (let i = 0; i < size; i++) {
          const id = `mem:bench${i.toString(16).padStart(8, "0")}`;
          ids.push(id);
          const session = i % 3 === 0 ? undefined : `s-${Math.floor(i / 100)}`;
          const createdAt = new Date(Date.parse("2026-01-01T00:00:00Z") + i * 60_000).toISOString();
          yield JSON.stringify({ id, text: `${sentence()} (${i})`, kind: KINDS[i % KINDS.length], tags: [TAGS[i % TAGS.length]], createdAt, ...(session ? { session } : {}) });
        }
      };
      const app = openApp(env);
      const [seedMs, tally] = await timed(async () => importLines({ db: app.db, config: app.config, projectRoot: app.projectRoot }, [...lines()], { project }));
      app.close();
      if (tally.imported !== size) throw new Error(`imported ${tally.imported} of ${size}`);
      log(`\n== ${size.toLocaleString("en")} memories`);
      log(`import (in-process, BM25 chunks included): ${(seedMs / 1000).toFixed(1)} s`);

      spawn(process.execPath, [BIN, "serve", "-q"], { env, detached: true, stdio: "ignore" }).unref();
      for (let i = 0; i < 100 && (await ask(home, { op: "ping" }, 300)).kind !== "reply"; i++) await new Promise((r) => setTimeout(r, 100));
      const [syncMs, sync] = await timed(async () => {
        for (;;) {
          const r = await ask(home, { op: "sync", cwd: repo, timeoutMs: 120_000 }, 125_000);
          if (r.kind !== "reply" || !r.reply.ok) throw new Error(`sync: ${JSON.stringify(r).slice(0, 300)}`);
          if (r.reply.done === true) return r.reply;
        }
      });
      log(`vectors caught up by the daemon: ${(syncMs / 1000).toFixed(1)} s (${JSON.stringify(sync).slice(0, 200)})`);

      const viaSocket = async (op: string, args: Record<string, unknown>) => {
        const r = await ask(home, { op, cwd: repo, ...args }, 30_000);
        if (r.kind !== "reply" || !r.reply.ok) throw new Error(`${op}: ${JSON.stringify(r).slice(0, 300)}`);
        const reply = r.reply as Record<string, unknown>;
        return op === "put" || op === "get" ? (reply.memory as Record<string, unknown>) : reply;
      };
      for (const [op, s] of Object.entries(await measure(viaSocket, ids, size + 1))) log(`socket ${op.padEnd(6)} ${fmt(s)}`);

      // The SessionStart briefing over this many memories (decisions and learned facts among them).
      const brief: number[] = [];
      for (let i = 0; i < 7; i++) {
        const payload = JSON.stringify({ session_id: `brief-${i}`, cwd: repo, hook_event_name: "SessionStart", source: "startup" });
        const [ms, out] = await timed(() => hookOnce(payload, { ...env, MEM_NO_DAEMON: "1" }));
        if (!out.toString().includes("mem-briefing")) throw new Error(`no briefing: ${out.toString().slice(0, 200)}`);
        if (i >= 2) brief.push(ms); // the first two warm the page cache
      }
      log(`SessionStart briefing (whole hook process): ${fmt(stats(brief))}`);

      await ask(home, { op: "stop" }, 2_000);
      await new Promise((r) => setTimeout(r, 500));
      const [rebuildMs] = await timed(() => run(process.execPath, [BIN, "rebuild", "--json"], { env, cwd: repo, maxBuffer: 1 << 26 }));
      log(`mem rebuild (chunks, FTS5, ${size.toLocaleString("en")}+ vectors again): ${(rebuildMs / 1000).toFixed(1)} s`);
    } finally {
      await ask(home, { op: "stop" }, 2_000);
      if (!process.env.MEM_BENCH_KEEP) rmSync(work, { recursive: true, force: true });
      else log(`kept ${work}`);
    }
  }
} finally {
  await fake.close();
}
