import type { ScoreMatrix } from "./dot-scores.js";

/**
 * How the daemon's thread and its scan worker share one scan (scan-pool.ts): the matrix is cut
 * into blocks of rows, and each thread claims the next block from a shared counter until none is
 * left, so the faster thread does more and no block is scored twice. Two control words, in a
 * SharedArrayBuffer: the next block to claim, and how many blocks are scored.
 */
export const NEXT = 0;
export const DONE = 1;
export const CONTROL_BYTES = 8;

/** Rows per block: about 1.5 MB of matrix (0.1 to 0.2 ms of scan), at least 64 rows. */
export function blockRows(dims: number): number {
  return Math.max(64, Math.floor(1_572_864 / (Math.max(1, dims) * 4)));
}

export function blockCount(rows: number, per: number): number {
  return Math.ceil(rows / per);
}

/**
 * Claims blocks until none is left and scores them (with the query the matrix holds); returns how
 * many this thread scored. The counter is read and written atomically: the query written before
 * the scan's start (`Atomics.store` of NEXT) is seen by every claimer, and every score written
 * before a block is counted in DONE is seen by whoever reads DONE.
 */
export function claimBlocks(m: ScoreMatrix, ctrl: Int32Array, per: number): number {
  const blocks = blockCount(m.rows, per);
  let scored = 0;
  for (;;) {
    const b = Atomics.add(ctrl, NEXT, 1);
    if (b >= blocks) return scored;
    m.scoreRows(b * per, Math.min(m.rows, (b + 1) * per));
    scored++;
    if (Atomics.add(ctrl, DONE, 1) + 1 === blocks) Atomics.notify(ctrl, DONE);
  }
}
