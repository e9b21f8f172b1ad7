/**
 * A memory purged by another process (`mem forget --purge` from the CLI) leaves the daemon's
 * vector copy, and the file of its int8 rows, within seconds, with no search in between
 * (src/retrieve/vector-copies.ts catchUp, on the daemon's timer). Before, the purged row stayed
 * in the copy and in its file until the next prompt. A real daemon, a loopback Ollama, the CLI.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { startFakeOllama } from "../helpers/fake-ollama.js";
import { BIN } from "../helpers/mem-cli.js";
import { runChild } from "../helpers/run-child.js";
import { until } from "../helpers/until.js";

const DIMS = 64;
const tmp = mkdtempSync(join(tmpdir(), "mem-vfollow-"));
const kids: ChildProcess[] = [];
after(() => {
  for (const c of kids) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

type Copy = { table: string; rows: number; version: string; fileBytes: number; kernel: string };

/** How many of the file's rows are all zeros (a removed row is overwritten so). */
function zeroRows(file: string): number {
  const b = readFileSync(file);
  let n = 0;
  for (let at = 0; at + DIMS <= b.length; at += DIMS) if (b.subarray(at, at + DIMS).every((x) => x === 0)) n++;
  return n;
}

test("a memory purged from the CLI leaves the daemon's code copy and its rows' file with no search in between", { timeout: 120_000 }, async () => {
  const fake = await startFakeOllama({ dims: DIMS });
  try {
    const home = join(tmp, "home");
    const docs = join(tmp, "proj");
    mkdirSync(home, { recursive: true });
    mkdirSync(docs, { recursive: true });
    for (let i = 0; i < 5; i++) writeFileSync(join(docs, `n${i}.md`), `# Note ${i}\n\nA note about storage engine number ${i} and its write path.\n`);
    writeFileSync(join(home, "config.json"), JSON.stringify({ daemon: { idleMs: 60_000, indexEveryMs: 600_000, codeRows: 0 }, embedding: { order: ["ollama"], ollama: { host: fake.url } }, index: { watch: false } }));
    const env = { PATH: process.env.PATH, HOME: tmp, MEM_HOME: home, MEM_WATCH: "0" };
    const mem = async (...args: string[]) => {
      const r = await runChild(process.execPath, [BIN, ...args], { env, cwd: docs });
      assert.equal(r.code, 0, `mem ${args.join(" ")}: ${r.stderr}`);
      return r;
    };
    await mem("index", docs, "-q");
    const id = (JSON.parse((await mem("remember", "the apples are stored in the cellar", "--json")).stdout) as { memory: { id: string } }).memory.id;
    await mem("index", docs, "-q");

    const child = spawn(process.execPath, [BIN, "serve"], { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    kids.push(child);
    await until(async () => (await ask(home, { op: "ping" }, 500)).kind === "reply");
    const copies = async (): Promise<Copy[]> => {
      const r = await ask(home, { op: "status" }, 30_000);
      return r.kind === "reply" ? ((r.reply as unknown as { inMemory: Copy[] }).inMemory ?? []) : [];
    };
    const r = await ask(home, { op: "search", text: "apples in the cellar", mode: "vector", cwd: docs, k: 10 }, 5_000);
    assert.ok(r.kind === "reply" && r.reply.ok, JSON.stringify(r)); // the first search loads the copy
    await until(async () => (await copies()).length === 1);
    const first = (await copies())[0]!;
    assert.ok(first.kernel.startsWith("codes"), first.kernel);
    const files = readdirSync(join(home, "vector-rows"));
    assert.equal(files.length, 1);
    const file = join(home, "vector-rows", files[0]!);
    assert.equal(zeroRows(file), 0, "every row holds its vector");

    await mem("forget", id, "--purge", "--yes");
    // No search from here on: only the daemon's own timer can bring the copy up to the table.
    await until(async () => {
      const c = (await copies())[0];
      return c !== undefined && c.version !== first.version && c.rows === first.rows - 1;
    }, 30_000);
    assert.equal(zeroRows(file), 1, "the purged memory's int8 row is overwritten with zeros in the file");
    assert.doesNotMatch(stderr, /failed/);

    await ask(home, { op: "stop" }, 2_000);
    await until(async () => child.exitCode !== null);
  } finally {
    await fake.close();
  }
});
