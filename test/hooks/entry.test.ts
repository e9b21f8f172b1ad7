/**
 * The hook process entry (bin/mem.cjs → entry.cts): how it reads stdin and when it hands over to
 * the full runner. Real processes, real daemon.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { DEADLINE_MS } from "../../src/contract/hook.cjs";
import { endProcessesUnder } from "../helpers/daemon.js";
import { runChild } from "../helpers/run-child.js";
import { until } from "../helpers/until.js";
import { spawnHook } from "./helpers.js";

const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "mem-entry-"));
const homes: string[] = [];
after(async () => {
  for (const h of homes) await ask(h, { op: "stop" }, 2_000);
  await endProcessesUnder(tmp); // a daemon a hook started (no child of ours) may still be running, writing to its data home
  rmSync(tmp, { recursive: true, force: true });
});

let n = 0;
function memHome(): string {
  const h = join(tmp, `h${++n}`);
  mkdirSync(h, { recursive: true });
  homes.push(h);
  return h;
}

/** Spawns a hook whose stdin is written but never closed (or never written: `payload` undefined). */
function spawnOpen(name: string, payload: string | undefined, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; ms: number }> {
  return runChild(process.execPath, [BIN, "hook", name], { env: { PATH: process.env.PATH, ...env }, timeout: 20_000, keepStdinOpen: true, ...(payload !== undefined ? { input: payload } : {}) });
}

describe("the hook entry", () => {
  test("stdin left open: the hook still answers within its deadline and exits 0", async () => {
    const h = memHome();
    writeFileSync(join(h, "note.md"), "# Storage\n\nWe chose SQLite over Postgres because it needs no server.\n");
    const env = { HOME: tmp, MEM_HOME: h, MEM_NO_DAEMON: "1", MEM_EMBED_ORDER: "none" };
    const open = await spawnOpen("user-prompt-submit", JSON.stringify({ session_id: "s", cwd: h, hook_event_name: "UserPromptSubmit", prompt: "why did we choose SQLite over Postgres" }), env);
    assert.equal(open.code, 0);
    assert.ok(open.ms < DEADLINE_MS["user-prompt-submit"] + 10_000, `took ${open.ms} ms`);
    const silent = await spawnOpen("session-end", undefined, env);
    assert.deepEqual({ code: silent.code, stdout: silent.stdout }, { code: 0, stdout: "" });
    assert.ok(silent.ms < DEADLINE_MS["session-end"] + 10_000, `took ${silent.ms} ms`);
  });

  test("stdin from /dev/null or an empty file: exit 0, nothing printed", async () => {
    const h = memHome();
    const empty = join(h, "empty");
    writeFileSync(empty, "");
    for (const stdin of ["ignore", openSync(empty, "r")] as const) {
      const r = await runChild(process.execPath, [BIN, "hook", "user-prompt-submit"], { env: { PATH: process.env.PATH, HOME: tmp, MEM_HOME: h, MEM_NO_DAEMON: "1" }, stdio: [stdin, "pipe", "ignore"] });
      assert.deepEqual({ code: r.code, stdout: r.stdout }, { code: 0, stdout: "" });
    }
  });

  test("bin/mem.js, which settings written by earlier builds still name, runs the same entry", async () => {
    const h = memHome();
    writeFileSync(join(h, "note.md"), "# Storage\n\nWe chose SQLite over Postgres because it needs no server.\n");
    const env = { PATH: process.env.PATH, HOME: tmp, MEM_HOME: h, MEM_NO_DAEMON: "1", MEM_EMBED_ORDER: "none" };
    await runChild(process.execPath, [BIN, "index", h, "-q"], { env });
    const legacy = BIN.replace(/mem\.cjs$/, "mem.js");
    const r = await runChild(process.execPath, [legacy, "hook", "user-prompt-submit"], { env, input: JSON.stringify({ session_id: "old", cwd: h, hook_event_name: "UserPromptSubmit", prompt: "why did we choose SQLite over Postgres" }) });
    assert.equal(r.code, 0);
    assert.match(r.stdout, /We chose SQLite over Postgres/);
  });

  test("a spawned prompt with no daemon answers from BM25 and starts one; the next spawned prompt is answered by it", async () => {
    const h = memHome();
    // A budget a loaded machine keeps (the daemon's first answer opens its stores): this test is about who answers.
    writeFileSync(join(h, "config.json"), JSON.stringify({ embedding: { order: [] }, daemon: { clientBudgetMs: 3_000 } }));
    writeFileSync(join(h, "note.md"), "# Storage\n\nWe chose SQLite over Postgres because it needs no server and FTS5 gives BM25.\n");
    const env = { HOME: tmp, MEM_HOME: h, MEM_NO_DAEMON: "0" };
    await runChild(process.execPath, [BIN, "index", h, "-q"], { env: { PATH: process.env.PATH, ...env } });
    const payload = (session: string) => JSON.stringify({ session_id: session, cwd: h, hook_event_name: "UserPromptSubmit", prompt: "why did we choose SQLite over Postgres" });
    const first = await spawnHook("user-prompt-submit", payload("a"), env);
    assert.equal(first.code, 0);
    assert.match(first.stdout, /We chose SQLite over Postgres/);
    await until(async () => (await ask(h, { op: "ping" }, 500)).kind === "reply", 60_000, "the daemon the first prompt started answers");
    const before = await ask(h, { op: "status" }, 30_000);
    const second = await spawnHook("user-prompt-submit", payload("b"), env);
    assert.match(second.stdout, /We chose SQLite over Postgres/);
    const afterIt = await ask(h, { op: "status" }, 30_000);
    const requests = (r: typeof before) => (r.kind === "reply" && r.reply.ok ? Number(r.reply.requests) : Number.NaN);
    assert.equal(requests(afterIt), requests(before) + 2, "the second prompt went to the daemon (its request, then our status)");
    const same = await spawnHook("user-prompt-submit", payload("b"), env);
    assert.equal(same.stdout, "", "the same session never gets the same memory twice");
  });
});
