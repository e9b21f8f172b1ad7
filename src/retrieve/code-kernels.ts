/**
 * WebAssembly SIMD kernels of the code copy (./code-index.ts), assembled here from their opcodes
 * as dot-scores.ts assembles its own:
 * - `hamming(q, m, n, d, out)`: for each of `n` rows of `d` bytes from `m`, the number of bits
 *   that differ from the query's `d` bytes at `q` (xor, i8x16.popcnt), stored as u16 at `out`;
 * - `dots(q, m, rows, count, d, out)`: for each of `count` row numbers (i32 at `rows`), the dot
 *   product of the int8 row (`d` bytes at `m + row × d`) with the query as int16 (at `q`), as
 *   i32 at `out` (i32x4.dot_i16x8_s).
 * Row lengths must be a multiple of 16 bytes (sign codes: dims a multiple of 128) and of 8 (int8
 * rows); `codeKernels()` is null where WebAssembly SIMD is missing, and the JS loops of
 * ./sign-codes.ts answer instead.
 */
const I32 = 0x7f;
const V128 = 0x7b;
const simd = (code: number, ...rest: number[]) => (code < 0x80 ? [0xfd, code, ...rest] : [0xfd, (code & 0x7f) | 0x80, code >> 7, ...rest]);
const op = {
  block: [0x02, 0x40], loop: [0x03, 0x40], end: [0x0b], brIf: 0x0d,
  get: 0x20, set: 0x21, tee: 0x22, i32const: 0x41,
  i32eqz: [0x45], i32ltu: [0x49], i32add: [0x6a], i32mul: [0x6c], i32shl: [0x74],
  i32load: [0x28, 0x02, 0x00], i32store: [0x36, 0x02, 0x00], i32store16: [0x3b, 0x01, 0x00],
  v128load: simd(0x00, 0x00, 0x00),
  v128load8x8s: simd(0x01, 0x00, 0x00),
  v128zero: [0xfd, 0x0c, ...new Array<number>(16).fill(0)],
  xor: simd(0x51), popcnt: simd(0x62), i8add: simd(0x6e),
  extaddU8: simd(0x7d), extaddU16: simd(0x7f),
  i32x4add: simd(0xae), dotI16: simd(0xba),
  lane: (i: number) => simd(0x1b, i),
};
const get = (l: number) => [op.get, l];
const set = (l: number) => [op.set, l];
const tee = (l: number) => [op.tee, l];
const i32 = (v: number) => [op.i32const, v]; // small non-negative constants only (< 64)
/** The four i32 lanes of local `acc` added, on the stack. */
const lanes = (acc: number) => [...get(acc), ...op.lane(0), ...get(acc), ...op.lane(1), ...op.i32add, ...get(acc), ...op.lane(2), ...op.i32add, ...get(acc), ...op.lane(3), ...op.i32add];

// hamming: params 0 q, 1 m, 2 n, 3 d, 4 out; locals 5 i, 6 j, 7 row, 8 acc
const HAMMING = [
  2, 3, I32, 1, V128,
  ...get(1), ...set(7),
  ...op.block, ...get(2), ...op.i32eqz, op.brIf, 0,
  ...op.loop,
  ...op.v128zero, ...set(8), ...i32(0), ...set(6),
  ...op.loop,
  ...get(8), ...get(0), ...get(6), ...op.i32add, ...op.v128load, ...get(7), ...get(6), ...op.i32add, ...op.v128load,
  ...op.xor, ...op.popcnt, ...op.i8add, ...set(8),
  ...get(6), ...i32(16), ...op.i32add, ...tee(6), ...get(3), ...op.i32ltu, op.brIf, 0,
  ...op.end,
  ...get(8), ...op.extaddU8, ...op.extaddU16, ...set(8),
  ...get(4), ...get(5), ...i32(1), ...op.i32shl, ...op.i32add, ...lanes(8), ...op.i32store16,
  ...get(7), ...get(3), ...op.i32add, ...set(7),
  ...get(5), ...i32(1), ...op.i32add, ...tee(5), ...get(2), ...op.i32ltu, op.brIf, 0,
  ...op.end, ...op.end, ...op.end,
];

// dots: params 0 q, 1 m, 2 rows, 3 count, 4 d, 5 out; locals 6 k, 7 j, 8 row, 9 acc
const DOTS = [
  2, 3, I32, 1, V128,
  ...op.block, ...get(3), ...op.i32eqz, op.brIf, 0,
  ...op.loop,
  ...get(1), ...get(2), ...get(6), ...i32(2), ...op.i32shl, ...op.i32add, ...op.i32load, ...get(4), ...op.i32mul, ...op.i32add, ...set(8),
  ...op.v128zero, ...set(9), ...i32(0), ...set(7),
  ...op.loop,
  ...get(9), ...get(8), ...get(7), ...op.i32add, ...op.v128load8x8s, ...get(0), ...get(7), ...i32(1), ...op.i32shl, ...op.i32add, ...op.v128load,
  ...op.dotI16, ...op.i32x4add, ...set(9),
  ...get(7), ...i32(8), ...op.i32add, ...tee(7), ...get(4), ...op.i32ltu, op.brIf, 0,
  ...op.end,
  ...get(5), ...get(6), ...i32(2), ...op.i32shl, ...op.i32add, ...lanes(9), ...op.i32store,
  ...get(6), ...i32(1), ...op.i32add, ...tee(6), ...get(3), ...op.i32ltu, op.brIf, 0,
  ...op.end, ...op.end, ...op.end,
];

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}
const section = (id: number, content: number[]) => [id, ...uleb(content.length), ...content];
const name = (s: string) => [s.length, ...Buffer.from(s, "ascii")];
const body = (code: number[]) => [...uleb(code.length), ...code];

export const CODE_KERNEL_BYTES = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  ...section(1, [2, 0x60, 5, I32, I32, I32, I32, I32, 0, 0x60, 6, I32, I32, I32, I32, I32, I32, 0]),
  ...section(2, [1, ...name("env"), ...name("mem"), 0x02, 0x00, 0x01]), // import a memory, at least 1 page
  ...section(3, [2, 0, 1]),
  ...section(7, [2, ...name("hamming"), 0x00, 0, ...name("dots"), 0x00, 1]),
  ...section(10, [2, ...body(HAMMING), ...body(DOTS)]),
]);

export interface CodeKernels {
  hamming(q: number, m: number, n: number, d: number, out: number): void;
  dots(q: number, m: number, rows: number, count: number, d: number, out: number): void;
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
