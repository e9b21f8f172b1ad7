/**
 * `npm run bench:mcp`: mem's MCP server as Claude Code uses it (the SDK's client over stdio, one
 * `mem mcp` child holding the store open). Not a test.
 *
 * 1. remember (put), get, list and search, p50/p99, on a store of 10k and of 100k memories built
 *    directly through the stores (200 sessions, 1% explicit memories with no session); search is
 *    BM25 here (no embedding provider), as it is wherever none is running.
 * 2. The prompt's memories two ways, paired prompt by prompt against the same warm daemon (a
 *    project of 10k note chunks with vectors from a loopback Ollama-API server): the command hook
 *    as Claude Code spawns it (wall time of the process) and the `prompt_context` tool's round
 *    trip over the open MCP connection (what an mcp_tool hook costs).
 * `MEM_BENCH_MCP_SIZES=10000` runs one size; `MEM_BENCH_MCP_CALLS=N` changes the call counts.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { chunkCapturedEvents } from "../indexer/captured.js";
import { indexPaths } from "../indexer/pipeline.js";
import { defaultConfig } from "../src/config/config.js";
import { ask } from "../src/daemon/client.cjs";
import { OllamaProvider } from "../src/embed/ollama.js";
import { resolveProject } from "../src/project/identity.js";
import { clean } from "../src/redact/clean.cjs";
import { EXPLICIT_KINDS } from "../src/service/types.js";
import { ChunkStore } from "../src/store/chunks.js";
import { openDb } from "../src/store/db.js";
import { insertMemory } from "../src/store/memories.js";
import { VectorStore } from "../src/store/vectors.js";
import { startFakeOllama } from "../test/helpers/fake-ollama.js";
import { percentile } from "./bench/metrics.js";
import { syntheticCorpus, syntheticQueries } from "./bench/scale.js";
import { prng } from "./prng.js";

const BIN = fileURLToPath(new URL("../../bin/mem.cjs", import.meta.url));
const log = (s: string) => process.stdout.write(`${s}\n`);
const SIZES = (process.env.MEM_BENCH_MCP_SIZES ?? "10000,100000").split(",").map(Number);
const CALLS = Number(process.env.MEM_BENCH_MCP_CALLS ?? 300);

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99), n: s.length };
};
const fmt = (x: { p50: number; p99: number; n: number }) => `p50 ${x.p50.toFixed(1)} ms, p99 ${x.p99.toFixed(1)} ms (n=${x.n})`;

/** Words like the synthetic corpus's, so queries find memories. */
function words(seed: number): () => string {
  const qs = syntheticQueries(2_000, seed).join(" ").split(" ");
  const rand = prng(seed);
  return () => qs[Math.floor(rand() * qs.length)]!;
}

/** `n` memories of a project, straight into the stores, then chunked (searchable by BM25). */
function buildStore(home: string, project: string, n: number): string[] {
  const db = openDb(join(home, "mem.sqlite"));
  const word = words(5);
  const ids: string[] = [];
  const t0 = Date.now();
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const id = `mem:${i.toString(16).padStart(24, "0")}`;
      const kind = EXPLICIT_KINDS[i % EXPLICIT_KINDS.length]!;
      const text = `${kind === "decision" ? "We decided to" : "Noted:"} ${Array.from({ length: 12 }, word).join(" ")}.`;
      const session = i % 100 === 0 ? null : `bench-session-${i % 200}`;
      insertMemory(db, clean({ id, project, session, kind, time: new Date(t0 - (n - i) * 60_000).toISOString(), text, files: [], metadata: { source: i % 3 === 0 ? "explicit" : "tag", tags: [`t${i % 50}`], confidence: 1 }, idempotencyKey: null }));
      ids.push(id);
    }
  })();
  chunkCapturedEvents(db, new ChunkStore(db), clean(project), Date.now());
  db.close();
  return ids;
}

async function connect(env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], env, stderr: "ignore" }));
  return client;
}

async function timed(client: Client, name: string, args: Record<string, unknown>): Promise<number> {
  const t = performance.now();
  const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
  const ms = performance.now() - t;
  if (r.isError) throw new Error(`${name}: ${r.content[0]?.text}`);
  return ms;
}

