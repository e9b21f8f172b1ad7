import assert from "node:assert/strict";
import { test } from "node:test";
import { CODE_KERNEL_BYTES, codeKernels } from "../../src/retrieve/code-kernels.js";
import { candidateCount, readBackCount } from "../../src/retrieve/code-index.js";
import { bestByScore, bestRows, codeWords, hammingRows, int8Dot, nearestRows, nibbleBytes, nibbleDot, popcount, quantise, quantise16, quantise4, signBits } from "../../src/retrieve/sign-codes.js";
import { prng } from "../../scripts/prng.js";

test("popcount counts the set bits of a 32-bit word", () => {
  const cases: [number, number][] = [[0, 0], [1, 1], [0xff, 8], [0x80000000, 1], [0xffffffff, 32], [0x55555555, 16], [0x12345678, 13], [-1, 32]];
  for (const [x, want] of cases) assert.equal(popcount(x), want, `0x${(x >>> 0).toString(16)}`);
});

test("a sign code sets bit j when component j is above zero, in words of 32", () => {
  const cases: [number[], number[]][] = [
    [[0.5, -0.5, 0, 2], [0b1001]],
    [[-1, -1, -1], [0]],
    [Array.from({ length: 33 }, (_, j) => (j === 31 || j === 32 ? 1 : -1)), [0x80000000, 1]],
  ];
  for (const [v, want] of cases) {
    const out = new Uint32Array(codeWords(v.length));
    signBits(v, v.length, out, 0);
    assert.deepEqual(Array.from(out), want, JSON.stringify(v));
  }
});

test("int8 and int16 rows keep every component to within half a step, and a zero row scales to 0", () => {
  const cases: number[][] = [[0.5, -0.25, 0.1, 0], [1, -1, 0.003], [0, 0, 0], [-0.9, 0.0001]];
  for (const v of cases) {
    const q8 = new Int8Array(v.length);
    const s8 = quantise(v, v.length, q8, 0);
    const q16 = new Int16Array(v.length);
    const s16 = quantise16(v, v.length, q16);
    v.forEach((x, j) => {
      assert.ok(Math.abs(q8[j]! * s8 - x) <= s8 / 2 + 1e-12, `int8 ${JSON.stringify(v)} #${j}`);
      assert.ok(Math.abs(q16[j]! * s16 - x) <= s16 / 2 + 1e-12, `int16 ${JSON.stringify(v)} #${j}`);
    });
    if (v.every((x) => x === 0)) assert.equal(s8, 0);
    else assert.equal(Math.max(...Array.from(q8, Math.abs)), 127, "the largest component maps to ±127");
  }
});

test("nearestRows takes every allowed row under the cut and rows at the cut in row order, at least `want`", () => {
  const dist = Uint16Array.from([5, 1, 3, 1, 0, 3, 7, 3]);
  const all = () => true;
  const even = (i: number) => i % 2 === 0;
  const cases: [number, (i: number) => boolean, number[]][] = [
    [1, all, [4]],
    [3, all, [1, 3, 4]],
    [4, all, [1, 2, 3, 4]], // the cut is 3: row 2 first of the rows at 3
    [5, all, [1, 2, 3, 4, 5]],
    [20, all, [0, 1, 2, 3, 4, 5, 6, 7]],
    [2, even, [2, 4]],
    [3, even, [0, 2, 4]],
    [0, all, []],
    [3, () => false, []],
  ];
  for (const [want, ok, rows] of cases) {
    assert.deepEqual(Array.from(nearestRows(dist, dist.length, 8, want, ok)), rows, `want ${want}`);
    if (ok === all) assert.deepEqual(Array.from(nearestRows(dist, dist.length, 8, want)), rows, `want ${want}, every row (no filter)`);
  }
});

test("bestByScore ranks best first, equal scores in row order, and cuts at the limit", () => {
  const rows = Int32Array.from([1, 3, 7, 9]);
  const scores = [0.5, 0.5, 0.9, -1];
  const cases: [number, { row: number; score: number }[]][] = [
    [3, [{ row: 7, score: 0.9 }, { row: 1, score: 0.5 }, { row: 3, score: 0.5 }]],
    [1, [{ row: 7, score: 0.9 }]],
    [9, [{ row: 7, score: 0.9 }, { row: 1, score: 0.5 }, { row: 3, score: 0.5 }, { row: 9, score: -1 }]],
    [0, []],
  ];
  for (const [limit, want] of cases) assert.deepEqual(bestByScore(rows, scores, limit), want, `limit ${limit}`);
  // against a sort, on random scores with ties
  const rand = prng(8);
  const many = Int32Array.from({ length: 500 }, (_, i) => i * 3);
  const s = Array.from({ length: 500 }, () => Math.round(rand() * 40) / 40);
  const sorted = Array.from(many, (row, k) => ({ row, score: s[k]! })).sort((a, b) => b.score - a.score || a.row - b.row);
  assert.deepEqual(bestByScore(many, s, 50), sorted.slice(0, 50));
});

