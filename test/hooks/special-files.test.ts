/**
 * Hook processes meeting files that are not regular files where they expect one: a transcript or
 * a config.json that is a FIFO (opening it for reading would wait for a writer forever, and a
 * blocking open stops the hook's own exit timer too) or a directory. Real processes: a
 * regression is a child killed at its timeout, not a hung test runner.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { socketPath } from "../../src/daemon/paths.cjs";
import { DEADLINE_MS } from "../../src/contract/hook.cjs";
import { openDb } from "../../src/store/db.js";
import { runChild } from "../helpers/run-child.js";
import { BIN, spawnHook } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-hook-files-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
const canFifo = process.platform !== "win32";

let n = 0;
function memHome(): string {
  const h = join(tmp, `h${n++}`);
  mkdirSync(h, { recursive: true });
  return h;
}
const mkfifo = (path: string) => execFileSync("mkfifo", [path]);
const logOf = (h: string) => readFileSync(join(h, "hooks.log"), "utf8").trim().split("\n");

describe("a transcript that is not a regular file", { skip: !canFifo && "no FIFOs" }, () => {
  for (const kind of ["FIFO", "directory"] as const) {
    test(`Stop with a ${kind} as transcript exits 0 at once, logs it once, and still records the last message`, async () => {
      const h = memHome();
      const transcript = join(h, `transcript-${kind}.jsonl`);
      if (kind === "FIFO") mkfifo(transcript);
      else mkdirSync(transcript);
      const payload = { session_id: "s", cwd: h, hook_event_name: "Stop", stop_hook_active: false, transcript_path: transcript, last_assistant_message: "[MEMORY: decision] Keep the heron queue" };
      const r = await spawnHook("stop", JSON.stringify(payload), { HOME: tmp, MEM_HOME: h, MEM_EMBED_ORDER: "none" });
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.ms < DEADLINE_MS.stop + 10_000, `took ${r.ms} ms (deadline ${DEADLINE_MS.stop} ms)`);
      assert.equal(r.stdout, "");
      const mentions = logOf(h).filter((l) => l.includes(transcript));
      assert.equal(mentions.length, 1, logOf(h).join("\n"));
      assert.match(mentions[0]!, new RegExp(`not a regular file \\(a ${kind}\\)`));
      const db = openDb(join(h, "mem.sqlite"));
      const texts = db.prepare("SELECT text FROM events WHERE type = 'decision'").pluck().all() as string[];
      db.close();
      assert.ok(texts.some((t) => t.includes("heron queue")), `decision of the last message stored: ${JSON.stringify(texts)}`);
    });
  }
});

describe("a config.json that is a FIFO", { skip: !canFifo && "no FIFOs" }, () => {
  const prompt = (h: string) => JSON.stringify({ session_id: "s", cwd: h, hook_event_name: "UserPromptSubmit", prompt: "why did we choose SQLite over Postgres" });

  test("the prompt hook with no daemon answers from BM25 with the default config", async () => {
    const h = memHome();
    writeFileSync(join(h, "note.md"), "# Storage\n\nWe chose SQLite over Postgres because it needs no server.\n");
    const env = { PATH: process.env.PATH, HOME: tmp, MEM_HOME: h, MEM_EMBED_ORDER: "none" };
    const indexed = await runChild(process.execPath, [BIN, "index", h, "-q"], { env, timeout: 20_000 });
    assert.equal(indexed.code, 0, indexed.stderr);
    mkfifo(join(h, "config.json"));
    const r = await spawnHook("user-prompt-submit", prompt(h), env);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.ms < DEADLINE_MS["user-prompt-submit"] + 10_000, `took ${r.ms} ms`);
    assert.match(r.stdout, /We chose SQLite over Postgres/);
  });

  test("the prompt hook reads its daemon budget without waiting on the FIFO, and gets the daemon's answer", async () => {
    const h = memHome();
    mkfifo(join(h, "config.json"));
    // A stand-in daemon on the data home's socket: every prompt gets the same memory back.
    const server: Server = createServer((c) => c.once("data", () => c.end(`${JSON.stringify({ ok: true, text: "the heron memory" })}\n`)));
    await new Promise<void>((r) => server.listen(socketPath(h), r));
    try {
      const r = await spawnHook("user-prompt-submit", prompt(h), { HOME: tmp, MEM_HOME: h, MEM_NO_DAEMON: "0" });
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.ms < DEADLINE_MS["user-prompt-submit"] + 10_000, `took ${r.ms} ms`);
      assert.match(r.stdout, /the heron memory/);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe("a hooks.log that is a FIFO", { skip: !canFifo && "no FIFOs" }, () => {
  test("a hook with something to log exits 0 at once instead of waiting for a reader", async () => {
    const h = memHome();
    mkfifo(join(h, "hooks.log"));
    const r = await spawnHook("session-end", "not json", { HOME: tmp, MEM_HOME: h });
    assert.equal(r.signal, null, `the hook was killed after ${r.ms} ms`);
    assert.equal(r.code, 0);
    assert.ok(r.ms < DEADLINE_MS["session-end"] + 10_000, `took ${r.ms} ms`);
  });
});
