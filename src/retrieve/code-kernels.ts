/**
 * WebAssembly SIMD kernels of the code copy (./code-index.ts), assembled here from their opcodes
 * as dot-scores.ts assembles its own (the opcodes both use: ./wasm-ops.ts):
 * - `hamming(q, m, n, d, out)`: for each of `n` rows of `d` bytes from `m`, the number of bits
 *   that differ from the query's `d` bytes at `q` (xor, i8x16.popcnt), stored as u16 at `out`;
 * - `dots(q, m, rows, count, d, out)`: for each of `count` row numbers (i32 at `rows`), the dot
 *   product of the int8 row (`d` bytes at `m + row × d`) with the query as int16 (at `q`), as
 *   i32 at `out` (i32x4.dot_i16x8_s);
 * - `dots4(q, m, rows, count, d, out)`: the same over 4-bit rows (`d` bytes each, the layout of
 *   sign-codes.ts `quantise4`): each block of 16 bytes unpacked into its low and high halves, 32
 *   levels 0–15, dotted with the query's 32 int16 of that block. The caller takes off 7.5 × the
 *   query's sum (the levels' offset).
 * Row lengths must be a multiple of 16 bytes (sign codes: dims a multiple of 128) and of 8 (int8
 * rows); `codeKernels()` is null where WebAssembly SIMD is missing, and the JS loops of
 * ./sign-codes.ts answer instead.
 */
import { body, get, HEADER, i32, I32, name, op, section, set, simd, tee, V128 } from "./wasm-ops.js";

const ops = {
  ...op,
  i32load: [0x28, 0x02, 0x00], i32store: [0x36, 0x02, 0x00], i32store16: [0x3b, 0x01, 0x00],
  v128load8x8s: simd(0x01, 0x00, 0x00),
  xor: simd(0x51), popcnt: simd(0x62), i8add: simd(0x6e),
  extaddU8: simd(0x7d), extaddU16: simd(0x7f),
  i32x4add: simd(0xae), dotI16: simd(0xba),
  and: simd(0x4e), i8splat: simd(0x0f), i8shrU: simd(0x6d), extLowU: simd(0x89), extHighU: simd(0x8a),
  lane: (i: number) => simd(0x1b, i),
};
/** The four i32 lanes of local `acc` added, on the stack. */
const lanes = (acc: number) => [...get(acc), ...ops.lane(0), ...get(acc), ...ops.lane(1), ...ops.i32add, ...get(acc), ...ops.lane(2), ...ops.i32add, ...get(acc), ...ops.lane(3), ...ops.i32add];

// hamming: params 0 q, 1 m, 2 n, 3 d, 4 out; locals 5 i, 6 j, 7 row, 8 acc
const HAMMING = [
  2, 3, I32, 1, V128,
  ...get(1), ...set(7),
  ...ops.block, ...get(2), ...ops.i32eqz, ops.brIf, 0,
  ...ops.loop,
  ...ops.v128zero, ...set(8), ...i32(0), ...set(6),
  ...ops.loop,
  ...get(8), ...get(0), ...get(6), ...ops.i32add, ...ops.v128load(), ...get(7), ...get(6), ...ops.i32add, ...ops.v128load(),
  ...ops.xor, ...ops.popcnt, ...ops.i8add, ...set(8),
  ...get(6), ...i32(16), ...ops.i32add, ...tee(6), ...get(3), ...ops.i32ltu, ops.brIf, 0,
  ...ops.end,
  ...get(8), ...ops.extaddU8, ...ops.extaddU16, ...set(8),
  ...get(4), ...get(5), ...i32(1), ...ops.i32shl, ...ops.i32add, ...lanes(8), ...ops.i32store16,
  ...get(7), ...get(3), ...ops.i32add, ...set(7),
  ...get(5), ...i32(1), ...ops.i32add, ...tee(5), ...get(2), ...ops.i32ltu, ops.brIf, 0,
  ...ops.end, ...ops.end, ...ops.end,
];

