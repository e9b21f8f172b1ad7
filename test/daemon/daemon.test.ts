import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { lockPath, socketPath } from "../../src/daemon/paths.cjs";
import { openDb } from "../../src/store/db.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { hook, spawnHook } from "../hooks/helpers.js";
import { runChild } from "../helpers/run-child.js";
import { until } from "../helpers/until.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const BIN = join(REPO, "bin", "mem.cjs");
const tmp = mkdtempSync(join(tmpdir(), "mem-daemon-"));
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

function home(name: string, idleMs = 60_000): string {
  const h = join(tmp, name);
  mkdirSync(h, { recursive: true });
  writeFileSync(join(h, "config.json"), JSON.stringify({ daemon: { idleMs, indexEveryMs: 200 }, embedding: { order: [] } }));
  writeFileSync(join(h, "note.md"), "# Storage\n\nWe chose SQLite over Postgres because it needs no server and FTS5 gives BM25.\n");
  return h;
}

function serve(h: string): { child: ChildProcess; exited: Promise<number | null>; stderr: () => string } {
  const child = spawn(process.execPath, [BIN, "serve"], { env: { PATH: process.env.PATH, HOME: tmp, MEM_HOME: h }, stdio: ["ignore", "ignore", "pipe"] });
  children.push(child);
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  return { child, exited, stderr: () => err };
}


const up = (h: string) => async () => (await ask(h, { op: "ping" }, 500)).kind === "reply";

/** `mem index DIR -q` into data home `h`. */
const memIndex = (h: string, dir = h) => runChild(process.execPath, [BIN, "index", dir, "-q"], { env: { PATH: process.env.PATH, HOME: tmp, MEM_HOME: h } });

/** The vector tables the daemon holds in memory, from its status. */
async function inMemory(h: string): Promise<{ rows: number; version: string; kernel: string }[]> {
  const r = await ask(h, { op: "status" }, 30_000);
  return r.kind === "reply" && r.reply.ok ? (r.reply.inMemory as { rows: number; version: string; kernel: string }[]) : [];
}

/** A data home embedding through a fake Ollama (64 dims), `daemon` config over the tests' own; the server is closed after `body`. */
async function withFakeOllama(name: string, daemon: Record<string, number>, body: (h: string, fake: FakeOllama) => Promise<void>): Promise<void> {
  const fake = await startFakeOllama({ models: ["nomic-embed-text:latest"], dims: 64 });
  try {
    const h = home(name);
    writeFileSync(join(h, "config.json"), JSON.stringify({ daemon: { idleMs: 60_000, indexEveryMs: 60_000, ...daemon }, embedding: { order: ["ollama"], ollama: { host: fake.url } } }));
    await body(h, fake);
  } finally {
    await fake.close();
  }
}

