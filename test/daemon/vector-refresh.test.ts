/**
 * An edited memory keeps its chunk id but must get a new vector: in LanceDB (the old row is
 * deleted before the chunk is embedded again, src/store/vec-state.ts redoVectors), and in the
 * daemon's in-memory copy (src/retrieve/memory-index.ts refresh reads it again). A real daemon, a
 * loopback Ollama, `mem remember`, `mem edit` and `mem index` as a user runs them. And a memory
 * purged from the CLI leaves the copy, and the file of its int8 rows, with no search in between
 * (src/retrieve/vector-copies.ts catchUp, on the daemon's timer).
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { embedText } from "../../indexer/embed-step.js";
import { openDb } from "../../src/store/db.js";
import { VectorStore } from "../../src/store/vectors.js";
import { hashVector } from "../helpers/hash-embedder.js";
import { startFakeOllama } from "../helpers/fake-ollama.js";
import { BIN } from "../helpers/mem-cli.js";
import { runChild } from "../helpers/run-child.js";
import { until } from "../helpers/until.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-vrefresh-"));
const kids: ChildProcess[] = [];
after(() => {
  for (const c of kids) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

type Copy = { table: string; rows: number; version: string; rowsRead: number; kernel: string; fileBytes: number };
type Found = { results: { id: string; text: string; legs: { vector?: { rank: number; score: number } } }[] };

/** A data home and a project of `notes` notes, indexed with the loopback Ollama, and one memory remembered and embedded. */
async function withMemory(name: string, ollama: string, notes: number, extraEnv: NodeJS.ProcessEnv = {}, daemon: Record<string, number> = {}) {
  const h = join(tmp, `${name}-home`);
  const docs = join(tmp, `${name}-proj`);
  mkdirSync(h, { recursive: true });
  mkdirSync(docs, { recursive: true });
  for (let i = 0; i < notes; i++) writeFileSync(join(docs, `n${i}.md`), `# Note ${i}\n\nA note about storage engine number ${i} and its write path.\n`);
  writeFileSync(join(h, "config.json"), JSON.stringify({ daemon: { idleMs: 60_000, indexEveryMs: 60_000, ...daemon }, embedding: { order: ["ollama"], ollama: { host: ollama } }, index: { watch: false } }));
  const env = { PATH: process.env.PATH, HOME: tmp, MEM_HOME: h, MEM_WATCH: "0", ...extraEnv };
  const mem = async (...args: string[]) => {
    const r = await runChild(process.execPath, [BIN, ...args], { env, cwd: docs });
    assert.equal(r.code, 0, `mem ${args.join(" ")}: ${r.stderr}`);
    return r;
  };
  await mem("index", docs, "-q");
  const id = (JSON.parse((await mem("remember", "the apples are stored in the cellar", "--json")).stdout) as { memory: { id: string } }).memory.id;
  await mem("index", docs, "-q");
  return { h, docs, env, mem, id };
}

/** `mem serve` on data home `h`, answering; `copies`: the copies its `status` reports. */
async function serve(h: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [BIN, "serve"], { env, stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  child.stderr!.on("data", (d: Buffer) => {
    err += d.toString();
  });
  kids.push(child);
  await until(async () => (await ask(h, { op: "ping" }, 500)).kind === "reply");
  const copies = async (): Promise<Copy[]> => {
    const r = await ask(h, { op: "status" }, 30_000);
    return r.kind === "reply" ? ((r.reply as unknown as { inMemory: Copy[] }).inMemory ?? []) : [];
  };
  return { child, stderr: () => err, copies };
}

for (const [kind, daemon] of [["float32", {}], ["codes", { codeRows: 0 }], ["codes, its rows' folder blocked", { codeRows: 0 }]] as const) {
test(`${kind}: an edited memory's new vector reaches the daemon's copy, and only the rows that changed are read`, { timeout: 120_000 }, async () => {
  const fake = await startFakeOllama({ dims: 64 });
  try {
    const { h, docs, env, mem, id } = await withMemory(`copy-${kind.replace(/\W+/g, "-")}`, fake.url, 5, {}, daemon);
    const blocked = kind.includes("blocked");
    if (blocked) writeFileSync(join(h, "vector-rows"), ""); // a file where the folder of the int8 rows would be
    const { child, stderr, copies } = await serve(h, env);
    const vectorSearch = async (text: string) => {
      const r = await ask(h, { op: "search", text, mode: "vector", cwd: docs, k: 10 }, 5_000);
      assert.ok(r.kind === "reply" && r.reply.ok, JSON.stringify(r));
      return r.reply as unknown as Found;
    };
    await vectorSearch("apples"); // the first search loads the copy
    await until(async () => (await copies()).length === 1);
    const first = (await copies())[0]!;
    assert.equal(first.rowsRead, first.rows, "a first copy is read whole");

    await mem("edit", id, "--text", "zeppelins float over the harbour at dawn");
    await mem("index", docs, "-q");
    await vectorSearch("zeppelins"); // notices the change; the copy is refreshed in the background
    await until(async () => (await copies())[0]?.version !== first.version);
    const now = (await copies())[0]!;
    assert.equal(now.rows, first.rows, "the same rows, one of them with a new vector");
    assert.ok(now.rowsRead >= 1 && now.rowsRead < now.rows, `only what changed was read again: ${JSON.stringify(now)}`);
    const found = await vectorSearch("zeppelins float over the harbour at dawn");
    const edited = found.results.find((r) => /zeppelins/.test(r.text));
    assert.equal(edited?.legs.vector?.rank, 1, `the edited memory is the nearest by its new words: ${JSON.stringify(found.results.map((r) => [r.text.slice(0, 30), r.legs]))}`);
    assert.equal(now.kernel.startsWith("codes"), kind !== "float32");
    if (kind === "codes") {
      // the int8 rows in a private file of the data home, removed when the daemon stops
      const files = readdirSync(join(h, "vector-rows"));
      assert.equal(files.length, 1);
      assert.ok(now.fileBytes >= now.rows * 64, `every row's 64 int8 bytes (and the edited row's old one until a compaction): ${now.fileBytes}`);
      assert.equal(statSync(join(h, "vector-rows", files[0]!)).size, now.fileBytes);
      assert.equal(statSync(join(h, "vector-rows")).mode & 0o777, 0o700);
      assert.equal(statSync(join(h, "vector-rows", files[0]!)).mode & 0o777, 0o600);
      // mem doctor says how big it is (outside the RSS it reports)
      const doc = await runChild(process.execPath, [BIN, "doctor", "--json"], { env, cwd: docs });
      const d = JSON.parse(doc.stdout) as { daemon: { vectorFileBytes?: number } | null; checks: { name: string; detail: string }[] };
      assert.equal(d.daemon?.vectorFileBytes, now.fileBytes, doc.stdout);
      assert.match(d.checks.find((c) => c.name === "daemon")!.detail, /; their int8 rows in a file \d+ MB\)$/);
    }
    if (blocked) {
      assert.equal(now.fileBytes, 0, "held in memory");
      assert.match(stderr(), /int8 rows cannot be kept in a file .*holding them in memory/);
    }
    await ask(h, { op: "stop" }, 2_000);
    await until(async () => child.exitCode !== null);
    if (kind === "codes") assert.deepEqual(readdirSync(join(h, "vector-rows")), [], "the file removed when the daemon stopped");
  } finally {
    await fake.close();
  }
});
}