// dots: params 0 q, 1 m, 2 rows, 3 count, 4 d, 5 out; locals 6 k, 7 j, 8 row, 9 acc
const DOTS = [
  2, 3, I32, 1, V128,
  ...ops.block, ...get(3), ...ops.i32eqz, ops.brIf, 0,
  ...ops.loop,
  ...get(1), ...get(2), ...get(6), ...i32(2), ...ops.i32shl, ...ops.i32add, ...ops.i32load, ...get(4), ...ops.i32mul, ...ops.i32add, ...set(8),
  ...ops.v128zero, ...set(9), ...i32(0), ...set(7),
  ...ops.loop,
  ...get(9), ...get(8), ...get(7), ...ops.i32add, ...ops.v128load8x8s, ...get(0), ...get(7), ...i32(1), ...ops.i32shl, ...ops.i32add, ...ops.v128load(),
  ...ops.dotI16, ...ops.i32x4add, ...set(9),
  ...get(7), ...i32(8), ...ops.i32add, ...tee(7), ...get(4), ...ops.i32ltu, ops.brIf, 0,
  ...ops.end,
  ...get(5), ...get(6), ...i32(2), ...ops.i32shl, ...ops.i32add, ...lanes(9), ...ops.i32store,
  ...get(6), ...i32(1), ...ops.i32add, ...tee(6), ...get(3), ...ops.i32ltu, ops.brIf, 0,
  ...ops.end, ...ops.end, ...ops.end,
];

// dots4: params 0 q, 1 m, 2 rows, 3 count, 4 d (a row's bytes), 5 out; locals 6 k, 7 j, 8 row, 9 acc, 10 x then its high halves, 11 its low halves
/** Adds to local 9 the dot product of local `halves`' 16 levels (as i16, two runs of 8) with the query's 16 int16 from `offset`. */
const halfDots = (halves: number, offset: number) => [
  ...get(9),
  ...get(halves), ...ops.extLowU, ...get(0), ...get(7), ...i32(2), ...ops.i32shl, ...ops.i32add, ...ops.v128load(offset), ...ops.dotI16, ...ops.i32x4add,
  ...get(halves), ...ops.extHighU, ...get(0), ...get(7), ...i32(2), ...ops.i32shl, ...ops.i32add, ...ops.v128load(offset + 16), ...ops.dotI16, ...ops.i32x4add,
  ...set(9),
];
const DOTS4 = [
  2, 3, I32, 3, V128,
  ...ops.block, ...get(3), ...ops.i32eqz, ops.brIf, 0,
  ...ops.loop,
  ...get(1), ...get(2), ...get(6), ...i32(2), ...ops.i32shl, ...ops.i32add, ...ops.i32load, ...get(4), ...ops.i32mul, ...ops.i32add, ...set(8),
  ...ops.v128zero, ...set(9), ...i32(0), ...set(7),
  ...ops.loop,
  ...get(8), ...get(7), ...ops.i32add, ...ops.v128load(), ...tee(10), ...i32(15), ...ops.i8splat, ...ops.and, ...set(11),
  ...get(10), ...i32(4), ...ops.i8shrU, ...set(10),
  ...halfDots(11, 0), ...halfDots(10, 32),
  ...get(7), ...i32(16), ...ops.i32add, ...tee(7), ...get(4), ...ops.i32ltu, ops.brIf, 0,
  ...ops.end,
  ...get(5), ...get(6), ...i32(2), ...ops.i32shl, ...ops.i32add, ...lanes(9), ...ops.i32store,
  ...get(6), ...i32(1), ...ops.i32add, ...tee(6), ...get(3), ...ops.i32ltu, ops.brIf, 0,
  ...ops.end, ...ops.end, ...ops.end,
];

export const CODE_KERNEL_BYTES = new Uint8Array([
  ...HEADER,
  ...section(1, [2, 0x60, 5, I32, I32, I32, I32, I32, 0, 0x60, 6, I32, I32, I32, I32, I32, I32, 0]),
  ...section(2, [1, ...name("env"), ...name("mem"), 0x02, 0x00, 0x01]), // import a memory, at least 1 page
  ...section(3, [3, 0, 1, 1]),
  ...section(7, [3, ...name("hamming"), 0x00, 0, ...name("dots"), 0x00, 1, ...name("dots4"), 0x00, 2]),
  ...section(10, [3, ...body(HAMMING), ...body(DOTS), ...body(DOTS4)]),
]);

export interface CodeKernels {
  hamming(q: number, m: number, n: number, d: number, out: number): void;
  dots(q: number, m: number, rows: number, count: number, d: number, out: number): void;
  dots4(q: number, m: number, rows: number, count: number, d: number, out: number): void;
}

let module: WebAssembly.Module | null | undefined;

/** The kernels over `memory`, or null where WebAssembly SIMD is missing. */
export function codeKernels(memory: WebAssembly.Memory): CodeKernels | null {
  if (module === undefined) {
    try {
      module = WebAssembly.validate(CODE_KERNEL_BYTES) ? new WebAssembly.Module(CODE_KERNEL_BYTES) : null;
    } catch {
      module = null;
    }
  }
  if (!module) return null;
  return new WebAssembly.Instance(module, { env: { mem: memory } }).exports as unknown as CodeKernels;
}
