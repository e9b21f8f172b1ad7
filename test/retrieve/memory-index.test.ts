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

test("a copy refreshed after rows were added and removed reads only the new rows and answers as a full load does", async () => {
  const store = await VectorStore.open(join(dir, "refresh"));
  await store.ensure("r", 48);
  const row = (i: number, project: string) => ({ id: cleanText(`r${i}`), project: cleanText(project), vector: hashVector(`w${i % 37} w${(i * 5) % 41} n${i}`, 48) });
  await store.upsert("r", Array.from({ length: 2_000 }, (_, i) => row(i, i % 2 ? "a" : "b")));
  for (const prefer of [undefined, "js"] as const) {
    const first = await MemoryIndex.load(store, "r", 48, "v1", prefer);
    assert.equal(first.rowsRead, first.size);
    // 150 rows of a new project in, 300 scattered rows out (every 6th of the first 1,800)
    const extra = prefer ? 3_000 : 2_000;
    await store.upsert("r", Array.from({ length: 150 }, (_, i) => row(extra + i, "c")));
    await store.delete("r", Array.from({ length: 300 }, (_, i) => `r${i * 6}`));
    // r1 rewritten under its id (as an edited memory is): a new vector, another project.
    const edited = { id: cleanText("r1"), project: cleanText("c"), vector: hashVector("edited text entirely", 48) };
    await store.upsert("r", [edited]);
    const fresh = await first.refresh(store, "v2", {
      gone: new Set([...Array.from({ length: 300 }, (_, i) => `r${i * 6}`), "r1"]),
      recorded: new Set([...Array.from({ length: 150 }, (_, i) => `r${extra + i}`), "r1"]),
    });
    assert.ok(fresh, "a small change is refreshed, not reloaded");
    assert.equal(fresh.rowsRead, 151, "only the rows added since, and the one recorded again, were read from LanceDB");
    assert.deepEqual(fresh.search(edited.vector, ["c"], 1)[0]?.id, "r1", "the rewritten row's new vector and project");
    assert.ok(Math.abs(fresh.search(edited.vector, ["c"], 1)[0]!.similarity - 1) < 1e-5);
    assert.equal(fresh.version, "v2");
    assert.equal(fresh.kernel, first.kernel);
    const whole = await MemoryIndex.load(store, "r", 48, "v2", prefer);
    assert.equal(fresh.size, whole.size);
    for (const q of ["w3 w9", "n2001 w1", "w36", "n5 w7 w40"]) {
      const v = hashVector(q, 48);
      for (const projects of [undefined, ["c"], ["a", "c"], ["b"]]) {
        const mine = fresh.search(v, projects, 25);
        const all = whole.search(v, projects, 25);
        assert.deepEqual(new Set(mine.map((h) => h.id)), new Set(all.map((h) => h.id)), `${q} ${projects}`);
        mine.forEach((h, i) => assert.ok(Math.abs(h.similarity - all[i]!.similarity) < 1e-6));
        for (const h of mine) assert.ok(Number(h.id.slice(1)) % 6 !== 0 || Number(h.id.slice(1)) >= 1_800, `a removed row is gone: ${h.id}`);
      }
    }
    await store.delete("r", Array.from({ length: 150 }, (_, i) => `r${extra + i}`));
    await store.upsert("r", [...Array.from({ length: 300 }, (_, i) => row(i * 6, (i * 6) % 2 ? "a" : "b")), row(1, "a")]);
  }
  // Most of the table replaced: a full load costs about as much, so none is made.
  const base = await MemoryIndex.load(store, "r", 48, "v3");
  await store.upsert("r", Array.from({ length: 1_500 }, (_, i) => row(10_000 + i, "d")));
  assert.equal(await base.refresh(store, "v4", { gone: new Set(), recorded: new Set(Array.from({ length: 1_500 }, (_, i) => `r${10_000 + i}`)) }), undefined);
  store.close();
});