test("after `mem edit` and `mem index`, LanceDB holds the new text's vector, with no repair on the way", { timeout: 120_000 }, async () => {
  const fake = await startFakeOllama({ dims: 64 });
  try {
    const { h, docs, mem, id } = await withMemory("lance", fake.url, 1, { MEM_NO_DAEMON: "1" });
    const similarity = async () => {
      const db = openDb(join(h, "mem.sqlite"));
      const c = db.prepare("SELECT id, heading, text FROM chunks WHERE substr(id, 1, 12) = ?").get(id) as { id: string; heading: string; text: string };
      const table = db.prepare("SELECT name FROM vec_tables").pluck().get() as string;
      db.close();
      const store = await VectorStore.open(join(h, "vectors"));
      const [arrow] = await store.rowsById(table, [c.id]);
      const stored = Array.from((arrow!.getChild("vector")!.get(0) as { toArray(): Float32Array }).toArray());
      store.close();
      const want = hashVector(embedText(c), 64);
      let dot = 0;
      for (let i = 0; i < 64; i++) dot += stored[i]! * want[i]!;
      return { dot, text: c.text };
    };
    assert.ok((await similarity()).dot > 0.999, "before: the stored vector is the text's");
    await mem("edit", id, "--text", "zeppelins float over the harbour at dawn");
    const r = await mem("index", docs);
    assert.doesNotMatch(r.stderr, /out of step/, "no repair was needed");
    const after = await similarity();
    assert.match(after.text, /zeppelins/);
    assert.ok(after.dot > 0.999, `after: the stored vector is the new text's (cos ${after.dot.toFixed(3)})`);
  } finally {
    await fake.close();
  }
});

/** How many of a file's rows of `dims` int8 bytes are all zeros (a removed row is overwritten so). */
function zeroRows(file: string, dims: number): number {
  const b = readFileSync(file);
  let n = 0;
  for (let at = 0; at + dims <= b.length; at += dims) if (b.subarray(at, at + dims).every((x) => x === 0)) n++;
  return n;
}

test("a memory purged from the CLI leaves the daemon's code copy and its rows' file with no search in between", { timeout: 120_000 }, async () => {
  const fake = await startFakeOllama({ dims: 64 });
  try {
    const { h, docs, env, mem, id } = await withMemory("purge-follow", fake.url, 5, {}, { codeRows: 0, indexEveryMs: 600_000 });
    const { child, stderr, copies } = await serve(h, env);
    const r = await ask(h, { op: "search", text: "apples in the cellar", mode: "vector", cwd: docs, k: 10 }, 5_000);
    assert.ok(r.kind === "reply" && r.reply.ok, JSON.stringify(r)); // the first search loads the copy
    await until(async () => (await copies()).length === 1);
    const first = (await copies())[0]!;
    assert.ok(first.kernel.startsWith("codes"), first.kernel);
    const files = readdirSync(join(h, "vector-rows"));
    assert.equal(files.length, 1);
    const file = join(h, "vector-rows", files[0]!);
    assert.equal(zeroRows(file, 64), 0, "every row holds its vector");

    await mem("forget", id, "--purge", "--yes");
    // No search from here on: only the daemon's own timer can bring the copy up to the table.
    await until(async () => {
      const c = (await copies())[0];
      return c !== undefined && c.version !== first.version && c.rows === first.rows - 1;
    }, 30_000);
    assert.equal(zeroRows(file, 64), 1, "the purged memory's int8 row is overwritten with zeros in the file");
    assert.doesNotMatch(stderr(), /failed/);
    await ask(h, { op: "stop" }, 2_000);
    await until(async () => child.exitCode !== null);
  } finally {
    await fake.close();
  }
});
