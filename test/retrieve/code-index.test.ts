import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { CodeIndex } from "../../src/retrieve/code-index.js";
import { MemoryIndex } from "../../src/retrieve/memory-index.js";
import { VectorStore } from "../../src/store/vectors.js";
import { cleanText } from "../../src/redact/clean.cjs";
import { ClusteredVectors } from "../helpers/clustered-vectors.js";

const dir = mkdtempSync(join(tmpdir(), "mem-codeidx-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const LOCOMO = join(import.meta.dirname, "../../../../shared/data/locomo-dev/vectors/use-conv-30.json");

type Row = { id: ReturnType<typeof cleanText>; project: ReturnType<typeof cleanText>; vector: Float32Array };
const rowsOf = (gen: ClusteredVectors, n: number, from = 0, project = (i: number): string => (i % 3 === 0 ? "a" : "b")): Row[] =>
  Array.from({ length: n }, (_, k) => ({ id: cleanText(`c${from + k}`), project: cleanText(project(from + k)), vector: gen.next() }));

async function tableOf(name: string, dims: number, rows: Row[]): Promise<VectorStore> {
  const store = await VectorStore.open(join(dir, name));
  const t = await store.ensure(name, dims);
  for (let i = 0; i < rows.length; i += 5_000) await t.add(rows.slice(i, i + 5_000).map((r) => ({ ...r, vector: Array.from(r.vector) })));
  return store;
}

/** Exact top `k` by float64 dot product, ties by row order. */
function exactTop(rows: Row[], q: Float32Array, k: number, ok: (r: Row) => boolean = () => true): { id: string; s: number }[] {
  const scored = rows.filter(ok).map((r) => ({ id: r.id as string, s: r.vector.reduce((a, x, j) => a + x * q[j]!, 0) }));
  return scored.sort((a, b) => b.s - a.s).slice(0, k);
}

test("rescoring every row is the exact ranking up to int8's error: each similarity within its bound, and only near-ties at the cut differ", async () => {
  for (const dims of [128, 48]) {
    const gen = ClusteredVectors.synthetic(dims, 40, 21);
    const rows = rowsOf(gen, 3_000);
    const store = await tableOf(`exact${dims}`, dims, rows);
    for (const prefer of [undefined, "js"] as const) {
      // every row a candidate: the answer is the rescoring's alone
      const arrow = [await (await store.table(`exact${dims}`)).query().toArrow()];
      const idx = await CodeIndex.fromArrow(`exact${dims}`, dims, "v1", arrow, { candidates: { factor: 1, min: 10_000, share: 0 }, prefer });
      assert.equal(idx.kernel, prefer || dims % 128 !== 0 ? "codes-js" : "codes-wasm-simd");
      // the int8 rows in a file: the 4-bit rows pick the 400 read back, then the same int8 scores
      const inFile = await CodeIndex.fromArrow(`exact${dims}`, dims, "v1", arrow, { candidates: { factor: 1, min: 10_000, share: 0 }, prefer, rowsDir: join(dir, "rows") });
      assert.ok(inFile.rowsPath && inFile.fileBytes === 3_000 * dims && inFile.bytes < idx.bytes, "the int8 rows are in the file, not in memory");
      for (let t = 0; t < 10; t++) {
        const q = gen.next();
        const want = exactTop(rows, q, 21);
        const got = idx.search(q, undefined, 20);
        // |q·v − q·v̂| ≤ Σ|q_j| × (the row's int8 step)/2, the step at most max|v_j|/127 ≤ 1/127; plus the int16 query's
        const bound = (q.reduce((a, x) => a + Math.abs(x), 0) / 127 / 2) * 1.01 + 1e-4;
        const exact = new Map(rows.map((r) => [r.id as string, r.vector.reduce((a, x, j) => a + x * q[j]!, 0)]));
        for (const h of got) assert.ok(Math.abs(h.similarity - exact.get(h.id)!) <= bound, `${dims} ${prefer}: ${h.similarity} vs ${exact.get(h.id)}`);
        const cut = want[19]!.s;
        const mine = new Set(got.map((h) => h.id));
        for (const w of want.slice(0, 20)) if (w.s > cut + 2 * bound) assert.ok(mine.has(w.id), `${dims} ${prefer}: a clear top-20 row is found`);
        for (const h of got) assert.ok(exact.get(h.id)! >= cut - 2 * bound, `${dims} ${prefer}: nothing clearly outside the top 20`);
        for (let i = 1; i < got.length; i++) assert.ok(got[i - 1]!.similarity >= got[i]!.similarity, "best first");
        assert.deepEqual(inFile.search(q, undefined, 20), got, `${dims} ${prefer}: read back from the file, the same rows with the same int8 scores`);
      }
      await inFile.close();
    }
    store.close();
  }
});

test("recall@50 of the codes against the exact scan is at least 0.98 on clustered vectors (the LoCoMo USE vectors when present)", async () => {
  const locomo = ClusteredVectors.locomo(LOCOMO, 3);
  const sets: [string, ClusteredVectors, Float32Array[]][] = [];
  if (locomo) sets.push(["locomo", locomo.rows, locomo.questions.slice(0, 40)]);
  else process.stdout.write("# no LoCoMo USE vectors: the synthetic clustered set only\n");
  const synth = ClusteredVectors.synthetic(384, 100, 5);
  sets.push(["synthetic", synth, Array.from({ length: 40 }, () => synth.next())]);
  for (const [name, gen, queries] of sets) {
    const rows = rowsOf(gen, 20_000);
    const store = await tableOf(`recall-${name}`, gen.dims, rows);
    const codes = await CodeIndex.load(store, `recall-${name}`, gen.dims, "v1");
    const exact = await MemoryIndex.load(store, `recall-${name}`, gen.dims, "v1");
    let recall = 0;
    for (const q of queries) {
      const want = new Set(exact.search(q, ["a", "b"], 50).map((h) => h.id));
      recall += codes.search(q, ["a", "b"], 50).filter((h) => want.has(h.id)).length / want.size / queries.length;
    }
    assert.ok(recall >= 0.98, `${name}: recall@50 ${recall.toFixed(4)}`);
    store.close();
  }
});

test("the project filter: only rows of the projects searched, none for an unknown project or a zero limit", async () => {
  const gen = ClusteredVectors.synthetic(256, 20, 9);
  const rows = rowsOf(gen, 2_000);
  const store = await tableOf("projects", 256, rows);
  const idx = await CodeIndex.load(store, "projects", 256, "v1");
  const projectOf = new Map(rows.map((r) => [r.id as string, r.project as string]));
  for (let t = 0; t < 5; t++) {
    const q = gen.next();
    for (const projects of [["a"], ["b"], ["a", "b"], undefined]) {
      const got = idx.search(q, projects, 30);
      assert.equal(got.length, 30);
      if (projects) for (const h of got) assert.ok(projects.includes(projectOf.get(h.id)!), `${h.id} of ${projectOf.get(h.id)}`);
      const want = exactTop(rows, q, 30, (r) => !projects || projects.includes(r.project));
      assert.ok(got.filter((h) => want.some((w) => w.id === h.id)).length >= 27, "the filtered ranking is the exact one's");
    }
  }
  assert.deepEqual(idx.search(gen.next(), ["none"], 10), []);
  assert.deepEqual(idx.search(gen.next(), undefined, 0), []);
  assert.equal(idx.search(gen.next(), undefined, 5_000).length, 2_000, "a limit above the size returns every row");
  store.close();
});

const ALL = { factor: 1, min: 1_000_000, share: 0 }; // every row a candidate: the order rows are held in does not matter
/** The ways a copy can hold its rows: the kernels (WebAssembly, or the JS loops) × the int8 rows in memory or in a private file. */
const MODES = [
  { prefer: undefined, inFile: false },
  { prefer: "js", inFile: false },
  { prefer: undefined, inFile: true },
  { prefer: "js", inFile: true },
] as const;
const optsOf = (m: (typeof MODES)[number]) => ({ prefer: m.prefer, candidates: ALL, ...(m.inFile ? { rowsDir: join(dir, "rows") } : {}) });
const label = (m: (typeof MODES)[number]) => `${m.prefer ?? "wasm"}, int8 rows ${m.inFile ? "in a file" : "in memory"}`;
/** Rows of the copy's file that are all zeros. */
const zeroRows = (path: string, dims: number): number => {
  const b = readFileSync(path);
  let n = 0;
  for (let r = 0; r < b.length / dims; r++) if (b.subarray(r * dims, (r + 1) * dims).every((x) => x === 0)) n++;
  return n;
};
const change = (gone: Iterable<string>, recorded: Iterable<string>) => ({ gone: new Set(gone), recorded: new Set(recorded) });

test("a code copy refreshed in place after rows were added, removed and rewritten reads only those and answers as a full load does", async () => {
  const gen = ClusteredVectors.synthetic(128, 30, 13);
  const rows = rowsOf(gen, 3_000);
  const store = await tableOf("refresh", 128, rows);
  for (const [m, mode] of MODES.entries()) {
    const first = await CodeIndex.load(store, "refresh", 128, "v1", optsOf(mode));
    assert.equal(first.rowsPath !== undefined, mode.inFile, label(mode));
    assert.equal(first.rowsRead, 3_000);
    const capacity = first.capacity;
    assert.ok(capacity > 3_000, "room for rows to come");
    const added = rowsOf(gen, 150, 10_000 + m * 1_000, () => "c");
    const removed = Array.from({ length: 300 }, (_, i) => `c${i * 6}`);
    await store.upsert("refresh", added);
    await store.delete("refresh", removed);
    const edited = { id: cleanText("c1"), project: cleanText("c"), vector: gen.next() };
    await store.upsert("refresh", [edited]);
    const fresh = await first.refresh(store, "v2", change([...removed, "c1"], [...added.map((r) => r.id), "c1"]));
    assert.equal(fresh, first, "changed in place: no second copy");
    assert.equal(first.rowsRead, 151, "only the rows added, and the one recorded again, were read");
    assert.equal(first.size, 3_000 - 300 + 150);
    assert.equal(first.capacity, capacity, "appended into the headroom");
    assert.equal(first.version, "v2");
    assert.equal(first.search(edited.vector, ["c"], 1)[0]?.id, "c1", "the rewritten row's new vector and project");
    // a removed row's int8 row leaves the file at once (zeros), before any compaction
    if (first.rowsPath) assert.ok(zeroRows(first.rowsPath, 128) >= 300, `${label(mode)}: removed rows zeroed`);
    const whole = await CodeIndex.load(store, "refresh", 128, "v2", optsOf(mode));
    for (let t = 0; t < 8; t++) {
      const q = t === 0 ? added[3]!.vector : gen.next();
      for (const projects of [undefined, ["c"], ["a", "c"], ["a"]]) {
        const mine = first.search(q, projects, 25);
        assert.deepEqual(mine, whole.search(q, projects, 25), `${label(mode)}, query ${t} ${projects}: the refreshed copy answers as a full load`);
        for (const h of mine) assert.ok(!removed.includes(h.id), `a removed row is gone: ${h.id}`);
      }
    }
    assert.equal(first.search(added[3]!.vector, ["c"], 1)[0]?.id, added[3]!.id, "an added row is found");
    await first.close();
    await whole.close();
    // the table as it was, for the next pass
    await store.delete("refresh", added.map((r) => r.id));
    await store.upsert("refresh", rows.filter((r) => removed.includes(r.id) || r.id === "c1"));
  }
  // most of the table changed: a full load costs about as much, so none is made
  const base = await CodeIndex.load(store, "refresh", 128, "v3");
  assert.equal(await base.refresh(store, "v4", change([], Array.from({ length: 1_500 }, (_, i) => `c${i}`))), undefined);
  store.close();
});

test("the dead rows squeezed out in place (compaction), rows added past the headroom (growth): the answers stay a full load's", async () => {
  const gen = ClusteredVectors.synthetic(128, 30, 17);
  const rows = rowsOf(gen, 12_000);
  const store = await tableOf("compact", 128, rows);
  for (const [m, mode] of MODES.entries()) {
    const idx = await CodeIndex.load(store, "compact", 128, "v1", optsOf(mode));
    // a tenth and more removed: marked dead, then squeezed out
    const removed = rows.filter((_, i) => i % 9 === 0).map((r) => r.id as string);
    await store.delete("compact", removed);
    await idx.refresh(store, "v2", change(removed, []));
    assert.equal(idx.dead, 0, "compacted");
    assert.equal(idx.size, 12_000 - removed.length);
    // then more rows than the headroom holds: the copy grows in place
    const capacity = idx.capacity;
    const added = rowsOf(gen, capacity - idx.size + 500, 50_000 + m * 100_000, () => "c");
    await store.upsert("compact", added);
    const half = Math.ceil(added.length / 2); // each within a refresh's limit
    assert.ok(await idx.refresh(store, "v3", change([], added.slice(0, half).map((r) => r.id))));
    assert.ok(await idx.refresh(store, "v3", change([], added.slice(half).map((r) => r.id))));
    assert.ok(idx.capacity > capacity, "grown");
    assert.equal(idx.size, 12_000 - removed.length + added.length);
    const whole = await CodeIndex.load(store, "compact", 128, "v3", optsOf(mode));
    for (let t = 0; t < 6; t++) {
      const q = t === 0 ? added.at(-1)!.vector : gen.next();
      for (const projects of [undefined, ["c"], ["b"]]) assert.deepEqual(idx.search(q, projects, 30), whole.search(q, projects, 30), `${label(mode)}, query ${t} ${projects}`);
    }
    assert.equal(idx.search(added.at(-1)!.vector, ["c"], 1)[0]?.id, added.at(-1)!.id, "a row added after the growth is found");
    if (idx.rowsPath) assert.equal(statSync(idx.rowsPath).size, (12_000 - removed.length + added.length) * 128, "the file holds the rows in use");
    await idx.close();
    await whole.close();
    await store.delete("compact", added.map((r) => r.id));
    await store.upsert("compact", rows.filter((r) => removed.includes(r.id)));
  }
  store.close();
});
