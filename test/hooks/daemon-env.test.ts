/**
 * The daemon the hooks start (src/hooks/user-prompt.ts startDaemon) runs with glibc's mmap
 * threshold fixed, so the buffers LanceDB frees while the vector copy is read go back to the
 * system instead of staying in the daemon's RSS. Read from the running daemon's own environment.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { startDaemon } from "../../src/hooks/user-prompt.js";
import { daemonSandbox } from "../helpers/daemon.js";
import { until } from "../helpers/until.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-daemon-env-"));
let home = "";
after(async () => {
  if (home) await ask(home, { op: "stop" }, 2_000).catch(() => undefined);
  rmSync(tmp, { recursive: true, force: true });
});

const envOf = (pid: number) => new Map(readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]));

test("the daemon a hook starts gives freed read buffers back (MALLOC_MMAP_THRESHOLD_), unless the user set it", { skip: !existsSync("/proc/self/environ") && "no /proc", timeout: 60_000 }, async () => {
  for (const [name, given] of [["default", undefined], ["set", "65536"]] as const) {
    const s = daemonSandbox(join(tmp, name), { daemon: { idleMs: 60_000 }, index: { watch: false } });
    home = s.home;
    await startDaemon({ ...s.env, MEM_WATCH: "0", ...(given ? { MALLOC_MMAP_THRESHOLD_: given } : {}) });
    let pid = 0;
    await until(async () => {
      const r = await ask(s.home, { op: "status" }, 1_000);
      if (r.kind === "reply") pid = (r.reply as unknown as { pid: number }).pid;
      return pid > 0;
    }, 30_000, "the daemon answers");
    assert.equal(envOf(pid).get("MALLOC_MMAP_THRESHOLD_"), given ?? "131072");
    await ask(s.home, { op: "stop" }, 2_000);
    home = "";
  }
});
