import { Worker } from "node:worker_threads";
import type { ScoreMatrix } from "./dot-scores.js";
import { blockCount, blockRows, claimBlocks, controlWords, DONE, finishClaimed, quiet, resetControl } from "./scan-blocks.js";
import type { ScanWorkerData } from "./scan-worker.js";

export interface ScanPoolOptions {
  /** Where a failure is told (the daemon's log). */
  log: (line: string) => void;
  /** Names the matrix in log lines (the vector table). */
  name: string;
  /** The worker's script (default scan-worker.js beside this file; tests give one that fails). */
  workerUrl?: URL;
  /** How long a scan waits for the worker to finish its block of the last scan before it calls the worker stuck (default 1 s). */
  stallMs?: number;
}

/** `Atomics.waitAsync` (Node 16+), not in the ES2022 library the project compiles against. */
type WaitAsync = (a: Int32Array, i: number, v: number, timeout?: number) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync?: WaitAsync }).waitAsync;

/**
 * One matrix scanned by two threads: a worker thread holding the same shared memory (no copy),
 * and the daemon's thread. A scan posts the query to the worker, which starts at once; the
 * daemon's thread joins on its next turn (after the BM25 leg, which the search queued before), and
 * both claim blocks of rows until none is left (scan-blocks.ts). A block the worker claimed and has
 * not finished when the daemon's thread runs out of blocks (a worker descheduled on a busy
 * machine) is scored again by the daemon's thread: a scan never waits for the worker, and takes at
 * worst the inline scan's time and a block. The scores are the inline scan's, bit for bit: the
 * same kernel, the same query.
 *
 * A worker that fails to start, throws, exits or stalls (still on a block of the last scan after
 * `stallMs`) is dropped with a log line, and every scan after it is inline. The worker never keeps
 * the process alive (unref), and `close` ends it once the scan under way is done.
 */
export class ScanPool {
  /** Worker threads started and not yet exited, in this process (the daemon's status shows it). */
  static live = 0;
  /** The worker while scans may use it (undefined once closing). */
  private worker: Worker | undefined;
  /** The worker, from its start to its end. */
  private handle: Worker | undefined;
  /** Set when the worker is gone (failed, or closed); wakes a scan waiting for it. */
  private gone = false;
  private wake: () => void = () => undefined;
  private readonly goneSignal = new Promise<void>((r) => (this.wake = r));
  private readied: () => void = () => undefined;
  /** Resolves once the worker holds the matrix and waits for scans, or is dropped. */
  readonly ready = new Promise<void>((r) => (this.readied = r));
  private closing = false;
  private readonly ctrl: Int32Array;
  /** The worker's end, once it is dropped: nothing scans inline before it. */
  private stopped: Promise<unknown> = Promise.resolve();
  private readonly per: number;
  private readonly blocks: number;
  private tail: Promise<void> = Promise.resolve();
  /** Scans shared with the worker, their blocks, how many of those this thread scored, and of those how many the worker had claimed. */
  readonly counts = { scans: 0, blocks: 0, here: 0, takenOver: 0 };

  constructor(
    private readonly matrix: ScoreMatrix,
    private readonly opts: ScanPoolOptions,
  ) {
    this.per = blockRows(matrix.dims);
    this.blocks = blockCount(matrix.rows, this.per);
    this.ctrl = controlWords(this.blocks);
    Atomics.store(this.ctrl, DONE, this.blocks); // no scan under way
    if (!waitAsync) {
      opts.log(`${opts.name}: no Atomics.waitAsync in this runtime; scanning on the main thread`);
      this.readied();
      return;
    }
    try {
      const workerData: ScanWorkerData = { matrix: matrix.shared(), control: this.ctrl.buffer as SharedArrayBuffer, per: this.per };
      const w = new Worker(opts.workerUrl ?? new URL("./scan-worker.js", import.meta.url), { workerData });
      w.unref();
      ScanPool.live++;
      w.once("message", () => this.readied());
      w.on("error", (err: Error) => this.fail(`scan worker failed: ${err.message}`));
      w.on("messageerror", (err: Error) => this.fail(`scan worker could not read a message: ${err.message}`));
      w.on("exit", (code: number) => {
        ScanPool.live--;
        this.fail(`scan worker exited (code ${code})`);
      });
      this.worker = this.handle = w;
    } catch (err) {
      opts.log(`${opts.name}: could not start a scan worker (${(err as Error).message}); scanning on the main thread`);
      this.readied();
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
    const w = this.worker; // as of the call: a scan asked for before `close` still has it
    const before = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((r) => (release = r));
    try {
      await before;
      return read(await this.scan(w, q));
    } finally {
      release();
    }
  }

  /** Ends the worker once the scan under way (and those queued) are done; later scans are inline. */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (!w) return this.stopped.then(() => undefined);
    const last = this.tail; // not the scans queued after this call: they wait for the end
    this.stopped = last.then(() => {
      this.closing = true;
      return w.terminate().catch(() => undefined);
    });
    await this.stopped;
  }

  private async scan(w: Worker | undefined, q: Float32Array): Promise<Float32Array> {
    const m = this.matrix;
    if (!w || this.gone) {
      await this.stopped;
      return m.scores(q);
    }
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
    // A block of the last scan that this thread took over: the worker finishes it before the query changes.
    if (!quiet(ctrl, this.blocks) && !(await this.settle())) {
      await this.stopped;
      return m.scores(q);
    }
    m.setQuery(q);
    resetControl(ctrl); // the worker may claim from here; it sees the query written above
    w.postMessage(0);
    // The daemon's thread joins on its next turn: whatever was queued before (the BM25 leg) runs first.
    await new Promise<void>((r) => setImmediate(r));
    const claimed = claimBlocks(m, ctrl, this.per);
    const takenOver = finishClaimed(m, ctrl, this.per);
    this.counts.scans++;
    this.counts.blocks += this.blocks;
    this.counts.here += claimed + takenOver;
    this.counts.takenOver += takenOver;
    return m.out;
  }

  /** Waits (at most `stallMs`) for the worker to finish the last scan's blocks; false when it is dropped. */
  private async settle(): Promise<boolean> {
    const stallMs = this.opts.stallMs ?? 1_000;
    const deadline = performance.now() + stallMs;
    for (;;) {
      if (this.gone) return false;
      const done = Atomics.load(this.ctrl, DONE);
      if (done >= this.blocks) return true;
      const left = deadline - performance.now();
      if (left <= 0) {
        this.fail(`scan worker still on a block after ${stallMs} ms`);
        return false;
      }
      const waited = waitAsync!(this.ctrl, DONE, done, Math.min(left, 100));
      if (waited.async) await Promise.race([waited.value, this.goneSignal]);
    }
  }

  private fail(why: string): void {
    if (this.gone) return;
    this.gone = true;
    this.wake();
    this.readied();
    if (this.closing) return;
    this.opts.log(`${this.opts.name}: ${why}; scanning on the main thread from now on`);
    this.stopped = this.handle?.terminate().catch(() => undefined) ?? Promise.resolve();
  }
}
