/**
 * The prompt hook with no daemon listening answers from an in-process BM25 query and starts a daemon
 * for next time. It starts it only once its answer is written: a daemon started first (a second Node
 * loading mem and its stores) takes the cores the answer needs: six such first prompts at once on a
 * loaded two-core machine, 10 of 12 missed their 1.5 s deadline (nothing injected); after, none.
 *
 * The order is observed in the real hook process: a preload (NODE_OPTIONS) notes when the hook
 * writes to stdout and when it spawns `mem serve`; both still happen for real.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { after, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { lockPath } from "../../src/daemon/paths.cjs";
import { endProcessesUnder } from "../helpers/daemon.js";
import { BIN } from "../helpers/mem-cli.js";
import { runChild } from "../helpers/run-child.js";
import { until } from "../helpers/until.js";
import { spawnHook } from "./helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-first-prompt-")));
const homes: string[] = [];
after(async () => {
  for (const h of homes) if ((await ask(h, { op: "ping" }, 2_000)).kind === "reply") await ask(h, { op: "stop" }, 10_000);
  await endProcessesUnder(tmp); // a daemon a hook started (no child of ours) may still be running, writing to its data home
  rmSync(tmp, { recursive: true, force: true });
});

/** A preload that appends "answer" when a `mem hook` process first writes to stdout, "spawn serve" when it spawns the daemon. */
function preload(log: string): string {
  const file = join(tmp, "order-preload.cjs");
  writeFileSync(
    file,
    `const fs = require("node:fs");
     const cp = require("node:child_process");
     if (process.argv[2] === "hook") {
       const note = (what) => fs.appendFileSync(${JSON.stringify(log)}, what + "\\n");
       const writeSync = fs.writeSync;
       let said = false;
       fs.writeSync = function (fd, ...rest) {
         if (fd === 1 && !said) { said = true; note("answer"); }
         return writeSync.call(this, fd, ...rest);
       };
       const spawn = cp.spawn;
       cp.spawn = function (cmd, args, ...rest) {
         if (Array.isArray(args) && args.includes("serve")) note("spawn serve");
         return spawn.call(this, cmd, args, ...rest);
       };
       require("node:module").syncBuiltinESMExports();
     }`,
  );
  return file;
}

test("with no daemon, the prompt hook answers from BM25 first and starts the daemon after its answer is written", { timeout: 120_000 }, async () => {
  const home = join(tmp, "home");
  const docs = join(tmp, "docs");
  mkdirSync(home);
  mkdirSync(docs);
  homes.push(home);
  writeFileSync(join(home, "config.json"), JSON.stringify({ embedding: { order: [] }, daemon: { idleMs: 60_000 }, index: { watch: false } }));
  writeFileSync(join(docs, "storage.md"), "# Storage\n\nWe chose SQLite over Postgres because it needs no server and FTS5 gives BM25.\n");
  const env = { HOME: tmp, MEM_HOME: home, MEM_WATCH: "0" };
  const indexed = await runChild(process.execPath, [BIN, "index", ".", "-q"], { cwd: docs, env: { PATH: process.env.PATH, ...env, MEM_NO_DAEMON: "1" } });
  assert.equal(indexed.code, 0, indexed.stderr);

  const log = join(tmp, "order.log");
  const payload = JSON.stringify({ session_id: "first", cwd: docs, hook_event_name: "UserPromptSubmit", prompt: "why did we choose SQLite over Postgres" });
  const r = await spawnHook("user-prompt-submit", payload, { ...env, MEM_NO_DAEMON: "0", NODE_OPTIONS: `--require ${preload(log)}` });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /We chose SQLite over Postgres/, "answered in-process from BM25");
  assert.deepEqual(readFileSync(log, "utf8").trim().split("\n"), ["answer", "spawn serve"], "the daemon is started once the answer is written, not before");

  // And it was started for real: the next prompt's daemon answers.
  await until(async () => (await ask(home, { op: "ping" }, 2_000)).kind === "reply", 60_000, "the daemon the hook started answers");
  await ask(home, { op: "stop" }, 10_000);
  await until(() => !existsSync(lockPath(home)), 60_000, "the daemon stopped");
});

test("a daemon a hook started for next time does not make a data home removed meanwhile: it exits, and the folder stays gone", { timeout: 60_000 }, async () => {
  const home = join(tmp, "removed-home");
  const env = { PATH: process.env.PATH, HOME: tmp, MEM_HOME: home, MEM_WATCH: "0", MEM_SERVE_FOR_HOOK: "1" };
  const r = await runChild(process.execPath, [BIN, "serve", "--quiet"], { env, timeout: 30_000 });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(existsSync(home), false, "not made");
  // `mem serve` run by hand still makes its data home (and serves it).
  homes.push(home);
  const byHand = spawn(process.execPath, [BIN, "serve", "--quiet"], { env: { ...env, MEM_SERVE_FOR_HOOK: "" }, stdio: "ignore" });
  await until(async () => (await ask(home, { op: "ping" }, 2_000)).kind === "reply", 60_000, "mem serve by hand runs");
  assert.ok(existsSync(home));
  await ask(home, { op: "stop" }, 10_000);
  await until(() => byHand.exitCode !== null, 60_000, "stopped");
});
