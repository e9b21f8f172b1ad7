/**
 * The daemon's vector scan shared with a worker thread (src/retrieve/scan-pool.ts): the same hits
 * as the inline scan, whatever the worker does (crashes, stalls, never starts), and a worker that
 * never keeps a process alive. Real LanceDB tables in a temp dir, real worker threads.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { MemoryIndex } from "../../src/retrieve/memory-index.js";
import { ScanPool } from "../../src/retrieve/scan-pool.js";
import { blockRows } from "../../src/retrieve/scan-blocks.js";
import { VectorStore } from "../../src/store/vectors.js";
import { cleanText } from "../../src/redact/clean.cjs";
import { prng } from "../../scripts/prng.js";
import { runChild } from "../helpers/run-child.js";
import { until } from "../helpers/until.js";

const DIMS = 768;
const ROWS = 2_600; // 6 blocks of 512 rows at 768 dims
const dir = mkdtempSync(join(tmpdir(), "mem-scanpool-"));
let store: VectorStore;
after(() => {
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

function unit(rand: () => number): Float32Array {
  const v = Float32Array.from({ length: DIMS }, () => rand() * 2 - 1);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

/**
 * Random unit vectors in three projects; every row from 1,300 on repeats row − 1,300 (equal scores
 * in different blocks, for any query), and rows 50 to 59 are zero (a tie of ten at 0).
 */
before(async () => {
  store = await VectorStore.open(dir);
  await store.ensure("t", DIMS);
  const rand = prng(7);
  const vectors: Float32Array[] = [];
  for (let i = 0; i < ROWS; i++) vectors.push(i >= 1_300 ? vectors[i - 1_300]! : i >= 50 && i < 60 ? new Float32Array(DIMS) : unit(rand));
  const rows = vectors.map((vector, i) => ({ id: cleanText(`c${String(i).padStart(5, "0")}`), project: cleanText(["a", "b", "c"][i % 3]!), vector }));
  for (let i = 0; i < rows.length; i += 1_000) await store.upsert("t", rows.slice(i, i + 1_000));
});

const queries = (): Float32Array[] => {
  const rand = prng(11);
  return [...Array.from({ length: 6 }, () => unit(rand)), new Float32Array(DIMS)]; // the zero query: every row ties at 0
};
const SCOPES = [undefined, ["a"], ["b", "c"], ["none"]];
const LIMITS = [0, 1, 7, 50, 5_000];

/** Whether `find` (with whatever worker the index has) gives exactly `search`'s hits, for every query, scope and limit. */
async function sameAsInline(idx: MemoryIndex): Promise<void> {
  for (const q of queries())
    for (const projects of SCOPES)
      for (const limit of LIMITS) assert.deepEqual(await idx.find(q, projects, limit), idx.search(q, projects, limit), `${projects} ${limit}`);
}

/** Holds this thread for `ms`, as the BM25 leg does (asleep: the core stays free for the worker). */
function busy(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}


