import assert from "node:assert/strict";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { lockPath } from "../../src/daemon/paths.cjs";
import { runChild } from "../helpers/run-child.js";
import { until } from "../helpers/until.js";

const BIN = join(fileURLToPath(new URL("../../../", import.meta.url)), "bin", "mem.cjs");
const tmp = mkdtempSync(join(tmpdir(), "mem-lock-"));
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

function home(name: string): string {
  const h = join(tmp, name);
  mkdirSync(h);
  writeFileSync(join(h, "config.json"), JSON.stringify({ daemon: { idleMs: 60_000 }, embedding: { order: [] } }));
  return h;
}
const envOf = (h: string) => ({ PATH: process.env.PATH, HOME: tmp, MEM_HOME: h });

function serve(h: string): { child: ChildProcess; exited: Promise<number | null>; stderr: () => string } {
  const child = spawn(process.execPath, [BIN, "serve"], { env: envOf(h), stdio: ["ignore", "ignore", "pipe"] });
  children.push(child);
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  return { child, exited: new Promise((r) => child.on("exit", (code) => r(code))), stderr: () => err };
}

const up = (h: string) => async () => (await ask(h, { op: "ping" }, 500)).kind === "reply";
const status = async (h: string) => JSON.parse((await runChild(process.execPath, [BIN, "serve", "--status", "--json"], { env: envOf(h) })).stdout) as Record<string, unknown>;
const lockPid = (h: string) => (JSON.parse(readFileSync(lockPath(h), "utf8")) as { pid: number }).pid;

/** A pid that was just used and is gone. */
async function deadPid(): Promise<number> {
  const c = spawn(process.execPath, ["-e", "0"]);
  await new Promise((r) => c.on("exit", r));
  return c.pid!;
}

describe("the daemon's lock", () => {
  test("records the daemon's pid and its process start time", async () => {
    const h = home("format");
    const d = serve(h);
    await until(up(h));
    const lock = JSON.parse(readFileSync(lockPath(h), "utf8")) as { pid: number; start?: unknown };
    assert.equal(lock.pid, d.child.pid);
    if (existsSync("/proc/self/stat")) assert.match(String(lock.start), /^\d+$/);
    await ask(h, { op: "stop" }, 2_000);
    assert.equal(await d.exited, 0);
    assert.ok(!existsSync(lockPath(h)), "released");
  });

  test("a stale lock naming a live process that is no mem daemon (pid 1, old or new format) is taken over, and --status calls it stale", { skip: existsSync("/proc/1/cmdline") ? false : "needs /proc" }, async () => {
    for (const [name, content] of [["bare", "1\n"], ["json", `${JSON.stringify({ pid: 1, start: "1" })}\n`]] as const) {
      const h = home(`pid1-${name}`);
      writeFileSync(lockPath(h), content);
      assert.deepEqual(await status(h), { running: false, staleLock: 1 });
      const d = serve(h);
      await until(up(h));
      assert.equal(lockPid(h), d.child.pid);
      await ask(h, { op: "stop" }, 2_000);
      assert.equal(await d.exited, 0, d.stderr());
    }
  });

  test("a lock naming a process that is gone is taken over", async () => {
    const h = home("dead");
    const pid = await deadPid();
    writeFileSync(lockPath(h), `${pid}\n`);
    assert.deepEqual(await status(h), { running: false, staleLock: pid });
    const d = serve(h);
    await until(up(h));
    assert.equal(lockPid(h), d.child.pid);
    await ask(h, { op: "stop" }, 2_000);
    assert.equal(await d.exited, 0, d.stderr());
  });

  test("a running daemon's lock keeps a second daemon out, in today's format and as a bare pid (an older mem's)", async () => {
    const h = home("live");
    const first = serve(h);
    await until(up(h));
    const second = serve(h);
    assert.equal(await second.exited, 0);
    assert.match(second.stderr(), new RegExp(`already running .*pid ${first.child.pid}`));
    writeFileSync(lockPath(h), `${first.child.pid}\n`);
    const third = serve(h);
    assert.equal(await third.exited, 0);
    assert.match(third.stderr(), new RegExp(`already running .*pid ${first.child.pid}`));
    assert.equal((await status(h)).running, true);
    await ask(h, { op: "stop" }, 2_000);
    assert.equal(await first.exited, 0);
  });

  test("a FIFO where the lock file should be neither hangs the status check nor keeps the daemon out", async () => {
    const h = home("fifo");
    execFileSync("mkfifo", [lockPath(h)]);
    assert.deepEqual(await status(h), { running: false });
    const d = serve(h);
    await until(up(h));
    assert.equal(lockPid(h), d.child.pid);
    await ask(h, { op: "stop" }, 2_000);
    assert.equal(await d.exited, 0, d.stderr());
  });
});
