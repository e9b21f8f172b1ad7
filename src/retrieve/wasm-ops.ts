/**
 * The WebAssembly opcodes and module sections that the vector kernels (dot-scores.ts,
 * code-kernels.ts) are assembled from: each file writes its function bodies with these, and the
 * opcodes only one kernel uses beside them.
 */
export const I32 = 0x7f;
export const V128 = 0x7b;

/** A SIMD instruction: the 0xfd prefix, its code as unsigned LEB128, then its immediates. */
export const simd = (code: number, ...rest: number[]) => (code < 0x80 ? [0xfd, code, ...rest] : [0xfd, (code & 0x7f) | 0x80, code >> 7, ...rest]);

export const op = {
  block: [0x02, 0x40], loop: [0x03, 0x40], end: [0x0b], brIf: 0x0d,
  get: 0x20, set: 0x21, tee: 0x22, i32const: 0x41,
  i32eqz: [0x45], i32ltu: [0x49], i32add: [0x6a], i32mul: [0x6c], i32shl: [0x74],
  /** v128.load at the address on the stack plus `offset` (alignment hint 1). */
  v128load: (offset = 0) => simd(0x00, 0x00, offset),
  v128zero: [0xfd, 0x0c, ...new Array<number>(16).fill(0)],
};

export const get = (l: number) => [op.get, l];
export const set = (l: number) => [op.set, l];
export const tee = (l: number) => [op.tee, l];
/** i32.const, for small non-negative constants only (< 64: one signed LEB128 byte). */
export const i32 = (v: number) => [op.i32const, v];

export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

export const section = (id: number, content: number[]) => [id, ...uleb(content.length), ...content];
export const name = (s: string) => [s.length, ...Buffer.from(s, "ascii")];
/** A function body: its length, then its code (locals first). */
export const body = (code: number[]) => [...uleb(code.length), ...code];
/** The module header: magic and version 1. */
export const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
