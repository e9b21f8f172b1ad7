/**
 * Many queries answered in one read of a project's rows (src/retrieve/one-pass.ts) give what a flat
 * LanceDB search gives for each: the same nearest rows in the same order, the same similarities,
 * only the project's rows. Real LanceDB tables; the WebAssembly kernel (dims a multiple of 8) and
 * the plain-JS one (other dims); rows read in several batches.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { nearestInOnePass } from "../../src/retrieve/one-pass.js";
import { asStored } from "../../src/redact/clean.cjs";
import { VectorStore } from "../../src/store/vectors.js";
import { prng } from "../../scripts/prng.js";

const dir = mkdtempSync(join(tmpdir(), "mem-one-pass-"));
after(() => rmSync(dir, { recursive: true, force: true }));

for (const dims of [64, 20]) {
  test(`${dims} dims: each query's nearest rows and the probe's similarities are a flat search's, of the project's rows only`, async () => {
    const store = await VectorStore.open(join(dir, `lance-${dims}`));
    try {
      const rand = prng(dims);
      const vec = () => Float32Array.from({ length: dims }, () => rand() * 2 - 1);
      await store.ensure("t", dims);
      // Three writes: three fragments, read in more than one batch.
      for (let w = 0; w < 3; w++) {
        await store.upsert("t", Array.from({ length: 1_500 }, (_, i) => ({ id: asStored(`c${w}-${i}`), project: asStored(i % 3 === 0 ? "other" : "p"), vector: vec() })));
      }
      const queries = Array.from({ length: 6 }, vec);
      const probe = vec();
      const pass = await nearestInOnePass(store.batches("t", ["p"]), queries, 50, probe);
      for (const [j, q] of queries.entries()) {
        const flat = await store.search("t", q, ["p"], 50);
        assert.deepEqual(pass.top[j]!.map((h) => h.id), flat.map((h) => h.id), `query ${j}`);
        for (const [k, h] of flat.entries()) assert.ok(Math.abs(h.similarity - pass.top[j]![k]!.similarity) < 1e-5, `query ${j} hit ${k}`);
      }
      const all = await store.search("t", probe, ["p"], 10_000);
      assert.equal(pass.probe.length, 3_000, "every row of the project, none of another");
      const seen = new Map(pass.probe.map((h) => [h.id, h.similarity]));
      for (const h of all) assert.ok(Math.abs(h.similarity - seen.get(h.id)!) < 1e-5, h.id);
    } finally {
      store.close();
    }
  });
}

test("no rows, or no queries: empty answers", async () => {
  const store = await VectorStore.open(join(dir, "lance-empty"));
  try {
    await store.ensure("t", 8);
    const pass = await nearestInOnePass(store.batches("t", ["p"]), [new Float32Array(8).fill(1)], 5, new Float32Array(8).fill(1));
    assert.deepEqual(pass, { top: [[]], probe: [] });
    assert.deepEqual(await nearestInOnePass(store.batches("t", ["p"]), [], 5), { top: [], probe: [] });
  } finally {
    store.close();
  }
});
