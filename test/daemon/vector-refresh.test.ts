/**
 * The daemon's in-memory vector copy after a change (src/retrieve/memory-index.ts refresh): an
 * edited memory keeps its chunk id but gets a new vector, which the copy must read again; a real
 * daemon, a loopback Ollama, `mem remember`, `mem edit` and `mem index` as a user runs them.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
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

type Copy = { table: string; rows: number; version: string; rowsRead: number };
type Found = { results: { id: string; text: string; legs: { vector?: { rank: number; score: number } } }[] };

test("an edited memory's new vector reaches the daemon's copy, and only the rows that changed are read", { timeout: 120_000 }, async () => {
  const fake = await startFakeOllama({ dims: 64 });
  try {
    const h = join(tmp, "h");
    const docs = join(tmp, "proj");
    mkdirSync(h, { recursive: true });
    mkdirSync(docs, { recursive: true });
    for (let i = 0; i < 5; i++) writeFileSync(join(docs, `n${i}.md`), `# Note ${i}\n\nA note about storage engine number ${i} and its write path.\n`);
    writeFileSync(join(h, "config.json"), JSON.stringify({ daemon: { idleMs: 60_000, indexEveryMs: 60_000 }, embedding: { order: ["ollama"], ollama: { host: fake.url } }, index: { watch: false } }));
    const env = { PATH: process.env.PATH, HOME: tmp, MEM_HOME: h, MEM_WATCH: "0" };
    const mem = async (...args: string[]) => {
      const r = await runChild(process.execPath, [BIN, ...args], { env, cwd: docs });
      assert.equal(r.code, 0, `mem ${args.join(" ")}: ${r.stderr}`);
      return r.stdout;
    };
    await mem("index", docs, "-q");
    const id = (JSON.parse(await mem("remember", "the apples are stored in the cellar", "--json")) as { memory: { id: string } }).memory.id;
    await mem("index", docs, "-q");
    const child = spawn(process.execPath, [BIN, "serve"], { env, stdio: "ignore" });
    kids.push(child);
    await until(async () => (await ask(h, { op: "ping" }, 500)).kind === "reply");
    const copies = async () => {
      const r = await ask(h, { op: "status" }, 2_000);
      return r.kind === "reply" ? ((r.reply as unknown as { inMemory: Copy[] }).inMemory ?? []) : [];
    };
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
    await ask(h, { op: "stop" }, 2_000);
  } finally {
    await fake.close();
  }
});