async function operations(work: string, n: number): Promise<void> {
  const home = join(work, `home-${n}`);
  const proj = join(work, `proj-${n}`);
  mkdirSync(join(proj, ".git"), { recursive: true });
  const project = resolveProject(proj).id;
  const t0 = performance.now();
  const ids = buildStore(home, project, n);
  log(`\n${n.toLocaleString("en")} memories (built and chunked in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  const env = { PATH: process.env.PATH ?? "", HOME: work, MEM_HOME: home, MEM_EMBED_ORDER: "none", MEM_NO_DAEMON: "1", CLAUDE_PROJECT_DIR: proj };
  const t1 = performance.now();
  const client = await connect(env);
  log(`  connect (spawn + initialize): ${(performance.now() - t1).toFixed(0)} ms`);
  try {
    const rand = prng(n);
    const word = words(9);
    const queries = syntheticQueries(CALLS, 31);
    for (let i = 0; i < 10; i++) await timed(client, "search", { query: queries[i]! }); // warm caches
    const put: number[] = [];
    const get: number[] = [];
    const list: number[] = [];
    const search: number[] = [];
    for (let i = 0; i < CALLS; i++) put.push(await timed(client, "remember", { text: `Bench memory ${i}: ${Array.from({ length: 10 }, word).join(" ")}.`, kind: "learned", tags: ["bench"] }));
    for (let i = 0; i < CALLS; i++) get.push(await timed(client, "get", { id: ids[Math.floor(rand() * ids.length)]! }));
    for (let i = 0; i < CALLS; i++) list.push(await timed(client, "list", i % 2 === 0 ? { limit: 20, offset: Math.floor(rand() * 1000) } : { kind: "decision", limit: 20 }));
    for (let i = 0; i < CALLS; i++) search.push(await timed(client, "search", { query: queries[i]! }));
    log(`  remember (put): ${fmt(stats(put))}`);
    log(`  get:            ${fmt(stats(get))}`);
    log(`  list:           ${fmt(stats(list))}  (20 a page; every other one by kind)`);
    log(`  search:         ${fmt(stats(search))}  (BM25, k 10)`);
  } finally {
    await client.close();
  }
}

function spawnHook(input: string, env: NodeJS.ProcessEnv): Promise<{ ms: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, [BIN, "hook", "user-prompt-submit"], { env, stdio: ["pipe", "pipe", "ignore"] });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.on("error", reject);
    child.on("close", () => resolve({ ms: performance.now() - t, stdout }));
    child.stdin.end(input);
  });
}

async function prompts(work: string): Promise<void> {
  const fake = await startFakeOllama({ models: ["nomic-embed-text:latest"], dims: 384 });
  try {
    const home = join(work, "home-prompt");
    const docs = join(work, "project");
    syntheticCorpus(docs, 10_000);
    const config = defaultConfig();
    config.embedding.ollama.host = fake.url;
    const db = openDb(join(home, "mem.sqlite"));
    let store: VectorStore | undefined;
    const summary = await indexPaths({ db, config, providers: [new OllamaProvider(config.embedding.ollama)], vectors: async () => (store ??= await VectorStore.open(join(home, "vectors"))) }, { roots: [docs], project: resolveProject(docs), full: false });
    store?.close();
    db.close();
    const env = { PATH: process.env.PATH ?? "", HOME: work, MEM_HOME: home, MEM_OLLAMA_HOST: fake.url, MEM_EMBED_ORDER: "ollama", CLAUDE_PROJECT_DIR: docs };
    log(`\nthe prompt's memories: ${summary.chunks.total.toLocaleString("en")} note chunks with 384-dim vectors, the daemon warm (hybrid search)`);
    const queries = syntheticQueries(CALLS, 23).map((q) => `how did we handle ${q}?`);
    const payload = (q: string, session: string) => JSON.stringify({ session_id: session, transcript_path: "/nonexistent", cwd: docs, hook_event_name: "UserPromptSubmit", prompt: q });
    await spawnHook(payload(queries[0]!, "warm-0"), env); // starts the daemon
    for (let i = 0; i < 100 && (await ask(home, { op: "ping" }, 300)).kind !== "reply"; i++) await new Promise((r) => setTimeout(r, 100));
    const client = await connect(env);
    try {
      for (let i = 0; i < 10; i++) {
        await spawnHook(payload(queries[i]!, `warm-h-${i}`), env);
        await timed(client, "prompt_context", { prompt: queries[i]!, cwd: docs, session_id: `warm-m-${i}` });
      }
      const hook: number[] = [];
      const tool: number[] = [];
      let hookHits = 0;
      let toolHits = 0;
      for (const [i, q] of queries.entries()) {
        const h = await spawnHook(payload(q, `hook-${i}`), env);
        hook.push(h.ms);
        if (h.stdout.includes("additionalContext")) hookHits++;
        const t = performance.now();
        const r = (await client.callTool({ name: "prompt_context", arguments: { prompt: q, cwd: docs, session_id: `tool-${i}` } })) as { content: { text: string }[] };
        tool.push(performance.now() - t);
        if (r.content[0]?.text.includes("additionalContext")) toolHits++;
      }
      const hs = stats(hook);
      const ts = stats(tool);
      log(`  command hook, spawned as Claude Code runs it: ${fmt(hs)}; ${hookHits}/${queries.length} got context`);
      log(`  prompt_context over the open MCP connection: ${fmt(ts)}; ${toolHits}/${queries.length} got context`);
      log(`  saved per prompt: p50 ${(hs.p50 - ts.p50).toFixed(1)} ms, p99 ${(hs.p99 - ts.p99).toFixed(1)} ms`);
    } finally {
      await client.close();
      await ask(home, { op: "stop" }, 2_000);
    }
  } finally {
    await fake.close();
  }
}

const work = mkdtempSync(join(tmpdir(), "mem-bench-mcp-"));
try {
  log(`mem bench:mcp — node ${process.version}, ${new Date().toISOString()}; ${CALLS} calls of each kind`);
  for (const n of SIZES) await operations(work, n);
  await prompts(work);
} finally {
  rmSync(work, { recursive: true, force: true });
}
