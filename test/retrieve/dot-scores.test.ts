import assert from "node:assert/strict";
import { test } from "node:test";
import { attachMatrix, KERNEL_BYTES, scoreMatrix } from "../../src/retrieve/dot-scores.js";
import { prng } from "../../scripts/prng.js";

/** Reference: the dot products in float64. */
function reference(data: Float32Array, rows: number, dims: number, q: Float32Array): number[] {
  return Array.from({ length: rows }, (_, i) => {
    let s = 0;
    for (let j = 0; j < dims; j++) s += data[i * dims + j]! * q[j]!;
    return s;
  });
}

function filled(rows: number, dims: number, seed: number, prefer?: "js") {
  const rand = prng(seed);
  const m = scoreMatrix(rows, dims, prefer);
  for (let i = 0; i < m.data.length; i++) m.data[i] = rand() * 2 - 1;
  const q = Float32Array.from({ length: dims }, () => rand() * 2 - 1);
  return { m, q };
}

test("the WebAssembly kernel is valid, and chosen when dims are a multiple of 8", () => {
  assert.ok(WebAssembly.validate(KERNEL_BYTES));
  assert.equal(scoreMatrix(10, 384).kernel, "wasm-simd");
  assert.equal(scoreMatrix(10, 8).kernel, "wasm-simd");
  assert.equal(scoreMatrix(10, 12).kernel, "js", "12 is not a multiple of 8");
  assert.equal(scoreMatrix(10, 384, "js").kernel, "js");
});

test("both kernels compute every row's dot product (to float32 precision), for sizes at the edges", () => {
  for (const [rows, dims] of [[0, 8], [1, 8], [3, 16], [257, 384], [1000, 768], [5, 12], [7, 1]] as const) {
    for (const prefer of [undefined, "js"] as const) {
      const { m, q } = filled(rows, dims, rows * 31 + dims, prefer);
      const want = reference(m.data, rows, dims, q);
      const got = m.scores(q);
      assert.equal(got.length, rows);
      want.forEach((w, i) => assert.ok(Math.abs(got[i]! - w) <= 1e-4 * Math.max(1, Math.abs(w)), `${m.kernel} ${rows}×${dims} row ${i}: ${got[i]} vs ${w}`));
    }
  }
});

test("scores are recomputed for each query; a longer query vector is cut to the matrix's dims", () => {
  const { m } = filled(50, 32, 5);
  const a = Float32Array.from({ length: 32 }, (_, j) => (j === 0 ? 1 : 0));
  const b = Float32Array.from({ length: 40 }, (_, j) => (j === 1 ? 1 : 0));
  assert.deepEqual(Array.from(m.scores(a).slice()), Array.from({ length: 50 }, (_, i) => m.data[i * 32]!));
  assert.deepEqual(Array.from(m.scores(b).slice()), Array.from({ length: 50 }, (_, i) => m.data[i * 32 + 1]!));
});

test("rows scored block by block, or through another view of the same shared memory, get the full scan's scores", () => {
  for (const prefer of [undefined, "js"] as const) {
    const { m, q } = filled(1000, 64, 9, prefer);
    const full = m.scores(q).slice();
    m.out.fill(0);
    m.setQuery(q);
    for (let from = 0; from < 1000; from += 300) m.scoreRows(from, Math.min(1000, from + 300));
    assert.deepEqual(m.out, full, `${m.kernel}: in blocks`);
    const other = attachMatrix(m.shared()); // what a worker thread builds from the message it gets
    assert.equal(other.kernel, m.kernel);
    m.out.fill(0);
    other.setQuery(q);
    other.scoreRows(0, 500);
    m.scoreRows(500, 1000);
    assert.deepEqual(m.out, full, `${m.kernel}: half through each view, into the same scores`);
    assert.ok(m.data.buffer instanceof SharedArrayBuffer, "shared, not copied");
  }
});
