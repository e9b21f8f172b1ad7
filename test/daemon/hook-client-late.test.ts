/**
 * A prompt's answer the hook client gave up on is not counted as shown. The daemon's clock for
 * a request starts when its handler runs; a daemon held past the client's budget before that
 * (stopped here with SIGSTOP, as a busy or descheduled daemon is held) answers "in time" by its
 * own clock to a client that has already hung up. Such an answer must not mark the memory as
 * shown in the session: the next prompt of the session gets it. Real daemon, real clients (the
 * curl client through bin/mem-hook.sh; the Node client's channel: ./connection-delivered.test.ts).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { context, daemon, envOf, home, nodeRuns, prompt, skip, viaScript } from "../helpers/hook-script.js";
import { startFakeOllama } from "../helpers/fake-ollama.js";
import { until } from "../helpers/until.js";

const Q = "why did we choose SQLite over Postgres?";



describe("an answer the client gave up on is not counted as shown", { skip: process.platform === "win32" ? "no SIGSTOP" : false }, () => {
  test("the curl client: an answer curl never read (it was held past its budget) is not counted; the session's next prompt gets the memory", { skip: skip || (process.platform !== "linux" ? "the hang-up with a reply unread is told by Linux (ECONNRESET)" : false), timeout: 180_000 }, async () => {
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
        fake.setEmbedDelayMs(200);
        const before = fake.arrived;
        const asked = viaScript("user-prompt-submit", prompt(Q, session, h), envOf(h));
        await until(() => fake.arrived > before, 30_000, "the daemon embeds the prompt");
        const curl = spawnSync("pgrep", ["-f", `curl .*--unix-socket ${join(h, "hook.sock")}`], { encoding: "utf8" }).stdout.trim().split("\n").filter(Boolean).map(Number);
        for (const pid of curl) process.kill(pid, "SIGSTOP");
        // The daemon answers meanwhile; held past the server's keep-alive time too (its own close of
        // an idle connection says nothing of a read).
        await new Promise((r) => setTimeout(r, 2_500));
        for (const pid of curl) process.kill(pid, "SIGCONT");
        const first = await asked;
        fake.setEmbedDelayMs(0);
        assert.equal(first.code, 0, first.stderr);
        assert.equal(child.exitCode, null, "the daemon runs on");
        if (curl.length === 0 || /We chose SQLite over Postgres/.test(context(first.stdout))) continue; // curl had read it: not the case under test
        late++;
        await until(() => /the curl client hung up before its answer was read; not counted as shown/.test(log()), 30_000, "the daemon says it was not counted");
        // The session's next prompt gets it (asked again while the daemon is slower than curl's budget: each try is a new prompt).
        await until(async () => /We chose SQLite over Postgres/.test(context((await viaScript("user-prompt-submit", prompt(Q, session, h), envOf(h))).stdout)), 60_000, `the memory curl never read is shown to the session's next prompt; hooks.log:\n${log()}`);
      }
      assert.ok(late > 0, "curl gave up at least once");
      assert.equal(nodeRuns(h), 0, "the curl client answered every time");
    } finally {
      await fake.close();
    }
  });
});
