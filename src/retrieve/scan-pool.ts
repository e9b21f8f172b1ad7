import { Worker } from "node:worker_threads";
import type { ScoreMatrix } from "./dot-scores.js";
import { blockCount, blockRows, claimBlocks, CONTROL_BYTES, DONE, NEXT } from "./scan-blocks.js";
import type { ScanWorkerData } from "./scan-worker.js";

export interface ScanPoolOptions {
  /** Where a failure is told (the daemon's log). */
  log: (line: string) => void;
  /** Names the matrix in log lines (the vector table). */
  name: string;
  /** The worker's script (default scan-worker.js beside this file; tests give one that fails). */
  workerUrl?: URL;
  /** How long a scan waits for the worker's last blocks before it calls the worker stuck (default 1 s). */
  stallMs?: number;
}

/** `Atomics.waitAsync` (Node 16+), not in the ES2022 library the project compiles against. */
type WaitAsync = (a: Int32Array, i: number, v: number, timeout?: number) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync?: WaitAsync }).waitAsync;

/**
 * One matrix scanned by two threads: a worker thread holding the same shared memory (no copy),
 * and the daemon's thread. A scan posts the query to the worker, which starts at once; the
 * daemon's thread joins on its next turn (after the BM25 leg, which the search queued before), and
 * both claim blocks of rows until none is left (scan-blocks.ts). The scores are the inline scan's,
 * bit for bit: the same kernel, the same query, each row scored once.
 *
 * A worker that fails to start, throws, exits or stalls is dropped with a log line: the scan that
 * met it is redone inline, and every scan after it is inline. The worker never keeps the process
 * alive (unref), and `close` ends it once the scan under way is done.
 */
export class ScanPool {
  /** Worker threads started and not yet exited, in this process (the daemon's status shows it). */
  static live = 0;
  private worker: Worker | undefined;
  /** Set when the worker is gone (failed, or closed); wakes a scan waiting for it. */
  private gone = false;
  private wake: () => void = () => undefined;
  private readonly goneSignal = new Promise<void>((r) => (this.wake = r));
  private closing = false;
  private readonly ctrl = new Int32Array(new SharedArrayBuffer(CONTROL_BYTES));
  private readonly per: number;
  private readonly blocks: number;
  private tail: Promise<void> = Promise.resolve();
  /** Scans shared with the worker, their blocks, and how many of those this thread scored. */
  readonly counts = { scans: 0, blocks: 0, here: 0 };

  constructor(
    private readonly matrix: ScoreMatrix,
    private readonly opts: ScanPoolOptions,
  ) {
    this.per = blockRows(matrix.dims);
    this.blocks = blockCount(matrix.rows, this.per);
    if (!waitAsync) {
      opts.log(`${opts.name}: no Atomics.waitAsync in this runtime; scanning on the main thread`);
      return;
    }
    try {
      const workerData: ScanWorkerData = { matrix: matrix.shared(), control: this.ctrl.buffer as SharedArrayBuffer, per: this.per };
      const w = new Worker(opts.workerUrl ?? new URL("./scan-worker.js", import.meta.url), { workerData });
      w.unref();
      ScanPool.live++;
      w.on("error", (err: Error) => this.fail(`scan worker failed: ${err.message}`));
      w.on("messageerror", (err: Error) => this.fail(`scan worker could not read a message: ${err.message}`));
      w.on("exit", (code: number) => {
        ScanPool.live--;
        this.fail(`scan worker exited (code ${code})`);
      });
      this.worker = w;
    } catch (err) {
      opts.log(`${opts.name}: could not start a scan worker (${(err as Error).message}); scanning on the main thread`);
    }
  }

  /** "worker" while a worker shares the scans, else "inline". */
  get mode(): "worker" | "inline" {
    return this.worker && !this.gone ? "worker" : "inline";
  }

  /**
   * Scores every row against `q`, then hands the scores to `read` (synchronously: the array is
   * reused by the next scan, which waits for this one).
   */
  async run<T>(q: Float32Array, read: (scores: Float32Array) => T): Promise<T> {
    const before = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((r) => (release = r));
    try {
      await before;
      return read(await this.scan(q));
    } finally {
      release();
    }
  }

  /** Ends the worker once the scan under way (and those queued) are done; later scans are inline. */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (!w) return;
    await this.tail;
    this.closing = true;
    await w.terminate().catch(() => undefined);
  }

  private async scan(q: Float32Array): Promise<Float32Array> {
    const m = this.matrix;
    const w = this.worker;
    if (!w || this.gone) return m.scores(q);
    w.ref(); // a scan under way keeps the process alive (Atomics.waitAsync does not)
    try {
      return await this.shared(w, q);
    } finally {
      w.unref();
    }
  }

  private async shared(w: Worker, q: Float32Array): Promise<Float32Array> {
    const m = this.matrix;
    const ctrl = this.ctrl;
    m.setQuery(q);
    Atomics.store(ctrl, DONE, 0);
    Atomics.store(ctrl, NEXT, 0); // the worker may claim from here; it sees the query written above
    w.postMessage(0);
    // The daemon's thread joins on its next turn: whatever was queued before (the BM25 leg) runs first.
    await new Promise<void>((r) => setImmediate(r));
    this.counts.scans++;
    this.counts.blocks += this.blocks;
    this.counts.here += claimBlocks(m, ctrl, this.per);
    const deadline = performance.now() + (this.opts.stallMs ?? 1_000);
    for (;;) {
      const done = Atomics.load(ctrl, DONE);
      if (done >= this.blocks) return m.out;
      if (this.gone) return m.scores(q); // the worker died with blocks claimed: redo it all here
      const left = deadline - performance.now();
      if (left <= 0) {
        this.fail(`scan worker gave no answer in ${this.opts.stallMs ?? 1_000} ms`);
        await w.terminate().catch(() => undefined); // it must not write while the scan is redone
        return m.scores(q);
      }
      const waited = waitAsync!(ctrl, DONE, done, Math.min(left, 100));
      if (waited.async) await Promise.race([waited.value, this.goneSignal]);
    }
  }

  private fail(why: string): void {
    if (this.gone) return;
    this.gone = true;
    this.wake();
    if (this.closing) return;
    this.opts.log(`${this.opts.name}: ${why}; scanning on the main thread from now on`);
    void this.worker?.terminate().catch(() => undefined);
  }
}
