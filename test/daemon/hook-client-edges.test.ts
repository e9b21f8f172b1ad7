/**
 * The curl hook client at its edges (found by review): a writer that never closes stdin, a budget
 * file that asks for too much or for nothing, a data home others may write to, a trailing slash
 * through a symlink, and a daemon that cannot write its budget file. Each time the hook stays
 * bounded, prints nothing it should not, and the Node hook takes over where curl must not be used.
 */
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { answerCutoffMs, curlBudgetMs } from "../../src/daemon/hook-http.js";
import { runChild } from "../helpers/run-child.js";
import { until } from "../helpers/until.js";
import { BIN, children, context, daemon, envOf, home, nodeRuns, prompt, SCRIPT, skip, SPY, tmp, viaScript, wedged } from "../helpers/hook-script.js";

const ASK = "why did we choose SQLite over Postgres?";
const whichSync = (tool: string) => execFileSync("/bin/sh", ["-c", `command -v ${tool}`]).toString().trim();

describe("the curl hook client at its edges", { skip }, () => {
  test("a writer that never closes stdin: the hook reads for a bounded time, then goes on and exits 0", { timeout: 60_000 }, async () => {
    const h = home();
    const child = await daemon(h);
    const t = Date.now();
    const hook = spawn("/bin/sh", [SCRIPT, SPY, BIN, "hook", "user-prompt-submit"], { env: envOf(h), stdio: ["pipe", "pipe", "pipe"] });
    children.push(hook);
    let out = "";
    hook.stdout.on("data", (d: Buffer) => (out += d.toString()));
    hook.stdin.write(prompt(ASK, "s-open", h).slice(0, 40)); // and never closed
    const code = await new Promise<number | null>((r) => hook.on("exit", (c) => r(c)));
    const ms = Date.now() - t;
    hook.stdin.destroy();
    assert.equal(code, 0);
    assert.equal(out, "", "half a payload answers nothing");
    assert.ok(ms < 5_000, `bounded: ${ms} ms`);
    assert.match(readFileSync(join(h, "hooks.log"), "utf8"), /user-prompt-submit/, "the Node hook logged the half payload");
    child.kill("SIGTERM");
  });

  test("a budget file past the deadline waits at most 1.5 s; zero, empty or not a number waits 0.25 s; each timeout is logged", { timeout: 60_000 }, async () => {
    const h = home();
    await runChild(process.execPath, [BIN, "index", h, "-q"], { env: envOf(h) });
    const unwedge = await wedged(h);
    try {
      for (const [budget, lo, hi] of [["8", 1_400, 3_500], ["0", 200, 1_400], ["0.000", 200, 1_400], ["", 200, 1_400], ["1e9", 200, 1_400], ["..", 200, 1_400]] as const) {
        writeFileSync(join(h, "hook.budget"), `${budget}\n`);
        const t = Date.now();
        const r = await viaScript("user-prompt-submit", prompt(ASK, `s-b${budget}`, h), envOf(h));
        const ms = Date.now() - t;
        assert.equal(r.code, 0);
        assert.equal(r.stdout, "");
        assert.ok(ms >= lo && ms < hi, `budget ${JSON.stringify(budget)}: ${ms} ms, expected ${lo} to ${hi}`);
      }
      assert.equal(nodeRuns(h), 0);
      const log = readFileSync(join(h, "hooks.log"), "utf8");
      assert.match(log, /within 1\.5 s; injected nothing/);
      assert.equal(log.match(/within 0\.25 s; injected nothing/g)?.length, 5);
    } finally {
      await unwedge();
    }
  });

  test("a data home others may write to, or a symlink to it written with a trailing slash: the Node hook answers", { timeout: 60_000 }, async () => {
    const h = home();
    const child = await daemon(h);
    const spyLog = { SPY_LOG: join(h, "spy.log") };
    try {
      chmodSync(h, 0o777);
      const r = await viaScript("user-prompt-submit", prompt(ASK, "s-777", h), envOf(h));
      assert.equal(nodeRuns(h), 1, "curl was not used");
      assert.equal(r.code, 0);
      assert.match(readFileSync(join(h, "hooks.log"), "utf8"), /writable by others/, "the Node hook refused the socket too");
    } finally {
      chmodSync(h, 0o700);
    }
    const link = join(tmp, `slash-${process.pid}`);
    symlinkSync(h, link);
    await viaScript("user-prompt-submit", prompt(ASK, "s-slash", link), envOf(`${link}/`, spyLog));
    assert.equal(nodeRuns(h), 2, "a trailing slash does not look through the symlink");
    // No find to tell who may write to the data home: not trusted.
    const nofind = join(tmp, `nofind-${process.pid}`);
    mkdirSync(nofind);
    for (const tool of ["curl", "cat", "sleep", "date"]) symlinkSync(whichSync(tool), join(nofind, tool));
    await viaScript("user-prompt-submit", prompt(ASK, "s-nofind", h), { ...envOf(h), PATH: nofind });
    assert.equal(nodeRuns(h), 3, "without find, the Node hook");
    const ok = await viaScript("user-prompt-submit", prompt(ASK, "s-ok", h), envOf(h));
    assert.equal(nodeRuns(h), 3, "the home as it should be: curl again");
    assert.match(context(ok.stdout), /We chose SQLite/);
    child.kill("SIGTERM");
  });

  test("a daemon that cannot write its budget file serves the Node client only, and still stops when asked", { timeout: 60_000 }, async () => {
    const h = home();
    mkdirSync(join(h, "hook.budget")); // a directory where the file goes
    const idx = await runChild(process.execPath, [BIN, "index", h, "-q"], { env: envOf(h) });
    assert.equal(idx.code, 0, idx.stderr);
    const child = spawn(process.execPath, [BIN, "serve"], { env: envOf(h), stdio: "ignore" });
    children.push(child);
    await until(async () => (await ask(h, { op: "ping" }, 500)).kind === "reply");
    assert.ok(!existsSync(join(h, "hook.sock")), "no HTTP socket left behind");
    const r = await viaScript("user-prompt-submit", prompt(ASK, "s-nobudget", h), envOf(h));
    assert.equal(nodeRuns(h), 1);
    assert.match(context(r.stdout), /We chose SQLite/, "the Node client asked the daemon");
    await ask(h, { op: "stop" }, 2_000);
    await until(() => child.exitCode !== null || child.signalCode !== null, 60_000, "the daemon's exit");
  });
});

describe("the prompt's budget over HTTP", () => {
  test("the daemon's cutoff comes before curl gives up, and neither passes the Node hook's 1.5 s", () => {
    for (const b of [1, 100, 250, 1_000, 1_449, 1_450, 1_500, 2_000, 60_000]) {
      assert.ok(answerCutoffMs(b) < curlBudgetMs(b), `${b}`);
      assert.ok(curlBudgetMs(b) <= 1_500, `${b}`);
      assert.ok(answerCutoffMs(b) <= b, `${b}`);
    }
    assert.equal(curlBudgetMs(250), 300);
    assert.equal(curlBudgetMs(2_000), 1_500);
  });
});
