/**
 * bin/mem-hook.sh's curl client against a real daemon (`mem serve`) and its HTTP socket
 * (src/daemon/hook-http.ts): the same answers as the Node hook without starting Node, and the Node
 * hook, with the same stdin, whenever the daemon cannot answer. Which client answered is told by a
 * spy standing in for node: a script that notes each run, then runs the real node.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { openDb } from "../../src/store/db.js";
import { runChild } from "../helpers/run-child.js";
import { until } from "../helpers/until.js";
import { BIN, context, daemon, envOf, home, nodeRuns, post, prompt, skip, tmp, viaScript, wedged } from "../helpers/hook-script.js";

describe("the curl hook client", { skip }, () => {
  test("answers a prompt as the Node hook does, without starting Node; a session is not shown the same lines twice", { timeout: 120_000 }, async () => {
    const h = home();
    const child = await daemon(h);
    const q = "why did we choose SQLite over Postgres?";
    const fast = await viaScript("user-prompt-submit", prompt(q, "s-curl", h), envOf(h));
    assert.equal(nodeRuns(h), 0, "the curl client answered");
    assert.match(context(fast.stdout), /We chose SQLite over Postgres/);
    const slow = await viaScript("user-prompt-submit", prompt(q, "s-node", h), envOf(h, { MEM_HOOK_CLIENT: "node" }));
    assert.equal(nodeRuns(h), 1, "MEM_HOOK_CLIENT=node runs the Node hook");
    assert.equal(fast.stdout, slow.stdout, "the same JSON, byte for byte");
    // Delivered through curl, so recorded as shown: the same session is not shown those lines again.
    const again = await viaScript("user-prompt-submit", prompt(q, "s-curl", h), envOf(h));
    assert.doesNotMatch(context(again.stdout), /We chose SQLite over Postgres/);
    assert.equal(nodeRuns(h), 1);
    // A prompt that needs no memory: nothing, and no Node either.
    const skipped = await viaScript("user-prompt-submit", prompt("yes", "s-curl", h), envOf(h));
    assert.equal(skipped.stdout, "");
    assert.equal(nodeRuns(h), 1);
    child.kill("SIGTERM");
    await until(() => !existsSync(join(h, "hook.sock")));
  });

  test("captures are durable before it returns; hostile text reaches the store byte for byte; a forged assistant is dropped; a forced stop continuation asks nothing", { timeout: 120_000 }, async () => {
    const h = home();
    const child = await daemon(h);
    const hostile = `echo "$(touch ${join(tmp, "pwned")})" \`id\` '\\c' %s -n \\n ${"é".repeat(3)} ; exit 3`;
    const payload = JSON.stringify({ session_id: "s-cap", cwd: h, hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: "toolu_curl_1", tool_input: { command: hostile }, tool_response: { stdout: "ok", stderr: "" }, mem_assistant: "codex" });
    const r = await viaScript("post-tool-use", payload, envOf(h));
    assert.equal(r.stdout, "");
    assert.equal(nodeRuns(h), 0);
    assert.equal(existsSync(join(tmp, "pwned")), false, "nothing in the payload ran");
    await viaScript("post-tool-use", payload, envOf(h)); // the same tool call again: still one event
    const db = openDb(join(h, "mem.sqlite"));
    try {
      const rows = db.prepare("SELECT text, json_extract(metadata, '$.assistant') AS assistant FROM events WHERE session = 's-cap'").all() as { text: string; assistant: string | null }[];
      assert.equal(rows.length, 1);
      assert.ok(rows[0]!.text.includes(hostile), rows[0]!.text);
      assert.equal(rows[0]!.assistant, null, "a Claude Code payload naming another assistant is Claude Code's all the same");
    } finally {
      db.close();
    }
    const stop = await viaScript("stop", JSON.stringify({ session_id: "s-cap", cwd: h, hook_event_name: "Stop", stop_hook_active: true }), envOf(h));
    assert.equal(stop.stdout, "");
    assert.equal(nodeRuns(h), 0);
    child.kill("SIGTERM");
  });

  test("a daemon killed without cleaning up: the Node hook answers the same payload in-process", { timeout: 120_000 }, async () => {
    const h = home();
    const child = await daemon(h);
    child.kill("SIGKILL");
    await until(() => child.exitCode !== null || child.signalCode !== null);
    assert.ok(statSync(join(h, "hook.sock")).isSocket(), "the stale socket is still there");
    let r = await viaScript("user-prompt-submit", prompt("why did we choose SQLite over Postgres?", "s-stale", h), envOf(h));
    assert.equal(nodeRuns(h), 1, "the Node hook ran");
    // A loaded machine can take the in-process answer past the hook's deadline (then, by design, the
    // prompt gets nothing): asked again, the daemon the Node hook started answers it.
    for (let i = 0; i < 4 && context(r.stdout) === ""; i++) r = await viaScript("user-prompt-submit", prompt("why did we choose SQLite over Postgres?", `s-stale-${i}`, h), envOf(h));
    assert.match(context(r.stdout), /We chose SQLite over Postgres/);
    // The Node hook started a daemon for next time, which serves the curl client again.
    await until(async () => (await ask(h, { op: "ping" }, 500)).kind === "reply" && existsSync(join(h, "hook.budget")));
    const runs = nodeRuns(h);
    const next = await viaScript("user-prompt-submit", prompt("why did we choose SQLite over Postgres?", "s-next", h), envOf(h));
    assert.match(context(next.stdout), /We chose SQLite over Postgres/);
    assert.equal(nodeRuns(h), runs, "answered by curl");
    await ask(h, { op: "stop" }, 2_000);
    await until(() => !existsSync(join(h, "hook.sock")));
  });

  test("no curl, a symlinked socket or data home, MEM_NO_DAEMON: the Node hook, with the same answer", { timeout: 120_000 }, async () => {
    const h = home();
    const child = await daemon(h);
    const q = prompt("why did we choose SQLite over Postgres?", "s-x", h);
    // PATH without curl (only the shell's own tools are needed: none).
    const bare = join(tmp, "bin-no-curl");
    mkdirSync(bare, { recursive: true });
    const r1 = await viaScript("user-prompt-submit", q, { ...envOf(h), PATH: bare });
    assert.equal(nodeRuns(h), 1);
    assert.match(context(r1.stdout), /We chose SQLite/);
    // A data home reached through a symlink, and a symlink to the socket in a home of ours.
    const link = join(tmp, `link-${process.pid}`);
    symlinkSync(h, link);
    await viaScript("user-prompt-submit", prompt("why did we choose SQLite over Postgres?", "s-y", link), envOf(link, { SPY_LOG: join(h, "spy.log") }));
    assert.equal(nodeRuns(h), 2);
    const other = home();
    symlinkSync(join(h, "hook.sock"), join(other, "hook.sock"));
    await viaScript("user-prompt-submit", q, envOf(other, { SPY_LOG: join(h, "spy.log"), MEM_NO_DAEMON: "1" }));
    assert.equal(nodeRuns(h), 3);
    child.kill("SIGTERM");
  });

  test("the daemon's HTTP socket: 0600, hot hooks only, POST only, bounded, and gone when it stops", { timeout: 120_000 }, async () => {
    const h = home();
    const child = await daemon(h);
    const sock = join(h, "hook.sock");
    assert.equal(statSync(sock).mode & 0o777, 0o600);
    assert.equal(statSync(join(h, "hook.budget")).mode & 0o777, 0o600);
    assert.equal(readFileSync(join(h, "hook.budget"), "utf8").trim(), "1.5", "clientBudgetMs 2000 is capped at the Node hook's deadline");
    assert.equal((await post(sock, "/hook/user-prompt-submit", "{}", "GET")).status, 405);
    assert.equal((await post(sock, "/hook/session-start", "{}")).status, 404);
    assert.equal((await post(sock, "/hook/../etc", "{}")).status, 404);
    assert.equal((await post(sock, "/hook/user-prompt-submit", "not json")).status, 400);
    assert.equal((await post(sock, "/hook/user-prompt-submit", JSON.stringify({ prompt: "why SQLite over Postgres?" }))).status, 422, "no cwd: the Node hook answers");
    // Over the hook's stdin bound: refused (then the Node hook reads it bounded), asked as the client asks.
    const big = await runChild("curl", ["-q", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--unix-socket", sock, "-H", "Expect:", "--data-binary", "@-", "http://mem/hook/post-tool-use"], { input: "x".repeat(4 * 1024 * 1024 + 1), env: { PATH: process.env.PATH } });
    assert.equal(big.stdout, "413");
    const ok = await post(sock, "/hook/user-prompt-submit", prompt("why did we choose SQLite over Postgres?", "s-http", h));
    assert.equal(ok.status, 200);
    assert.match(context(ok.body), /SQLite/);
    child.kill("SIGTERM");
    await until(() => !existsSync(sock));
  });

  test("a daemon that does not answer in time: the prompt goes on without memories, a capture is written by the Node hook", { timeout: 120_000 }, async () => {
    const h = home();
    await runChild(process.execPath, [BIN, "index", h, "-q"], { env: envOf(h) }); // the store exists
    const unwedge = await wedged(h);
    writeFileSync(join(h, "hook.budget"), "0.3\n");
    try {
      const t = Date.now();
      const r = await viaScript("user-prompt-submit", prompt("why did we choose SQLite over Postgres?", "s-slow", h), envOf(h));
      assert.equal(r.stdout, "");
      assert.equal(nodeRuns(h), 0, "no second try in Node: the daemon is there, only slow");
      assert.ok(Date.now() - t < 5_000);
      assert.match(readFileSync(join(h, "hooks.log"), "utf8"), /user-prompt-submit: the daemon did not answer the curl client within 0\.3 s; injected nothing/);
      const cap = JSON.stringify({ session_id: "s-slow", cwd: h, hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: "toolu_slow", tool_input: { command: "make check" }, tool_response: { stdout: "ok" } });
      await viaScript("post-tool-use", cap, envOf(h));
      assert.equal(nodeRuns(h), 1, "the Node hook wrote the capture itself");
      const db = openDb(join(h, "mem.sqlite"));
      try {
        assert.equal((db.prepare("SELECT count(*) AS n FROM events WHERE id = 'toolu_slow'").get() as { n: number }).n, 1);
      } finally {
        db.close();
      }
    } finally {
      await unwedge();
    }
  });

  test("a bad payload and an oversized one go to the Node hook, which logs them", { timeout: 120_000 }, async () => {
    const h = home();
    const child = await daemon(h);
    const r = await viaScript("post-tool-use", "{not json", envOf(h, { MEM_NO_DAEMON: "0" }));
    assert.equal(r.stdout, "");
    assert.equal(nodeRuns(h), 1);
    const big = JSON.stringify({ session_id: "s-big", cwd: h, hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: "t-big", tool_input: { command: "cat" }, tool_response: { stdout: "y".repeat(5 * 1024 * 1024) } });
    await viaScript("post-tool-use", big, envOf(h));
    assert.equal(nodeRuns(h), 2);
    const log = readFileSync(join(h, "hooks.log"), "utf8");
    assert.match(log, /post-tool-use/);
    child.kill("SIGTERM");
  });
});
