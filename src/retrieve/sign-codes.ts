/**
 * Compact codes of unit vectors, for a vector copy too large to hold as float32 (./code-index.ts):
 * each row as its sign bits (dims/8 bytes; Hamming distance between two rows' bits tracks the
 * angle between them) and as int8 with one scale per row (dims bytes; its dot product with a
 * float query is within about 1e-3 of the float32 one), and as 4-bit levels (dims/2 bytes; too
 * coarse to rank by, fine to choose the rows worth an int8 look). A search takes the rows nearest
 * by Hamming distance as candidates, then ranks those by their int8 dot product with the query
 * (./code-scores.ts). Pure functions over typed arrays; no state.
 */

/** 32-bit words of one row's sign code. */
export function codeWords(dims: number): number {
  return Math.ceil(dims / 32);
}

/** Writes `v`'s sign bits (bit j set when v[j] > 0) into `codes` from word `at`. */
export function signBits(v: ArrayLike<number>, dims: number, codes: Uint32Array, at: number): void {
  const words = codeWords(dims);
  for (let w = 0; w < words; w++) {
    let bits = 0;
    const base = w * 32;
    const stop = Math.min(32, dims - base);
    for (let b = 0; b < stop; b++) if (v[base + b]! > 0) bits |= 1 << b;
    codes[at + w] = bits >>> 0;
  }
}

/**
 * Writes `v` as int8 into `q8` from `at` (`v[j] ≈ q8[at + j] × scale`) and returns the scale:
 * the largest magnitude maps to ±127, so no value is clipped. A zero row has scale 0.
 */
export function quantise(v: ArrayLike<number>, dims: number, q8: Int8Array, at: number): number {
  let max = 0;
  for (let j = 0; j < dims; j++) max = Math.max(max, Math.abs(v[j]!));
  if (max === 0 || !Number.isFinite(max)) {
    q8.fill(0, at, at + dims);
    return 0;
  }
  const scale = max / 127;
  for (let j = 0; j < dims; j++) q8[at + j] = Math.round(v[j]! / scale);
  return scale;
}

/** Bytes of one row's 4-bit code: half a byte a dimension, in blocks of 32 dimensions (16 bytes). */
export function nibbleBytes(dims: number): number {
  return Math.ceil(dims / 32) * 16;
}

/**
 * Writes `v` as 4-bit levels into `q4` from byte `at` and returns the row's step: level n (0–15)
 * stands for `(n − 7.5) × step`, the step an eighth of the largest magnitude. Dimension j of block
 * b = j / 32 sits in byte b × 16 + j % 16, the low half for j % 32 < 16, the high half otherwise
 * (the kernel unpacks a block's 16 bytes into two runs of 16 dimensions). A zero row has step 0.
 */
export function quantise4(v: ArrayLike<number>, dims: number, q4: Uint8Array, at: number): number {
  let max = 0;
  for (let j = 0; j < dims; j++) {
    const x = v[j]!;
    if (x > max) max = x;
    else if (-x > max) max = -x;
  }
  const bytes = nibbleBytes(dims);
  if (max === 0 || !Number.isFinite(max)) {
    q4.fill(0, at, at + bytes);
    return 0;
  }
  const inv = 8 / max;
  // level = floor(v / step) + 8, as an integer 0–16 (v/step + 8 is never negative), 16 kept as 15
  for (let o = 0; o < bytes; o++) {
    const j = (o >> 4) * 32 + (o & 15);
    const lo = j < dims ? (v[j]! * inv + 8) | 0 : 0;
    const hi = j + 16 < dims ? (v[j + 16]! * inv + 8) | 0 : 0;
    q4[at + o] = (lo > 15 ? 15 : lo) | ((hi > 15 ? 15 : hi) << 4);
  }
  return max / 8;
}

/** `q · row` for the 4-bit row at byte `at` with its step (`quantise4`'s layout). */
export function nibbleDot(q: Float32Array, q4: Uint8Array, at: number, dims: number, step: number): number {
  let s = 0;
  for (let j = 0; j < dims; j++) {
    const b = q4[at + (j >> 5) * 16 + (j & 15)]!;
    s += q[j]! * (((j & 16) === 0 ? b & 15 : b >> 4) - 7.5);
  }
  return s * step;
}

/** Writes `v` as int16 into `q16` (`v[j] ≈ q16[j] × scale`) and returns the scale (0 for a zero vector). */
export function quantise16(v: ArrayLike<number>, dims: number, q16: Int16Array): number {
  let max = 0;
  for (let j = 0; j < dims; j++) max = Math.max(max, Math.abs(v[j]!));
  if (max === 0 || !Number.isFinite(max)) {
    q16.fill(0, 0, dims);
    return 0;
  }
  const scale = max / 32_767;
  for (let j = 0; j < dims; j++) q16[j] = Math.round(v[j]! / scale);
  return scale;
}