test("bestRows keeps the k best scores in row order, ties at the cut in row order, as a full sort would", () => {
  const rand = prng(17);
  const cases: [string, number[], number][] = [
    ["random", Array.from({ length: 5_000 }, () => rand()), 400],
    ["few levels (ties)", Array.from({ length: 3_000 }, () => Math.floor(rand() * 7)), 250],
    ["all equal", new Array(100).fill(0.5), 10],
    ["k over the rows", [3, 1, 2], 5],
    ["k zero", [3, 1, 2], 0],
  ];
  for (const [name, scores, k] of cases) {
    const rows = Int32Array.from(scores, (_, i) => i * 3 + 1);
    const order = scores.map((s, i) => ({ s, i })).sort((a, b) => b.s - a.s || a.i - b.i);
    const want = order.slice(0, Math.min(k, scores.length)).map((x) => rows[x.i]!).sort((a, b) => a - b);
    assert.deepEqual(Array.from(bestRows(rows, scores, k)), want, name);
  }
});

test("the WebAssembly kernels count the same bits and the same int8 dot products as the JS loops", () => {
  assert.ok(WebAssembly.validate(CODE_KERNEL_BYTES));
  const rand = prng(3);
  for (const [n, dims] of [[1, 128], [37, 384], [500, 768], [64, 512]] as const) {
    const words = codeWords(dims);
    const bytes = 4096 + n * (words * 4 + dims + 8) + dims * 2;
    const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / 65_536) });
    const k = codeKernels(memory)!;
    assert.ok(k, "WebAssembly SIMD is there in Node 20");
    // layout: [q code 1024][q16 2048 + dims*2][dist n*2][dots n*4][rows n*4][codes][q8]
    const at = { q: 0, q16: 1024, dist: 0, dots: 0, rows: 0, codes: 0, q8: 0 };
    at.dist = at.q16 + dims * 2;
    at.dots = Math.ceil((at.dist + n * 2) / 16) * 16;
    at.rows = at.dots + n * 4;
    at.codes = Math.ceil((at.rows + n * 4) / 16) * 16;
    at.q8 = at.codes + n * words * 4;
    const codes = new Uint32Array(memory.buffer, at.codes, n * words);
    const q8 = new Int8Array(memory.buffer, at.q8, n * dims);
    const scales: number[] = [];
    for (let i = 0; i < n; i++) {
      const v = Float32Array.from({ length: dims }, () => rand() * 2 - 1);
      signBits(v, dims, codes, i * words);
      scales.push(quantise(v, dims, q8, i * dims));
    }
    const q = Float32Array.from({ length: dims }, () => rand() * 2 - 1);
    signBits(q, dims, new Uint32Array(memory.buffer, at.q, words), 0);
    const js = new Uint16Array(n);
    hammingRows(codes, words, new Uint32Array(memory.buffer, at.q, words), 0, n, js);
    k.hamming(at.q, at.codes, n, words * 4, at.dist);
    assert.deepEqual(Array.from(new Uint16Array(memory.buffer, at.dist, n)), Array.from(js), `hamming ${n}×${dims}`);
    const pick = Array.from({ length: Math.min(n, 20) }, (_, i) => (i * 7) % n);
    new Int32Array(memory.buffer, at.rows, pick.length).set(pick);
    const qScale = quantise16(q, dims, new Int16Array(memory.buffer, at.q16, dims));
    k.dots(at.q16, at.q8, at.rows, pick.length, dims, at.dots);
    const dots = new Int32Array(memory.buffer, at.dots, pick.length);
    pick.forEach((row, i) => {
      const want = int8Dot(q, q8, row * dims, dims, scales[row]!);
      const got = dots[i]! * qScale * scales[row]!;
      assert.ok(Math.abs(got - want) < 1e-3, `dots ${n}×${dims} row ${row}: ${got} vs ${want}`);
    });
  }
});

