import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { ConfigError, loadConfig } from "../../src/config/load.js";
import { defaultConfig } from "../../src/config/config.js";
import { inRange, RANGES } from "../../src/config/ranges.cjs";
import { ask } from "../../src/daemon/client.cjs";
import { socketPath } from "../../src/daemon/paths.cjs";
import { runChild } from "../helpers/run-child.js";

const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "mem-config-limits-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;

function home(): string {
  const h = join(tmp, `h${n++}`);
  mkdirSync(h);
  return h;
}

/** Runs `fn`, which must throw a ConfigError, and returns its message. */
function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ConfigError, `expected ConfigError, got ${String(err)}`);
    return err.message;
  }
  assert.fail("expected a ConfigError");
}

describe("config.json that is not an ordinary small file", () => {
  test("a FIFO config.json is refused at once with a clear error, not waited on", { skip: process.platform === "win32" && "no FIFOs" }, async () => {
    const h = home();
    execFileSync("mkfifo", [join(h, "config.json")]);
    const r = await runChild(process.execPath, [BIN, "status"], { env: { PATH: process.env.PATH, HOME: tmp, MEM_HOME: h }, timeout: 20_000 });
    assert.equal(r.signal, null, `mem status hung (killed after ${r.ms} ms)`);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /config\.json.*not a regular file \(a FIFO\)/);
  });

  test("a config.json over 1 MiB is refused without being parsed", () => {
    const h = home();
    writeFileSync(join(h, "config.json"), `{"query": {"k": 3}}${" ".repeat(2 * 1024 * 1024)}`);
    assert.match(configError(() => loadConfig(join(h, "config.json"), {})), /config\.json.*too large \(\d+ bytes, limit 1048576\)/);
  });

  test("a config.json that is a directory is refused with a ConfigError naming it", () => {
    const h = home();
    mkdirSync(join(h, "config.json"));
    assert.match(configError(() => loadConfig(join(h, "config.json"), {})), /config\.json.*not a regular file \(a directory\)/);
  });
});

describe("numeric settings have ranges", () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ["a timer past 2^31-1 ms (Node fires it at once)", { daemon: { idleMs: 1e12 } }, /"daemon\.idleMs" must be an integer in \[100, 2147483647\], got 1000000000000/],
    ["an interval short enough to spin", { daemon: { indexEveryMs: 1 } }, /"daemon\.indexEveryMs" must be an integer in \[100, 2147483647\], got 1/],
    ["the hook's budget past 2^31-1 ms", { daemon: { clientBudgetMs: 2 ** 31 } }, /"daemon\.clientBudgetMs" must be an integer in \[100, 2147483647\], got 2147483648/],
    ["a negative row threshold for the scan worker", { daemon: { scanWorkerRows: -1 } }, /"daemon\.scanWorkerRows" must be an integer in \[0, 2147483647\], got -1/],
    ["a fractional batch size", { embedding: { batchSize: 1.5 } }, /"embedding\.batchSize" must be an integer in \[1, 4096\], got 1\.5/],
    ["a billion results", { query: { k: 1e9 } }, /"query\.k" must be an integer in \[1, 1000\], got 1000000000/],
    ["a similarity floor above 1", { inject: { minSimilarity: 1.5 } }, /"inject\.minSimilarity" must be a number in \[0, 1\], got 1\.5/],
    ["a term coverage below 0", { inject: { minTermCoverage: -0.1 } }, /"inject\.minTermCoverage" must be a number in \[0, 1\], got -0\.1/],
    ["a dedupe threshold of 0 (everything a duplicate)", { query: { dedupeThreshold: 0 } }, /"query\.dedupeThreshold" must be a number in \(0, 1\], got 0/],
    ["a negative weight", { query: { weights: { vector: -1 } } }, /"query\.weights\.vector" must be a number in \[0, 1000\], got -1/],
    ["an Ollama timeout past 2^31-1 ms", { embedding: { ollama: { timeoutMs: 3e9 } } }, /"embedding\.ollama\.timeoutMs" must be an integer in \[1, 2147483647\], got 3000000000/],
    ["a chunk size of a million tokens", { index: { chunkTokens: 1e6 } }, /"index\.chunkTokens" must be an integer in \[8, 8192\], got 1000000/],
    ["an injection budget over what a hook may print", { inject: { budgetChars: 50_000 } }, /"inject\.budgetChars" must be an integer in \[1, 9000\], got 50000/],
  ];
  for (const [label, json, pattern] of cases) {
    test(`out of range is a ConfigError naming key, value and range: ${label}`, () => {
      const h = home();
      writeFileSync(join(h, "config.json"), JSON.stringify(json));
      assert.match(configError(() => loadConfig(join(h, "config.json"), {})), pattern);
    });
  }

  test("every numeric key has a range; both ends are accepted, one step past either is refused", () => {
    const leaves: [string, number][] = [];
    const walk = (o: Record<string, unknown>, at: string) => {
      for (const [k, v] of Object.entries(o)) {
        if (typeof v === "number") leaves.push([`${at}${k}`, v]);
        else if (v !== null && typeof v === "object" && !Array.isArray(v)) walk(v as Record<string, unknown>, `${at}${k}.`);
      }
    };
    walk(defaultConfig() as unknown as Record<string, unknown>, "");
    assert.deepEqual(leaves.map(([k]) => k).filter((k) => !RANGES[k]), [], "numeric keys without a range");
    /** A loader for a config.json setting `key` to `value` (the index's relational limits out of the way). */
    const load = (key: string, value: number) => {
      const json: Record<string, unknown> = key.startsWith("index.") ? { index: { chunkTokens: 8192, overlapTokens: 0, minChunkTokens: 0 } } : {};
      const path = key.split(".");
      let o = json;
      for (const p of path.slice(0, -1)) o = (o[p] ??= {}) as Record<string, unknown>;
      o[path[path.length - 1]!] = value;
      const file = join(home(), "config.json");
      writeFileSync(file, JSON.stringify(json));
      return () => loadConfig(file, {});
    };
    for (const [key, def] of leaves) {
      const r = RANGES[key]!;
      assert.ok(inRange(def, r), `the default of ${key} (${def}) is in its range`);
      if (!r.above) assert.doesNotThrow(load(key, r.min), key);
      assert.doesNotThrow(load(key, r.max), key);
      const step = r.integer ? 1 : r.max / 1000;
      for (const bad of [r.above ? r.min : r.min - step, r.max + step, ...(r.integer ? [r.min + 0.5] : [])]) {
        assert.match(configError(load(key, bad)), new RegExp(`"${key.replace(/\./g, "\\.")}" must be an? (integer|number) in [[(]`), `${key} = ${bad}`);
      }
    }
  });
});