describe("the vector scan shared with a worker thread", () => {
  test("gives exactly the inline scan's hits, with either kernel: random vectors, ties across blocks, project filters, limits above the size", async () => {
    assert.equal(blockRows(DIMS), 512);
    for (const prefer of [undefined, "js"] as const) {
      const idx = await MemoryIndex.load(store, "t", DIMS, "v1", prefer);
      const logs: string[] = [];
      await idx.useWorker({ log: (l) => logs.push(l) });
      assert.equal(idx.scan, "worker");
      await sameAsInline(idx);
      const all = await idx.find(new Float32Array(DIMS), undefined, 5_000);
      assert.equal(all.length, ROWS, "a limit above the size returns every row");
      assert.deepEqual(all.map((h) => h.id), [...all.map((h) => h.id)].sort(), "equal scores in row order");
      const q = queries()[0]!;
      const top = await idx.find(q, undefined, 40);
      assert.ok(top.some((h, i) => i > 0 && h.similarity === top[i - 1]!.similarity), "repeated rows tie in the top 40");

      // This thread busy (the BM25 leg) while the worker scans: it does its share (on a busy machine
      // it may get no core for a while: a few tries), and the hits stay the same.
      let share = 0;
      for (let i = 0; i < 10 && share === 0; i++) {
        const before = idx.scanCounts!;
        const pending = idx.find(q, ["a", "b"], 50);
        busy(40);
        assert.deepEqual(await pending, idx.search(q, ["a", "b"], 50));
        const now = idx.scanCounts!;
        assert.equal(now.scans - before.scans, 1);
        share = 6 - (now.here - before.here);
      }
      assert.ok(share > 0, "the worker scored some of the 6 blocks");

      // Scans asked for at once are answered one after another, each its own.
      const qs = queries();
      const together = await Promise.all(qs.map((v) => idx.find(v, undefined, 20)));
      together.forEach((hits, i) => assert.deepEqual(hits, idx.search(qs[i]!, undefined, 20)));

      // Closed while scans are under way and queued: each answers, the worker ends after them.
      const live = ScanPool.live;
      const first = idx.find(qs[1]!, undefined, 20);
      const closed = idx.close();
      const later = idx.find(qs[2]!, undefined, 20);
      assert.deepEqual(await first, idx.search(qs[1]!, undefined, 20));
      assert.deepEqual(await later, idx.search(qs[2]!, undefined, 20));
      await closed;
      assert.equal(idx.scan, "inline");
      await until(() => ScanPool.live === live - 1);
      assert.deepEqual(await idx.find(q, undefined, 20), idx.search(q, undefined, 20), "closed: scanned inline");
      assert.deepEqual(logs, [], "closing is not a failure");
    }
  });

  /**
   * An index whose worker (a failing fixture) claimed a block of its first scan while this thread
   * was busy: the scan's hits and counts, and the log. A worker given no core in time (a busy
   * machine) claims nothing; then the scene is set again, a few times at most.
   */
  async function firstScanWith(fixture: string, q: Float32Array, projects: string[] | undefined, stallMs?: number) {
    for (let attempt = 0; ; attempt++) {
      const idx = await MemoryIndex.load(store, "t", DIMS, "v1");
      const logs: string[] = [];
      await idx.useWorker({ log: (l) => logs.push(l), workerUrl: new URL(`../helpers/${fixture}`, import.meta.url), ...(stallMs ? { stallMs } : {}) });
      const pending = idx.find(q, projects, 30);
      // The BM25 leg, as the daemon runs it: on the next turn, once the scan has been posted to the
      // worker (this immediate was queued before the scan's own), so the worker claims its block
      // meanwhile. On a busy machine a worker may get no core for a while: each attempt waits longer.
      await new Promise((r) => setImmediate(r));
      busy(100 * 2 ** attempt);
      const hits = await pending;
      if (idx.scanCounts!.takenOver === 1 || attempt === 6) return { idx, logs, hits };
      await idx.close();
    }
  }

  test("a worker that crashes mid-scan is dropped with one log line: the block it held is scored here, the next scans are inline", async () => {
    const q = queries()[1]!;
    const { idx, logs, hits } = await firstScanWith("scan-worker-throws.js", q, undefined);
    assert.deepEqual(hits, idx.search(q, undefined, 30));
    assert.deepEqual(idx.scanCounts, { scans: 1, blocks: 6, here: 6, takenOver: 1 });
    await until(() => idx.scan === "inline");
    assert.deepEqual(logs, ["t: scan worker failed: simulated crash mid-scan; scanning on the main thread from now on"]);
    await sameAsInline(idx);
    assert.equal(logs.length, 1, "said once");
    assert.equal(idx.scanCounts!.scans, 1, "inline since");
    await idx.close();
  });

  test("a scan does not wait for a worker stuck on a block: this thread scores it; the next scan gives the worker stallMs, then ends it", async () => {
    const live = ScanPool.live;
    const q = queries()[2]!;
    const { idx, logs, hits } = await firstScanWith("scan-worker-stalls.js", q, ["c"], 200);
    assert.deepEqual(hits, idx.search(q, ["c"], 30));
    assert.deepEqual(idx.scanCounts, { scans: 1, blocks: 6, here: 6, takenOver: 1 });
    assert.deepEqual(logs, [], "answered without waiting for the worker");
    assert.equal(idx.scan, "worker");
    // The next scan may not change the query under a worker still on the last one: it waits, then gives up on it.
    assert.deepEqual(await idx.find(q, ["a"], 10), idx.search(q, ["a"], 10));
    assert.deepEqual(logs, ["t: scan worker still on a block after 200 ms; scanning on the main thread from now on"]);
    assert.equal(idx.scan, "inline");
    await until(() => ScanPool.live === live, 60_000); // the stuck thread was ended
    await sameAsInline(idx);
    await idx.close();
  });

  test("a worker that cannot start is logged and every scan is inline", async () => {
    const idx = await MemoryIndex.load(store, "t", DIMS, "v1");
    const logs: string[] = [];
    idx.useWorker({ log: (l) => logs.push(l), workerUrl: new URL("./no-such-worker.js", import.meta.url) });
    const q = queries()[3]!;
    assert.deepEqual(await idx.find(q, undefined, 25), idx.search(q, undefined, 25)); // before or after it is found out
    await until(() => logs.length > 0);
    assert.match(logs[0]!, /^t: scan worker (failed|exited).*; scanning on the main thread from now on$/);
    assert.equal(idx.scan, "inline");
    await sameAsInline(idx);
    await idx.close();
  });

  test("a worker left running never keeps the process alive", async () => {
    // A process that starts a scan worker, scans once and forgets to close it exits by itself.
    const url = (p: string) => new URL(p, import.meta.url).href;
    const script = join(dir, "left-running.mjs");
    writeFileSync(
      script,
      `import { scoreMatrix } from ${JSON.stringify(url("../../src/retrieve/dot-scores.js"))};
       import { ScanPool } from ${JSON.stringify(url("../../src/retrieve/scan-pool.js"))};
       const m = scoreMatrix(4096, 64);
       m.data.fill(0.5);
       const pool = new ScanPool(m, { log: (l) => console.log(l), name: "m" });
       const best = await pool.run(new Float32Array(64).fill(1), (s) => Math.max(...s));
       console.log(pool.mode, best, ScanPool.live);`,
    );
    const r = await runChild(process.execPath, [script], { stdio: ["ignore", "pipe", "pipe"], timeout: 20_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), "worker 32 1");
  });
});