/** Set bits of a 32-bit word. */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Hamming distance of rows [from, to) of `codes` to `query` (one row's words), written into `out` at the row. */
export function hammingRows(codes: Uint32Array, words: number, query: Uint32Array, from: number, to: number, out: Uint16Array): void {
  for (let i = from; i < to; i++) {
    const o = i * words;
    let d = 0;
    for (let w = 0; w < words; w++) {
      let x = (codes[o + w]! ^ query[w]!) >>> 0;
      x -= (x >>> 1) & 0x55555555;
      x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
      d += (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
    }
    out[i] = d;
  }
}

/**
 * The rows nearest by distance, at least `want` of them when that many rows are allowed: every
 * allowed row whose distance is below the cut, and the rows at the cut in row order up to `want`.
 * Found by counting distances (they are small integers, at most `maxDist`), not by sorting: O(rows).
 * `allowed` undefined: every row.
 */
export function nearestRows(dist: Uint16Array, n: number, maxDist: number, want: number, allowed?: (row: number) => boolean): Int32Array {
  const count = new Uint32Array(maxDist + 1);
  let total = 0;
  if (allowed === undefined) {
    for (let i = 0; i < n; i++) count[dist[i]!]!++;
    total = n;
  } else {
    for (let i = 0; i < n; i++) {
      if (!allowed(i)) continue;
      count[dist[i]!]!++;
      total++;
    }
  }
  const take = Math.min(want, total);
  if (take <= 0) return new Int32Array(0);
  let cut = 0;
  let below = 0; // allowed rows with a distance under `cut`
  while (below + count[cut]! < take) below += count[cut++]!;
  let atCut = take - below; // rows at the cut still to take
  const out = new Int32Array(take);
  let k = 0;
  for (let i = 0; i < n && k < take; i++) {
    const d = dist[i]!;
    if (d > cut || (d === cut && atCut === 0) || (allowed !== undefined && !allowed(i))) continue;
    if (d === cut) atCut--;
    out[k++] = i;
  }
  return out;
}

/** `q · row` for the int8 row at `at` with its scale. */
export function int8Dot(q: Float32Array, q8: Int8Array, at: number, dims: number, scale: number): number {
  let s0 = 0;
  let s1 = 0;
  let j = 0;
  for (; j + 1 < dims; j += 2) {
    s0 += q[j]! * q8[at + j]!;
    s1 += q[j + 1]! * q8[at + j + 1]!;
  }
  if (j < dims) s0 += q[j]! * q8[at + j]!;
  return (s0 + s1) * scale;
}

/** The `k`-th largest of `values` (1-based; `values` is reordered): quickselect, O(n) on average. */
function kthLargest(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  const want = k - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! > pivot) i++;
      while (values[j]! < pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i++] = values[j]!;
        values[j--] = t;
      }
    }
    if (want <= j) hi = j;
    else if (want >= i) lo = i;
    else break;
  }
  return values[want]!;
}

/**
 * The `k` of `rows` with the largest `scores` (same order), in the order of `rows`; equal scores at
 * the cut taken in that order. By selection, not by keeping a ranked list: O(rows).
 */
export function bestRows(rows: Int32Array, scores: ArrayLike<number>, k: number): Int32Array {
  if (k >= rows.length) return rows.slice();
  if (k <= 0) return new Int32Array(0);
  const cut = kthLargest(Float64Array.from(scores), k);
  let above = 0;
  for (let i = 0; i < rows.length; i++) if (scores[i]! > cut) above++;
  let atCut = k - above;
  const out = new Int32Array(k);
  let n = 0;
  for (let i = 0; i < rows.length; i++) {
    const s = scores[i]!;
    if (s > cut || (s === cut && atCut-- > 0)) out[n++] = rows[i]!;
  }
  return n === k ? out : out.subarray(0, n); // fewer only when scores are not numbers (NaN)
}

/**
 * The best `limit` of `rows` by `scores` (the rescoring's, same order), best first; equal scores
 * in the order of `rows` (row order, from `nearestRows`). One pass, no sort.
 */
export function bestByScore(rows: Int32Array, scores: ArrayLike<number>, limit: number): { row: number; score: number }[] {
  if (limit <= 0) return [];
  const topS = new Float64Array(limit).fill(Number.NEGATIVE_INFINITY);
  const topK = new Int32Array(limit).fill(-1);
  for (let k = 0; k < rows.length; k++) {
    const s = scores[k]!;
    if (s <= topS[limit - 1]! && topK[limit - 1]! >= 0) continue;
    let at = limit - 1;
    while (at > 0 && (topS[at - 1]! < s || topK[at - 1]! < 0)) {
      topS[at] = topS[at - 1]!;
      topK[at] = topK[at - 1]!;
      at--;
    }
    topS[at] = s;
    topK[at] = k;
  }
  const out: { row: number; score: number }[] = [];
  for (let i = 0; i < limit && topK[i]! >= 0; i++) out.push({ row: rows[topK[i]!]!, score: topS[i]! });
  return out;
}