describe("an out-of-range daemon setting does not make the daemon or the hook misbehave", () => {
  test("a daemon whose config.json has daemon.idleMs 1e12 keeps running on the defaults and says why", async () => {
    const h = home();
    writeFileSync(join(h, "config.json"), JSON.stringify({ daemon: { idleMs: 1e12 }, embedding: { order: [] } }));
    const d = spawn(process.execPath, [BIN, "serve"], { env: { PATH: process.env.PATH, HOME: tmp, MEM_HOME: h }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    d.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    let exited = false;
    d.on("exit", () => (exited = true));
    try {
      const end = Date.now() + 10_000;
      while ((await ask(h, { op: "ping" }, 500)).kind !== "reply") {
        assert.ok(!exited && Date.now() < end, `the daemon did not come up: ${stderr}`);
        await sleep(50);
      }
      await sleep(1_500);
      assert.equal(exited, false, `the daemon exited: ${stderr}`);
      assert.equal((await ask(h, { op: "ping" }, 30_000)).kind, "reply");
      assert.match(stderr, /"daemon\.idleMs" must be an integer in \[100, 2147483647\], got 1000000000000.*defaults/);
    } finally {
      await ask(h, { op: "stop" }, 2_000);
      if (!exited) d.kill("SIGKILL");
    }
  });

  test("the prompt hook ignores an out-of-range daemon.clientBudgetMs and waits its default budget", async () => {
    const h = home();
    writeFileSync(join(h, "config.json"), JSON.stringify({ daemon: { clientBudgetMs: 1e12 } }));
    // A stand-in daemon that answers after 100 ms: within the default 250 ms budget.
    const server = createServer((c) => c.once("data", () => setTimeout(() => c.end(`${JSON.stringify({ ok: true, text: "the late heron" })}\n`), 100)));
    await new Promise<void>((r) => server.listen(socketPath(h), r));
    try {
      const prompt = JSON.stringify({ session_id: "s", cwd: h, hook_event_name: "UserPromptSubmit", prompt: "why did we choose SQLite over Postgres" });
      const r = await runChild(process.execPath, [BIN, "hook", "user-prompt-submit"], { env: { PATH: process.env.PATH, HOME: tmp, MEM_HOME: h }, input: prompt, timeout: 20_000 });
      assert.equal(r.code, 0);
      assert.match(r.stdout, /the late heron/);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
