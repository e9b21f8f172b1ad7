/**
 * Where the parts of a code copy (./code-rows.ts) sit in its WebAssembly memory:
 * [query code][query int16][sign codes][rescoring rows][distances u16][dot products i32][candidate rows i32][int8 rows read back],
 * the parts that keep data first (growing the memory moves only the rescoring rows). The rows read
 * back (FINAL_ROWS at a time) are there only when the int8 rows are kept in a file.
 */
import type { CodeKernels } from "./code-kernels.js";

export const MAX_WASM_BYTES = 2 ** 32 - 2 ** 16;
export const PAGE = 65_536;
/** Int8 rows read back from the file and scored in one call of the kernel. */
export const FINAL_ROWS = 1_024;

export interface Layout {
  q: number;
  q16: number;
  codes: number;
  cells: number;
  dist: number;
  dots: number;
  rows: number;
  final: number;
  bytes: number;
}

/** The kernels, their memory and its layout. */
export interface CodeMemory {
  k: CodeKernels;
  memory: WebAssembly.Memory;
  at: Layout;
}

/** Offsets for `capacity` rows of `dims`, sign codes of `words` words, rescoring rows of `cellBytes`; `readBack`: room for the rows read from the file. */
export function layout(capacity: number, dims: number, words: number, cellBytes: number, readBack: boolean): Layout {
  const up = (b: number) => Math.ceil(b / 16) * 16;
  const n = Math.max(readBack ? FINAL_ROWS : 1, capacity); // the rows read back use the candidate rows' and dot products' room
  const q16 = up(words * 4);
  const codes = q16 + up(dims * 2);
  const cells = codes + up(n * words * 4);
  const dist = cells + up(n * cellBytes);
  const dots = dist + up(n * 2);
  const rows = dots + up(n * 4);
  const final = rows + up(n * 4);
  return { q: 0, q16, codes, cells, dist, dots, rows, final, bytes: final + (readBack ? up(FINAL_ROWS * dims) : 0) };
}
