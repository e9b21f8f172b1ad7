/**
 * A code copy's search arithmetic over its rows (./code-rows.ts): the Hamming distance of every
 * row's sign code to the query's, and the rescoring of the candidates. With the int8 rows in
 * memory every candidate is scored by its int8 row. With them in a file, the candidates are
 * scored by their 4-bit rows first, and only the best `readBack` are read back from the file and
 * ranked by their int8 rows: the scores returned are always the int8 ones.
 */
import { bestByScore, bestRows, hammingRows, int8Dot, nibbleDot, quantise16, signBits } from "./sign-codes.js";
import type { CodeRows } from "./code-rows.js";
import { FINAL_ROWS } from "./code-layout.js";

/** Hamming distance of every row's sign code to `q`'s. */
export function distances(rows: CodeRows, q: Float32Array): Uint16Array {
  const { words, dims, filled, wasm } = rows;
  if (!wasm) {
    const query = new Uint32Array(words);
    signBits(q, dims, query, 0);
    const dist = new Uint16Array(filled);
    hammingRows(rows.codes, words, query, 0, filled, dist);
    return dist;
  }
  const { memory, at, k } = wasm;
  signBits(q, dims, new Uint32Array(memory.buffer, at.q, words), 0);
  k.hamming(at.q, at.codes, filled, words * 4, at.dist);
  return new Uint16Array(memory.buffer, at.dist, filled);
}

/** `q` as int16 in the kernels' memory: its scale and the sum of its int16 values. */
function query16(rows: CodeRows, q: Float32Array): { scale: number; sum: number } {
  const { memory, at } = rows.wasm!;
  const q16 = new Int16Array(memory.buffer, at.q16, rows.dims);
  const scale = quantise16(q, rows.dims, q16);
  let sum = 0;
  for (let j = 0; j < rows.dims; j++) sum += q16[j]!;
  return { scale, sum };
}

/** `q · row` for each of `which` by the 4-bit rows. */
function nibbleScores(rows: CodeRows, q: Float32Array, which: Int32Array): Float64Array {
  const { dims, cellBytes, wasm, steps } = rows;
  const out = new Float64Array(which.length);
  if (!wasm) {
    for (let k = 0; k < which.length; k++) out[k] = nibbleDot(q, rows.cells, which[k]! * cellBytes, dims, steps[which[k]!]!);
    return out;
  }
  const { memory, at, k } = wasm;
  const { scale, sum } = query16(rows, q);
  new Int32Array(memory.buffer, at.rows, which.length).set(which);
  k.dots4(at.q16, at.cells, at.rows, which.length, cellBytes, at.dots);
  const dots = new Int32Array(memory.buffer, at.dots, which.length);
  for (let j = 0; j < which.length; j++) out[j] = (dots[j]! - 7.5 * sum) * scale * steps[which[j]!]!;
  return out;
}

/** `q · row` for each of `which` by the int8 rows (the query as int16 in the kernel), read from memory or from the file. */
export function int8Scores(rows: CodeRows, q: Float32Array, which: Int32Array): Float64Array {
  const { dims, wasm, scales, file } = rows;
  const out = new Float64Array(which.length);
  if (!wasm) {
    if (!file) {
      const q8 = rows.q8;
      for (let k = 0; k < which.length; k++) out[k] = int8Dot(q, q8, which[k]! * dims, dims, scales[which[k]!]!);
      return out;
    }
    const buf = new Int8Array(Math.min(which.length, FINAL_ROWS) * dims);
    for (let s = 0; s < which.length; s += FINAL_ROWS) {
      const n = Math.min(FINAL_ROWS, which.length - s);
      for (let k = 0; k < n; k++) file.read(which[s + k]!, buf, k * dims);
      for (let k = 0; k < n; k++) out[s + k] = int8Dot(q, buf, k * dims, dims, scales[which[s + k]!]!);
    }
    return out;
  }
  const { memory, at, k } = wasm;
  const { scale } = query16(rows, q);
  if (!file) {
    new Int32Array(memory.buffer, at.rows, which.length).set(which);
    k.dots(at.q16, at.cells, at.rows, which.length, dims, at.dots);
    const dots = new Int32Array(memory.buffer, at.dots, which.length);
    for (let j = 0; j < which.length; j++) out[j] = dots[j]! * scale * scales[which[j]!]!;
    return out;
  }
  const bytes = new Uint8Array(memory.buffer);
  const order = new Int32Array(memory.buffer, at.rows, FINAL_ROWS);
  for (let j = 0; j < FINAL_ROWS; j++) order[j] = j;
  for (let s = 0; s < which.length; s += FINAL_ROWS) {
    const n = Math.min(FINAL_ROWS, which.length - s);
    for (let j = 0; j < n; j++) file.read(which[s + j]!, bytes, at.final + j * dims);
    k.dots(at.q16, at.final, at.rows, n, dims, at.dots);
    const dots = new Int32Array(memory.buffer, at.dots, n);
    for (let j = 0; j < n; j++) out[s + j] = dots[j]! * scale * scales[which[s + j]!]!;
  }
  return out;
}

/**
 * The best `limit` of the candidate rows `near` (in row order) by their int8 score, best first.
 * With the int8 rows in a file: the best `readBack` by the 4-bit rows are read back (in row
 * order) and ranked by their int8 rows.
 */
export function rescore(rows: CodeRows, q: Float32Array, near: Int32Array, limit: number, readBack: number): { row: number; score: number }[] {
  let which = near;
  if (rows.file && near.length > readBack) which = bestRows(near, nibbleScores(rows, q, near), readBack);
  return bestByScore(which, int8Scores(rows, q, which), limit);
}