test("4-bit rows keep every component within half a step (the largest within one), and their dot product is the dequantised row's", () => {
  const rand = prng(11);
  for (const dims of [768, 48, 100]) {
    const bytes = nibbleBytes(dims);
    assert.equal(bytes, Math.ceil(dims / 32) * 16);
    const q4 = new Uint8Array(bytes * 2 + 5).fill(0xaa);
    const v = Float32Array.from({ length: dims }, () => rand() * 2 - 1);
    const step = quantise4(v, dims, q4, 5 + bytes);
    assert.ok(step > 0);
    const back = (j: number) => {
      const b = q4[5 + bytes + (j >> 5) * 16 + (j & 15)]!;
      return (((j & 16) === 0 ? b & 15 : b >> 4) - 7.5) * step;
    };
    const max = Math.max(...Array.from(v, Math.abs));
    for (let j = 0; j < dims; j++) assert.ok(Math.abs(back(j) - v[j]!) <= (Math.abs(v[j]!) === max ? step : step / 2) + 1e-6, `${dims}: component ${j}`);
    assert.deepEqual(Array.from(q4.subarray(0, 5 + bytes)), new Array(5 + bytes).fill(0xaa), "nothing written before the row");
    const q = Float32Array.from({ length: dims }, () => rand() * 2 - 1);
    let want = 0;
    for (let j = 0; j < dims; j++) want += q[j]! * back(j);
    assert.ok(Math.abs(nibbleDot(q, q4, 5 + bytes, dims, step) - want) < 1e-4, `${dims}: nibbleDot`);
    assert.equal(quantise4(new Float32Array(dims), dims, q4, 0), 0, "a zero row's step is 0");
  }
});

test("the WebAssembly 4-bit kernel sums the same levels × int16 query as the JS loop", () => {
  const rand = prng(5);
  for (const [n, dims] of [[1, 128], [37, 384], [300, 768]] as const) {
    const bytes = nibbleBytes(dims);
    const memory = new WebAssembly.Memory({ initial: Math.ceil((4096 + dims * 2 + n * (bytes + 8)) / 65_536) + 1 });
    const k = codeKernels(memory)!;
    const at = { q16: 0, dots: 0, rows: 0, q4: 0 };
    at.dots = Math.ceil((dims * 2) / 16) * 16;
    at.rows = at.dots + n * 4;
    at.q4 = Math.ceil((at.rows + n * 4) / 16) * 16;
    const q4 = new Uint8Array(memory.buffer, at.q4, n * bytes);
    for (let i = 0; i < n; i++) quantise4(Float32Array.from({ length: dims }, () => rand() * 2 - 1), dims, q4, i * bytes);
    const q16 = new Int16Array(memory.buffer, at.q16, dims);
    quantise16(Float32Array.from({ length: dims }, () => rand() * 2 - 1), dims, q16);
    const pick = Array.from({ length: Math.min(n, 25) }, (_, i) => (i * 11) % n);
    new Int32Array(memory.buffer, at.rows, pick.length).set(pick);
    k.dots4(at.q16, at.q4, at.rows, pick.length, bytes, at.dots);
    const dots = new Int32Array(memory.buffer, at.dots, pick.length);
    pick.forEach((row, i) => {
      let want = 0;
      for (let j = 0; j < dims; j++) {
        const b = q4[row * bytes + (j >> 5) * 16 + (j & 15)]!;
        want += q16[j]! * ((j & 16) === 0 ? b & 15 : b >> 4);
      }
      assert.equal(dots[i], want, `dots4 ${n}×${dims} row ${row}`);
    });
  }
});

test("the candidates rescored grow with the limit and with the copy's size", () => {
  const cases: [number, number, number][] = [[1_000, 50, 2_000], [100_000, 50, 2_000], [300_000, 50, 6_000], [1_000_000, 50, 20_000], [100_000, 100, 4_000], [10, 5, 2_000]];
  for (const [rows, limit, want] of cases) assert.equal(candidateCount(rows, limit), want, `${rows} rows, limit ${limit}`);
  // read back from the file: limit × 8, at least 200, never fewer than the limit
  for (const [limit, want, c] of [[50, 400, undefined], [30, 240, undefined], [10, 200, undefined], [100, 800, undefined], [30, 30, { factor: 1, min: 1, share: 0, readBack: 0, readBackMin: 0 }]] as const) assert.equal(readBackCount(limit, c), want, `limit ${limit}`);
});
