import type { ScoreMatrix } from "./dot-scores.js";

/**
 * How the daemon's thread and its scan worker share one scan (scan-pool.ts): the matrix is cut
 * into blocks of rows, and each thread claims the next block from a shared counter until none is
 * left, so the faster thread does more. The control words, an Int32Array over a
 * SharedArrayBuffer: the next block to claim, how many blocks are scored, then one flag a block
 * (1 once scored).
 */
export const NEXT = 0;
export const DONE = 1;
const FLAGS = 2;

export function controlWords(blocks: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer((FLAGS + blocks) * 4));
}

/** Rows per block: about 1.5 MB of matrix (0.1 to 0.2 ms of scan), at least 64 rows. */
export function blockRows(dims: number): number {
  return Math.max(64, Math.floor(1_572_864 / (Math.max(1, dims) * 4)));
}

export function blockCount(rows: number, per: number): number {
  return Math.ceil(rows / per);
}

function score(m: ScoreMatrix, b: number, per: number): void {
  m.scoreRows(b * per, Math.min(m.rows, (b + 1) * per));
}

/**
 * Claims blocks until none is left and scores them (with the query the matrix holds); returns how
 * many this thread scored. The counter is read and written atomically: the query written before
 * the scan's start (`Atomics.store` of NEXT) is seen by every claimer, and every score written
 * before a block is flagged and counted is seen by whoever reads the flag or DONE.
 */
export function claimBlocks(m: ScoreMatrix, ctrl: Int32Array, per: number): number {
  const blocks = blockCount(m.rows, per);
  let scored = 0;
  for (;;) {
    const b = Atomics.add(ctrl, NEXT, 1);
    if (b >= blocks) return scored;
    score(m, b, per);
    scored++;
    Atomics.store(ctrl, FLAGS + b, 1);
    if (Atomics.add(ctrl, DONE, 1) + 1 === blocks) Atomics.notify(ctrl, DONE);
  }
}

/**
 * Once every block is claimed: scores again, here, the blocks another thread claimed and has not
 * finished (its thread may be descheduled), so the scan never waits for it; returns how many. That
 * thread writes the same scores (the same query, the same kernel) when it resumes: the query must
 * not change until DONE says it finished (`quiet`).
 */
export function finishClaimed(m: ScoreMatrix, ctrl: Int32Array, per: number): number {
  const blocks = blockCount(m.rows, per);
  let scored = 0;
  for (let b = 0; b < blocks; b++) {
    if (Atomics.load(ctrl, FLAGS + b) === 1) continue;
    score(m, b, per);
    scored++;
  }
  return scored;
}

/** Readies the control words for a scan: no block claimed, none scored. Only when `quiet`. */
export function resetControl(ctrl: Int32Array): void {
  Atomics.store(ctrl, DONE, 0);
  ctrl.fill(0, FLAGS);
  Atomics.store(ctrl, NEXT, 0); // claims may start from here
}

/** Every block of the last scan scored by the thread that claimed it: no thread is still scoring. */
export function quiet(ctrl: Int32Array, blocks: number): boolean {
  return Atomics.load(ctrl, DONE) >= blocks;
}
