import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { MemoryIndex } from "../../src/retrieve/memory-index.js";
import { VectorStore } from "../../src/store/vectors.js";
import { hashVector } from "../helpers/hash-embedder.js";
import { cleanText } from "../../src/redact/clean.cjs";

const dir = mkdtempSync(join(tmpdir(), "mem-memidx-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("the daemon's in-memory copy ranks as LanceDB does, with either kernel, with the project filter and any limit", async () => {
  const store = await VectorStore.open(dir);
  await store.ensure("t", 48);
  const words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau".split(" ");
  const rows = Array.from({ length: 3000 }, (_, i) => ({
    id: cleanText(`c${i}`),
    project: cleanText(i % 3 === 0 ? "a" : "b"),
    vector: hashVector(`${words[i % 19]} ${words[(i * 7) % 19]} ${words[(i * 13) % 19]} n${i % 101}`, 48),
  }));
  for (let i = 0; i < rows.length; i += 1000) await store.upsert("t", rows.slice(i, i + 1000));
  for (const prefer of [undefined, "js"] as const) {
    const idx = await MemoryIndex.load(store, "t", 48, "v1", prefer);
    assert.equal(idx.kernel, prefer === "js" ? "js" : "wasm-simd");
    assert.equal(idx.size, 3000);
    assert.equal(idx.version, "v1");
    for (const q of ["alpha beta", "sigma tau n7", "kappa", "omicron pi rho n42"]) {
      const v = hashVector(q, 48);
      for (const projects of [undefined, ["a"], ["b", "a"]]) {
        const mine = idx.search(v, projects, 20);
        const lance = await store.search("t", v, projects, 20);
        assert.equal(mine.length, lance.length);
        // float32 sums in a different order: equal to about 1e-6
        mine.forEach((h, i) => assert.ok(Math.abs(h.similarity - lance[i]!.similarity) < 1e-5, `${idx.kernel} ${q} ${projects} #${i}`));
        if (projects) for (const h of mine) assert.ok(projects.includes(rows[Number(h.id.slice(1))]!.project));
      }
    }
    assert.equal(idx.search(hashVector("alpha", 48), ["none"], 10).length, 0);
    assert.equal(idx.search(hashVector("alpha", 48), undefined, 0).length, 0);
    assert.equal(idx.search(hashVector("alpha", 48), undefined, 5000).length, 3000, "a limit above the size returns everything");
  }
  store.close();
});
