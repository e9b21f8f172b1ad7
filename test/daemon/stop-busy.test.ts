/**
 * A daemon asked to stop while its background job waits on a slow embedder: it stops within
 * seconds (the job is left for the next daemon, nothing lost), not after the embedder's timeout for
 * every batch still to go. A real `mem serve`, a loopback Ollama whose embed answers hang.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { openDb } from "../../src/store/db.js";
import { daemonSandbox, daemonUp } from "../helpers/daemon.js";
import { startFakeOllama } from "../helpers/fake-ollama.js";
import { BIN } from "../helpers/mem-cli.js";
import { runChild } from "../helpers/run-child.js";
import { until } from "../helpers/until.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-stopbusy-")));
const kids: ChildProcess[] = [];
after(() => {
  for (const c of kids) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

const embedded = (home: string): number => {
  const db = openDb(join(home, "mem.sqlite"));
  try {
    return db.prepare("SELECT count(*) FROM vec_rows").pluck().get() as number;
  } finally {
    db.close();
  }
};

for (const how of ["SIGTERM", "mem serve --stop"] as const) {
  test(`${how} while an embed request hangs: the daemon exits within seconds, and the memory is embedded by the next one`, { timeout: 180_000 }, async () => {
    const fake = await startFakeOllama({ dims: 16 });
    const s = daemonSandbox(join(tmp, how.replace(/\W+/g, "-")), {
      daemon: { idleMs: 300_000, indexEveryMs: 200 },
      embedding: { order: ["ollama"], batchSize: 1, ollama: { host: fake.url, timeoutMs: 600_000 } },
      index: { watch: false },
    });
    const mem = async (args: string[]) => {
      const r = await runChild(process.execPath, [BIN, ...args], { env: s.env, cwd: s.proj, timeout: 60_000 });
      assert.equal(r.code, 0, `mem ${args.join(" ")}: ${r.stderr}`);
    };
    try {
      const child = spawn(process.execPath, [BIN, "serve", "-q"], { env: s.env, stdio: "ignore" });
      kids.push(child);
      const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
      await until(() => daemonUp(s.home), 30_000);
      await mem(["remember", "the harbour service keeps its limits in one file", "--kind", "decision"]);
      await until(() => embedded(s.home) > 0, 60_000);

      // From now on every embed answer takes ten minutes (the configured timeout is longer).
      fake.setEmbedDelayMs(600_000);
      const asked = fake.arrived;
      for (const w of ["alpha", "bravo", "charlie", "delta"]) await mem(["remember", `the ${w} rollout goes out on Tuesdays`, "--kind", "decision"]);
      await until(() => fake.arrived > asked, 60_000); // the background job now waits on the embedder

      const t0 = Date.now();
      if (how === "SIGTERM") child.kill("SIGTERM");
      else await mem(["serve", "--stop"]);
      const code = await Promise.race([exited, new Promise<"still running">((r) => setTimeout(() => r("still running"), 60_000))]);
      const took = Date.now() - t0;
      assert.notEqual(code, "still running", "the daemon exited within a minute of being asked");
      assert.ok(took < 30_000, `it exited in ${took} ms`);
      assert.equal(await daemonUp(s.home), false, "its socket no longer answers");

      // Nothing lost: a new daemon with a quick embedder embeds what the stopped one left.
      fake.setEmbedDelayMs(0);
      const before = embedded(s.home);
      const next = spawn(process.execPath, [BIN, "serve", "-q"], { env: s.env, stdio: "ignore" });
      kids.push(next);
      await until(() => daemonUp(s.home), 30_000);
      await until(() => embedded(s.home) >= 5, 60_000);
      assert.ok(embedded(s.home) > before, "the next daemon embedded the rest");
      next.kill("SIGTERM");
    } finally {
      await fake.close();
    }
  });
}
