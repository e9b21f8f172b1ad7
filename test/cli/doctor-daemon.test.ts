/**
 * `mem doctor` and `mem serve --status` show the running daemon's memory, as a real `mem serve`
 * reports it: its RSS (checked against /proc/<pid>/status), its V8 heap, and the bytes of the
 * vector copy it holds (rows × dims × 4); over `daemon.rssWarnMB` doctor warns with a one-line fix.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { daemonSandbox, startDaemon } from "../helpers/daemon.js";
import { startFakeOllama } from "../helpers/fake-ollama.js";
import { cleanEnv, jsonOf, runMem, show, type Check } from "../helpers/mem-cli.js";
import { until } from "../helpers/until.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-doctor-daemon-")));
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

interface Doctor {
  checks: Check[];
  daemon: { pid: number; rss: number; heapUsed: number; vectorBytes: number; vectorFileBytes?: number } | null;
}

/** A /proc/<pid>/status field in bytes (it says kB). */
function procBytes(pid: number, field: "VmRSS" | "VmHWM"): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  assert.ok(m, `${field} in /proc/${pid}/status`);
  return Number(m[1]) * 1024;
}

test("mem doctor shows the running daemon's RSS, heap and vector bytes, and warns over daemon.rssWarnMB", { skip: !existsSync("/proc/self/status") && "no /proc" }, async () => {
  const fake = await startFakeOllama({ dims: 64 });
  try {
    const config = { daemon: { idleMs: 60_000, indexEveryMs: 60_000 }, embedding: { order: ["ollama"], ollama: { host: fake.url } } };
    const s = daemonSandbox(tmp, config);
    const notes = join(s.proj, "notes");
    mkdirSync(notes);
    writeFileSync(join(notes, "a.md"), "# Journal\n\nThe journal service flushes its journal to disk every second.\n\n## Rotation\n\nLogs rotate at midnight.\n");
    const env: NodeJS.ProcessEnv = { ...cleanEnv(join(tmp, "claude")), HOME: tmp, MEM_HOME: s.home };
    delete env.MEM_EMBED_ORDER;
    delete env.MEM_NO_DAEMON;
    const doctor = async () => {
      const r = await runMem(["doctor", "--json"], { env, cwd: s.proj });
      return { r, d: jsonOf<Doctor>(r) };
    };

    // No daemon: said so, nothing to warn of.
    let { r, d } = await doctor();
    assert.equal(d.daemon, null, show(r));
    assert.match(d.checks.find((c) => c.name === "daemon")?.detail ?? "", /^not running/);

    assert.equal((await runMem(["index", notes, "-q"], { env, cwd: s.proj })).code, 0);
    const child = await startDaemon(s, children);
    // The warm-up loads the vector table into memory.
    const held = async () => {
      const st = await ask(s.home, { op: "status" }, 30_000);
      return st.kind === "reply" && st.reply.ok ? (st.reply.inMemory as { rows: number; bytes: number }[]) : [];
    };
    await until(async () => (await held()).length === 1);
    const copy = (await held())[0]!;

    ({ r, d } = await doctor());
    const f = d.daemon;
    assert.ok(f, show(r));
    assert.equal(f.pid, child.pid);
    assert.ok(f.rss > 20 * 2 ** 20, `a Node process holds more than 20 MiB: ${f.rss}`);
    assert.ok(f.rss <= procBytes(child.pid!, "VmHWM"), "the RSS reported is the process's own: never over its peak the kernel counts");
    assert.ok(Math.abs(f.rss - procBytes(child.pid!, "VmRSS")) < f.rss / 2, "and close to what the kernel counts now");
    assert.ok(f.heapUsed > 0 && f.heapUsed < f.rss);
    assert.ok(copy.rows >= 1);
    assert.equal(f.vectorBytes, copy.rows * 64 * 4, "the float32 copy: rows × 64 dims × 4 bytes");
    assert.equal(copy.bytes, f.vectorBytes);
    assert.equal(f.vectorFileBytes, 0, "a float32 copy keeps no int8 rows in a file");
    const check = d.checks.find((c) => c.name === "daemon")!;
    assert.equal(check.status, "ok");
    assert.match(check.detail, new RegExp(`^pid ${child.pid}: RSS \\d+ MB \\(V8 heap \\d+ MB; vector copies 0 MB\\)$`));
    // The text report: the same line.
    const text = await runMem(["doctor"], { env, cwd: s.proj });
    assert.match(text.stdout, new RegExp(`^\\[ok  \\] daemon: pid ${child.pid}: RSS \\d+ MB`, "m"), show(text));
    const st = await runMem(["serve", "--status"], { env, cwd: s.proj });
    assert.match(st.stdout, /^daemon running: pid \d+, .*; RSS \d+ MB \(V8 heap \d+ MB; vector copies 0 MB\)$/m, show(st));

    // Over the threshold: a warning, and one line of fix that points at daemon.vectorMemoryMB.
    writeFileSync(join(s.home, "config.json"), JSON.stringify({ ...config, daemon: { ...config.daemon, rssWarnMB: 1 } }));
    ({ r, d } = await doctor());
    const warn = d.checks.find((c) => c.name === "daemon")!;
    assert.equal(warn.status, "warn", show(r));
    assert.match(warn.detail, /RSS \d+ MB .* is over daemon\.rssWarnMB \(1 MB\)$/);
    assert.match(warn.fix ?? "", /^lower `daemon\.vectorMemoryMB` in config\.json .*`mem serve --stop`/);
    assert.doesNotMatch(warn.fix!, /\n/);
    await ask(s.home, { op: "stop" }, 2_000);
  } finally {
    await fake.close();
  }
});
