/**
 * A prompt's answer the hook client gave up on is not counted as shown. The daemon's clock for
 * a request starts when its handler runs; a daemon held past the client's budget before that
 * (stopped here with SIGSTOP, as a busy or descheduled daemon is held) answers "in time" by its
 * own clock to a client that has already hung up. Such an answer must not mark the memory as
 * shown in the session: the next prompt of the session gets it. Real daemon, real clients (the
 * curl client through bin/mem-hook.sh, and the Node client).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { context, daemon, envOf, home, nodeRuns, prompt, skip, viaScript } from "../helpers/hook-script.js";
import { startFakeOllama } from "../helpers/fake-ollama.js";
import { spawnHook } from "../hooks/helpers.js";
import { until } from "../helpers/until.js";

const Q = "why did we choose SQLite over Postgres?";

/** A data home whose clients wait `budgetMs` for the daemon, and its running daemon. */
async function bed(budgetMs: number) {
  const h = home();
  writeFileSync(join(h, "config.json"), JSON.stringify({ daemon: { idleMs: 60_000, indexEveryMs: 60_000, clientBudgetMs: budgetMs }, embedding: { order: [] }, index: { watch: false } }));
  const child = await daemon(h);
  return { h, child };
}

/** Holds the daemon still (SIGSTOP) while `during` runs, then lets it go on and waits until it answers again. */
async function heldWhile<T>(h: string, pid: number, during: () => Promise<T>): Promise<T> {
  process.kill(pid, "SIGSTOP");
  try {
    return await during();
  } finally {
    process.kill(pid, "SIGCONT");
    await until(async () => (await ask(h, { op: "ping" }, 2_000)).kind === "reply", 30_000, "the daemon answers again");
  }
}

describe("an answer the client gave up on is not counted as shown", { skip: process.platform === "win32" ? "no SIGSTOP" : false }, () => {
  test("the curl client: an answer curl never read (it was held past its budget) is not counted; the session's next prompt gets the memory", { skip, timeout: 180_000 }, async () => {
    // curl held (SIGSTOP) once its request is being answered, as a busy machine holds a process:
    // the daemon answers within its budget by its own clock and the answer waits in curl's
    // socket; curl, let go past its 0.35 s, gives up without reading it.
    const fake = await startFakeOllama({ dims: 64 });
    try {
      const h = home();
      writeFileSync(join(h, "config.json"), JSON.stringify({ daemon: { idleMs: 60_000, indexEveryMs: 60_000, clientBudgetMs: 300 }, embedding: { order: ["ollama"], ollama: { host: fake.url } }, index: { watch: false } }));
      const child = await daemon(h);
      await until(async () => /We chose SQLite over Postgres/.test(context((await viaScript("user-prompt-submit", prompt(Q, `s-warm-${Date.now()}`, h), envOf(h))).stdout)), 60_000, "the warm daemon answers curl in time");
      const log = () => (existsSync(join(h, "hooks.log")) ? readFileSync(join(h, "hooks.log"), "utf8") : "");
      let late = 0;
      for (let i = 0; i < 5 && late === 0; i++) {
        const session = `s-late-${i}`;
        fake.setEmbedDelayMs(100);
        const before = fake.arrived;
        const asked = viaScript("user-prompt-submit", prompt(Q, session, h), envOf(h));
        await until(() => fake.arrived > before, 30_000, "the daemon embeds the prompt");
        const curl = spawnSync("pgrep", ["-f", `curl .*--unix-socket ${join(h, "hook.sock")}`], { encoding: "utf8" }).stdout.trim().split("\n").filter(Boolean).map(Number);
        for (const pid of curl) process.kill(pid, "SIGSTOP");
        await new Promise((r) => setTimeout(r, 600)); // the daemon answers meanwhile
        for (const pid of curl) process.kill(pid, "SIGCONT");
        const first = await asked;
        fake.setEmbedDelayMs(0);
        assert.equal(first.code, 0, first.stderr);
        assert.equal(child.exitCode, null, "the daemon runs on");
        if (curl.length === 0 || /We chose SQLite over Postgres/.test(context(first.stdout))) continue; // curl had read it: not the case under test
        late++;
        await until(() => /hung up before its answer was read|did not answer the curl client/.test(log()), 30_000, "the hook's log says so");
        await new Promise((r) => setTimeout(r, 300)); // whatever the daemon records, recorded by now
        const next = await viaScript("user-prompt-submit", prompt(Q, session, h), envOf(h));
        assert.match(context(next.stdout), /We chose SQLite over Postgres/, `the memory curl never read is shown to the session's next prompt; hooks.log:\n${log()}`);
      }
      assert.ok(late > 0, "curl gave up at least once");
      assert.equal(nodeRuns(h), 0, "the curl client answered every time");
    } finally {
      await fake.close();
    }
  });

  test("the Node client: the session's next prompt gets the memory", { timeout: 120_000 }, async () => {
    const { h, child } = await bed(300);
    const env = { ...envOf(h), MEM_HOOK_CLIENT: "node", MEM_NO_DAEMON: "0" };
    const late = await heldWhile(h, child.pid!, () => spawnHook("user-prompt-submit", prompt(Q, "n-late", h), env));
    assert.equal(late.code, 0, late.stderr);
    // The Node hook answers in-process when the daemon does not: it may or may not have made it
    // within its own deadline; either way what it printed is what the session saw.
    const sawLate = /We chose SQLite over Postgres/.test(late.stdout);
    const next = await spawnHook("user-prompt-submit", prompt(Q, "n-late", h), env);
    assert.equal(next.code, 0, next.stderr);
    if (!sawLate) assert.match(next.stdout, /We chose SQLite over Postgres/, "the memory the hook never printed is shown to the session's next prompt");
    else assert.doesNotMatch(next.stdout, /We chose SQLite over Postgres/, "shown once per session");
  });
});