describe("the warm daemon", () => {
  test("starts, answers two clients at once, and exits by itself when idle, cleaning up", async () => {
    const h = home("idle", 1_500);
    const d = serve(h);
    await until(up(h));
    assert.ok(existsSync(lockPath(h)));
    assert.equal((JSON.parse(readFileSync(lockPath(h), "utf8")) as { pid: number }).pid, d.child.pid);
    const req = { op: "prompt", prompt: "why did we choose SQLite over Postgres", cwd: h, session: "s" };
    const [a, b] = await Promise.all([ask(h, req, 30_000), ask(h, { ...req, session: "t" }, 30_000)]);
    for (const r of [a, b]) {
      assert.equal(r.kind, "reply");
      assert.equal(r.kind === "reply" && r.reply.ok, true);
    }
    assert.equal(await d.exited, 0, d.stderr());
    assert.ok(!existsSync(lockPath(h)), "lock released");
    assert.ok(!existsSync(socketPath(h)), "socket removed");
    assert.match(d.stderr(), /stopping \(idle\)/);
  });

  test("one daemon per data home: a second one exits at once", async () => {
    const h = home("single");
    const first = serve(h);
    await until(up(h));
    const second = serve(h);
    assert.equal(await second.exited, 0);
    assert.match(second.stderr(), /already running .*pid \d+/);
    assert.equal((await ask(h, { op: "stop" }, 2_000)).kind, "reply");
    assert.equal(await first.exited, 0);
  });

  test("after kill -9 the stale lock and socket are taken over by the next daemon", async () => {
    const h = home("stale");
    const first = serve(h);
    await until(up(h));
    first.child.kill("SIGKILL");
    await first.exited;
    assert.ok(existsSync(lockPath(h)), "the killed daemon left its lock");
    assert.equal((await ask(h, { op: "ping" }, 500)).kind, "absent");
    const next = serve(h);
    await until(up(h));
    assert.equal((JSON.parse(readFileSync(lockPath(h), "utf8")) as { pid: number }).pid, next.child.pid);
    await ask(h, { op: "stop" }, 2_000);
    assert.equal(await next.exited, 0);
  });

  test("the prompt hook with no daemon answers from BM25 and starts one for next time; the next prompt goes through it", async () => {
    const h = home("autostart");
    const env = { MEM_HOME: h, HOME: tmp, MEM_NO_DAEMON: "0" };
    await hook("stop", { session_id: "x", cwd: h, hook_event_name: "Stop", stop_hook_active: false }, env); // creates the store
    await memIndex(h);
    const first = await hook("user-prompt-submit", { session_id: "s1", cwd: h, hook_event_name: "UserPromptSubmit", prompt: "why did we choose SQLite over Postgres" }, env);
    assert.equal(first.code, 0);
    assert.match(first.stdout, /We chose SQLite over Postgres/);
    await until(up(h));
    const second = await hook("user-prompt-submit", { session_id: "s2", cwd: h, hook_event_name: "UserPromptSubmit", prompt: "why did we choose SQLite over Postgres" }, env);
    assert.match(second.stdout, /We chose SQLite over Postgres/);
    const status = await ask(h, { op: "status" }, 30_000);
    assert.ok(status.kind === "reply" && status.reply.ok && Number(status.reply.requests) >= 2, "the second prompt was answered by the daemon");
    await ask(h, { op: "stop" }, 2_000);
    await until(async () => !existsSync(lockPath(h)));
  });

  test("events captured by the hooks become chunks and vectors in the background, within seconds", async () => {
    await withFakeOllama("background", { indexEveryMs: 200 }, async (h) => {
      const d = serve(h);
      await until(up(h));
      await hook("post-tool-use", { session_id: "bg", cwd: h, hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: "toolu_bg_1", tool_input: { command: "npm run migrate -- --to 42" }, tool_response: { stdout: "migrated", stderr: "" } }, { MEM_HOME: h, HOME: tmp });
      const db = openDb(join(h, "mem.sqlite"));
      const vectors = () => db.prepare("SELECT count(*) FROM vec_rows v JOIN chunks c ON c.id = v.chunk_id WHERE c.text LIKE '%npm run migrate%'").pluck().get() as number;
      await until(() => vectors() === 1, 60_000);
      assert.equal(db.prepare("SELECT chunked FROM events WHERE id = 'toolu_bg_1'").pluck().get(), 1);
      db.close();
      await ask(h, { op: "stop" }, 2_000);
      assert.equal(await d.exited, 0, d.stderr());
    });
  });

  test("the in-memory vectors follow the table: reloaded after an edit that removes as many vectors as it adds", async () => {
    await withFakeOllama("reload", {}, async (h) => {
      const docs = join(h, "docs");
      mkdirSync(docs);
      writeFileSync(join(docs, "a.md"), "# Alpha\n\nThe alpha service writes its journal to disk every second.\n");
      const index = () => memIndex(h, docs);
      await index();
      const d = serve(h);
      await until(up(h));
      const held = () => inMemory(h);
      await until(async () => (await held()).length === 1); // loaded at warm-up
      const first = (await held())[0]!;
      assert.equal(first.rows, 1);
      assert.equal(first.kernel, "wasm-simd");
      writeFileSync(join(docs, "a.md"), "# Beta\n\nThe beta service keeps its journal in memory only.\n"); // one chunk out, one in
      await index();
      await ask(h, { op: "prompt", prompt: "where does the beta service keep its journal", cwd: docs, session: "r1" }, 30_000); // notices the change
      await until(async () => (await held())[0]!.version !== first.version);
      const db = openDb(join(h, "mem.sqlite"), { readonly: true });
      const row = db.prepare("SELECT created_at, version FROM vec_tables").get() as { created_at: number; version: number };
      db.close();
      const now = (await held())[0]!;
      assert.deepEqual({ rows: now.rows, version: now.version }, { rows: 1, version: `${row.created_at}:${row.version}` });
      await ask(h, { op: "stop" }, 2_000);
      assert.equal(await d.exited, 0, d.stderr());
    });
  });

  test("a table of daemon.scanWorkerRows rows or more is scanned with a worker thread: a reload ends the old one, and the daemon stops cleanly", async () => {
    await withFakeOllama("scan-worker", { scanWorkerRows: 0 }, async (h) => {
      const docs = join(h, "docs");
      mkdirSync(docs);
      const write = (i: number) => writeFileSync(join(docs, "a.md"), `# Journal\n\nThe journal service version ${i} flushes its journal to disk every second.\n`);
      write(0);
      await memIndex(h, docs);
      const status = async () => {
        const r = await ask(h, { op: "status" }, 30_000);
        assert.ok(r.kind === "reply" && r.reply.ok, JSON.stringify(r));
        return r.reply as unknown as { inMemory: { version: string; scan: string; rows: number; rowsRead: number }[]; scanWorkers: number };
      };
      const prompt = async (session: string) => {
        const r = await ask(h, { op: "prompt", prompt: "how often does the journal service flush its journal", cwd: docs, session }, 30_000);
        assert.ok(r.kind === "reply" && r.reply.ok && /flushes its journal/.test(String(r.reply.text)), JSON.stringify(r));
      };
      let d = serve(h);
      await until(up(h));
      await until(async () => (await status()).inMemory.length === 1);
      assert.deepEqual([(await status()).inMemory[0]!.scan, (await status()).scanWorkers], ["worker", 1]);
      await prompt("w0");
      for (let i = 1; i <= 3; i++) {
        const before = (await status()).inMemory[0]!.version;
        write(i);
        await memIndex(h, docs);
        await prompt(`w${i}`); // notices the change; the copy is reloaded in the background
        await until(async () => (await status()).inMemory[0]!.version !== before);
        await until(async () => (await status()).scanWorkers === 1); // the old copy's worker ended
        const copy = (await status()).inMemory[0]!;
        assert.equal(copy.scan, "worker");
        assert.equal(copy.rowsRead, 1, `refreshed, not read whole: only the changed note's new chunk was read (${copy.rows} rows held)`);
      }
      await ask(h, { op: "stop" }, 2_000);
      assert.equal(await d.exited, 0, d.stderr());
      assert.doesNotMatch(d.stderr(), /scan worker|scanning on the main thread/);

      d = serve(h); // and by a signal, with its worker scanning
      await until(up(h));
      await until(async () => (await status()).scanWorkers === 1);
      await prompt("w-term");
      d.child.kill("SIGTERM");
      assert.equal(await d.exited, 0, d.stderr());
      assert.match(d.stderr(), /daemon stopping \(SIGTERM\)/);
    });
  });

  test("a table of daemon.codeRows rows or more is held as compact codes: prompts are answered from it, and a change refreshes it", async () => {
    await withFakeOllama("codes", { codeRows: 0 }, async (h) => {
      const docs = join(h, "docs");
      mkdirSync(docs);
      const write = (i: number) => writeFileSync(join(docs, "a.md"), `# Journal\n\nThe journal service version ${i} flushes its journal to disk every second.\n`);
      write(0);
      await memIndex(h, docs);
      const status = async () => {
        const r = await ask(h, { op: "status" }, 30_000);
        assert.ok(r.kind === "reply" && r.reply.ok, JSON.stringify(r));
        return r.reply as unknown as { inMemory: { version: string; kernel: string; rows: number; rowsRead: number }[] };
      };
      const prompt = async (session: string) => {
        const r = await ask(h, { op: "prompt", prompt: "how often does the journal service flush its journal", cwd: docs, session }, 30_000);
        assert.ok(r.kind === "reply" && r.reply.ok && /flushes its journal/.test(String(r.reply.text)), JSON.stringify(r));
      };
      const d = serve(h);
      await until(up(h));
      await until(async () => (await status()).inMemory.length === 1);
      assert.match((await status()).inMemory[0]!.kernel, /^codes-/);
      await prompt("c0");
      const before = (await status()).inMemory[0]!.version;
      write(1);
      await memIndex(h, docs);
      await prompt("c1");
      await until(async () => (await status()).inMemory[0]!.version !== before);
      const copy = (await status()).inMemory[0]!;
      assert.match(copy.kernel, /^codes-/);
      assert.equal(copy.rowsRead, 1, `refreshed, not read whole (${copy.rows} rows held)`);
      await prompt("c2");
      await ask(h, { op: "stop" }, 2_000);
      assert.equal(await d.exited, 0, d.stderr());
    });
  });

  test("a vector table over daemon.vectorMemoryMB is searched in LanceDB, not copied into memory", async () => {
    // One chunk of 64 dims is 256 bytes: over a limit of 0.0001 MiB (105 bytes).
    await withFakeOllama("too-big", { vectorMemoryMB: 0.0001 }, async (h) => {
      await memIndex(h);
      const d = serve(h);
      await until(up(h));
      await until(() => d.stderr().includes("over daemon.vectorMemoryMB"));
      assert.match(d.stderr(), /v_ollama_nomic_embed_text_64_p03aa22a9: 0 MiB of vectors is over daemon\.vectorMemoryMB \(0\.0001\); searching it in LanceDB/);
      const r = await ask(h, { op: "prompt", prompt: "why did we choose SQLite over Postgres", cwd: h, session: "big-1" }, 30_000);
      assert.ok(r.kind === "reply" && r.reply.ok && /We chose SQLite over Postgres/.test(String(r.reply.text)), JSON.stringify(r));
      const status = await ask(h, { op: "status" }, 30_000);
      assert.ok(status.kind === "reply" && status.reply.ok);
      assert.deepEqual(status.reply.inMemory, []);
      assert.equal(d.stderr().match(/over daemon\.vectorMemoryMB/g)?.length, 1, "said once, not at every prompt");
      await ask(h, { op: "stop" }, 2_000);
      assert.equal(await d.exited, 0, d.stderr());
    });
  });

  test("memories whose answer came after the client's budget are not marked injected: the session's next prompt still gets them", async () => {
    await withFakeOllama("late", { vectorBudgetMs: 2_000 }, async (h, fake) => {
      await memIndex(h);
      const d = serve(h);
      await until(up(h));
      const prompt = { op: "prompt", prompt: "why did we choose SQLite over Postgres", cwd: h, session: "late-1" };
      const injected = () => {
        const db = openDb(join(h, "mem.sqlite"), { readonly: true });
        const n = db.prepare("SELECT count(*) FROM injections WHERE session = 'late-1'").pluck().get() as number;
        db.close();
        return n;
      };

      await until(async () => (await inMemory(h)).length === 1); // warmed up
      fake.setDelayMs(500); // the embedder is slow: the daemon answers after the client gave up
      const embedded = fake.texts;
      assert.equal((await ask(h, prompt, 50)).kind, "timeout");
      await until(() => fake.texts > embedded); // the daemon got its embedding and answered...
      await new Promise((r) => setTimeout(r, 300)); // ...to a client no longer there
      assert.equal(injected(), 0, "nothing reached the session, so nothing is marked");

      fake.setDelayMs(0);
      const onTime = await ask(h, prompt, 30_000);
      assert.ok(onTime.kind === "reply" && onTime.reply.ok && /We chose SQLite over Postgres/.test(String(onTime.reply.text)), JSON.stringify(onTime));
      await until(() => injected() > 0);
      const again = await ask(h, prompt, 30_000);
      assert.ok(again.kind === "reply" && again.reply.ok && again.reply.text === undefined, "delivered once: not repeated in the session");
      await ask(h, { op: "stop" }, 2_000);
      assert.equal(await d.exited, 0, d.stderr());
    });
  });

  test("a PostToolUse hook process hands its event to the running daemon, which stores it before replying", async () => {
    const h = home("capture");
    const d = serve(h);
    await until(up(h));
    const before = await ask(h, { op: "status" }, 30_000);
    const payload = JSON.stringify({ session_id: "cap", cwd: h, hook_event_name: "PostToolUse", tool_name: "Edit", tool_use_id: "toolu_cap_1", tool_input: { file_path: join(h, "src/a.ts"), old_string: "a", new_string: "b" }, tool_response: { filePath: join(h, "src/a.ts") } });
    const r = await spawnHook("post-tool-use", payload, { MEM_HOME: h, HOME: tmp, MEM_NO_DAEMON: "0" });
    assert.deepEqual({ code: r.code, stdout: r.stdout }, { code: 0, stdout: "" });
    const db = openDb(join(h, "mem.sqlite"));
    assert.equal(db.prepare("SELECT type FROM events WHERE id = 'toolu_cap_1'").pluck().get(), "file_modified");
    db.close();
    const afterStatus = await ask(h, { op: "status" }, 30_000);
    const count = (x: typeof before) => (x.kind === "reply" && x.reply.ok ? Number(x.reply.requests) : Number.NaN);
    assert.ok(count(afterStatus) >= count(before) + 2, "the daemon took the capture");
    await ask(h, { op: "stop" }, 2_000);
    assert.equal(await d.exited, 0);
  });

  test("a Stop hook process hands the turn's end to the running daemon: transcript read, tags captured, the session summarised", async () => {
    const h = home("stop");
    const d = serve(h);
    await until(up(h));
    const before = await ask(h, { op: "status" }, 30_000);
    const transcript = join(h, "t.jsonl");
    const line = (type: string, content: unknown[]) => JSON.stringify({ type, sessionId: "st", timestamp: "2026-11-23T10:00:00Z", message: { role: type, content } });
    writeFileSync(transcript, `${[line("user", [{ type: "text", text: "Pick the store for the metadata." }]), line("assistant", [{ type: "text", text: "[MEMORY: decision] Chose SQLite over Postgres: no server to run." }])].join("\n")}\n`);
    const payload = (active: boolean) => JSON.stringify({ session_id: "st", cwd: h, transcript_path: transcript, hook_event_name: "Stop", stop_hook_active: active });
    const forced = await spawnHook("stop", payload(true), { MEM_HOME: h, HOME: tmp, MEM_NO_DAEMON: "0" });
    assert.deepEqual({ code: forced.code, stdout: forced.stdout }, { code: 0, stdout: "" });
    const mid = await ask(h, { op: "status" }, 30_000);
    const count = (x: typeof before) => (x.kind === "reply" && x.reply.ok ? Number(x.reply.requests) : Number.NaN);
    assert.equal(count(mid), count(before) + 1, "a forced continuation (stop_hook_active) asks the daemon nothing");
    const r = await spawnHook("stop", payload(false), { MEM_HOME: h, HOME: tmp, MEM_NO_DAEMON: "0" });
    assert.deepEqual({ code: r.code, stdout: r.stdout }, { code: 0, stdout: "" });
    const db = openDb(join(h, "mem.sqlite"));
    assert.equal(db.prepare("SELECT text FROM events WHERE type = 'decision'").pluck().get(), "Chose SQLite over Postgres: no server to run.");
    assert.match(db.prepare("SELECT summary FROM sessions WHERE session = 'st'").pluck().get() as string, /Pick the store for the metadata/);
    db.close();
    assert.equal(count(await ask(h, { op: "status" }, 30_000)), count(mid) + 2, "the daemon took the Stop");
    await ask(h, { op: "stop" }, 2_000);
    assert.equal(await d.exited, 0);
  });
});
