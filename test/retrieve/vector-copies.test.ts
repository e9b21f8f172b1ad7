/**
 * The daemon's holder of vector copies (src/retrieve/vector-copies.ts) over a real SQLite store
 * and a real LanceDB table, written as the indexer writes them (LanceDB first, then SQLite's
 * record): after rows are added, removed and recorded again, the copy is brought up to date from
 * SQLite's journal (only the rows recorded read from LanceDB) and answers as a copy read whole.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { cleanText } from "../../src/redact/clean.cjs";
import { defaultConfig } from "../../src/config/config.js";
import { CodeIndex, codeBytesPerRow } from "../../src/retrieve/code-index.js";
import { MemoryIndex } from "../../src/retrieve/memory-index.js";
import { VectorCopies } from "../../src/retrieve/vector-copies.js";
import { openDb } from "../../src/store/db.js";
import { redoVectors, VecState } from "../../src/store/vec-state.js";
import { VectorStore } from "../../src/store/vectors.js";
import { ClusteredVectors } from "../helpers/clustered-vectors.js";
import { until } from "../helpers/until.js";

const dir = mkdtempSync(join(tmpdir(), "mem-copies-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const DIMS = 128;
const TABLE = "t128";

type Row = { id: ReturnType<typeof cleanText>; project: ReturnType<typeof cleanText>; vector: Float32Array };

for (const kind of ["codes", "codes-file", "float32"] as const) {
  test(`${kind}: a copy brought up to date from SQLite's journal answers as one read whole; a journal pruned past it, read whole`, { timeout: 60_000 }, async () => {
    const gen = ClusteredVectors.synthetic(DIMS, 20, kind === "codes" ? 3 : 4);
    const rowOf = (i: number, project = i % 4 === 0 ? "a" : "b"): Row => ({ id: cleanText(`c${i}`), project: cleanText(project), vector: gen.next() });
    const db = openDb(join(dir, `${kind}.sqlite`));
    const state = new VecState(db);
    const store = await VectorStore.open(join(dir, `${kind}-vectors`));
    await store.ensure(TABLE, DIMS);
    state.register(cleanText(TABLE), cleanText("ollama"), cleanText("m"), DIMS, 1000);
    // as the indexer writes: LanceDB, then SQLite's record
    const write = async (rows: Row[]) => {
      await store.upsert(TABLE, rows);
      state.mark(TABLE, rows);
    };
    const remove = async (ids: string[]) => {
      await store.delete(TABLE, ids);
      state.unmark(TABLE, ids);
    };
    const rows = Array.from({ length: 1_500 }, (_, i) => rowOf(i));
    await write(rows);
    const logs: string[] = [];
    const copies = new VectorCopies({
      state,
      vectors: async () => store,
      config: { vectorMemoryMB: 1024, scanWorkerRows: 1_000_000, codeRows: kind === "float32" ? 1_000_000 : 0 },
      log: (l) => logs.push(l),
      ...(kind === "codes-file" ? { rowsDir: join(dir, "rows") } : {}),
    });
    const held = () => copies.status().find((s) => s.table === TABLE);
    const search = (q: Float32Array, projects?: string[]) => copies.search(TABLE, DIMS, q, projects, 20);
    const caughtUp = async () => {
      await search(gen.next());
      await until(async () => held()?.version === state.version(TABLE));
      return held()!;
    };
    assert.equal(await search(gen.next()), undefined, "not loaded yet: LanceDB answers");
    const first = await caughtUp();
    assert.equal(first.rowsRead, 1_500);
    assert.equal(first.kernel.startsWith("codes"), kind !== "float32");
    if (kind === "codes-file") assert.equal(readdirSync(join(dir, "rows")).length, 1, "the int8 rows in a file");

    // 60 added, 45 removed, 5 recorded again with new vectors (an edited memory keeps its chunk id)
    await write(Array.from({ length: 60 }, (_, i) => rowOf(5_000 + i, "c")));
    await remove(Array.from({ length: 45 }, (_, i) => `c${i * 7}`));
    const edited = [3, 10, 22, 100, 1_001].map((i) => rowOf(i, "c"));
    for (const e of edited) redoVectors(db, e.id);
    await store.delete(
      TABLE,
      edited.map((e) => e.id),
    );
    await write(edited);
    const fresh = await caughtUp();
    assert.equal(fresh.rowsRead, 65, "only the rows recorded since were read from LanceDB");
    assert.equal(fresh.rows, 1_500 + 60 - 45);
    const whole = kind === "float32" ? await MemoryIndex.load(store, TABLE, DIMS, "whole") : await CodeIndex.load(store, TABLE, DIMS, "whole", kind === "codes-file" ? { rowsDir: join(dir, "rows-whole") } : {});
    for (let t = 0; t < 10; t++) {
      const q = t < 5 ? edited[t]!.vector : gen.next();
      for (const projects of [undefined, ["c"], ["a", "c"]]) {
        const mine = await search(q, projects);
        assert.deepEqual(mine, whole.search(q, projects, 20), `query ${t} ${projects}: as a copy read whole`);
        if (t < 5 && projects?.includes("c")) assert.equal(mine![0]!.id, edited[t]!.id, "an edited row's new vector and project");
        for (const h of mine!) assert.ok(!/^c\d+$/.test(h.id) || Number(h.id.slice(1)) % 7 !== 0 || Number(h.id.slice(1)) >= 315, `a removed row is gone: ${h.id}`);
      }
    }

    // the journal pruned past the copy's version: it is read whole
    await remove(["c1", "c2"]);
    db.prepare("UPDATE vec_gone SET at = 0").run();
    state.pruneGone(1);
    const reread = await caughtUp();
    assert.equal(reread.rowsRead, reread.rows, "read whole");
    assert.equal(reread.rows, 1_500 + 60 - 45 - 2);
    assert.deepEqual(logs, []);
    await copies.close();
    if (kind === "codes-file") assert.deepEqual(readdirSync(join(dir, "rows")), [], "the file removed when the copies are let go");
    store.close();
    db.close();
  });
}

/**
 * A table of `n` rows (ids `${prefix}${i}`, project "a") in a real SQLite store and LanceDB, as the
 * indexer writes them, and a holder of its copies; `current()` waits for the copy to reach the table.
 */
async function bed(name: string, seed: number, n: number, prefix: string, codeRows: number, rowsDir?: string) {
  const gen = ClusteredVectors.synthetic(DIMS, 20, seed);
  const db = openDb(join(dir, `${name}.sqlite`));
  const state = new VecState(db);
  const store = await VectorStore.open(join(dir, `${name}-vectors`));
  await store.ensure(TABLE, DIMS);
  state.register(cleanText(TABLE), cleanText("ollama"), cleanText("m"), DIMS, 1000);
  const write = async (rows: Row[]) => {
    await store.upsert(TABLE, rows);
    state.mark(TABLE, rows);
  };
  const remove = async (ids: string[]) => {
    await store.delete(TABLE, ids);
    state.unmark(TABLE, ids);
  };
  const rows: Row[] = Array.from({ length: n }, (_, i) => ({ id: cleanText(`${prefix}${i}`), project: cleanText("a"), vector: gen.next() }));
  await write(rows);
  const logs: string[] = [];
  const copies = new VectorCopies({ state, vectors: async () => store, config: { vectorMemoryMB: 1024, scanWorkerRows: 1_000_000, codeRows }, log: (l) => logs.push(l), ...(rowsDir ? { rowsDir } : {}) });
  const held = () => copies.status()[0];
  const current = () => until(async () => held()?.version === state.version(TABLE));
  const close = async () => {
    await copies.close();
    store.close();
    db.close();
  };
  return { gen, state, store, rows, write, remove, logs, copies, held, current, close };
}

test("a holder whose int8 rows' folder cannot be made (a file in the way) still answers from its copy, the rows in memory, and says why once", async () => {
  writeFileSync(join(dir, "in-the-way"), "");
  const { gen, store, logs, copies, current, close } = await bed("nofile", 8, 800, "n", 0, join(dir, "in-the-way", "rows"));
  await copies.search(TABLE, DIMS, gen.next(), undefined, 10);
  await current();
  const whole = await CodeIndex.load(store, TABLE, DIMS, "whole");
  for (let t = 0; t < 5; t++) {
    const q = gen.next();
    assert.deepEqual(await copies.search(TABLE, DIMS, q, ["a"], 10), whole.search(q, ["a"], 10));
  }
  assert.equal(logs.length, 1, logs.join("\n"));
  assert.match(logs[0]!, /int8 rows cannot be kept in a file .*holding them in memory/);
  await close();
});

test("a copy whose int8 rows' file is cut under it lets go of it: LanceDB answers meanwhile, the log says why, and the next copy is read whole", async () => {
  const rowsDir = join(dir, "cut-rows");
  const { gen, rows, logs, copies, current, close } = await bed("cut", 12, 700, "k", 0, rowsDir);
  await copies.search(TABLE, DIMS, gen.next(), undefined, 10);
  await current();
  const [file] = readdirSync(rowsDir);
  truncateSync(join(rowsDir, file!), 0);
  const q = rows[5]!.vector;
  assert.equal(await copies.search(TABLE, DIMS, q, ["a"], 10), undefined, "LanceDB answers");
  assert.match(logs.join("\n"), /the copy of t128 failed .*past the end.*searching LanceDB/);
  await copies.search(TABLE, DIMS, q, ["a"], 10);
  await current();
  const again = await copies.search(TABLE, DIMS, q, ["a"], 10);
  assert.equal(again?.[0]?.id, "k5", "read again, it answers");
  await close();
});

test("by default the daemon holds the code copy of a table of 1M chunks of 768 dimensions (daemon.vectorMemoryMB)", () => {
  const codes = 1_000_000 * codeBytesPerRow(768);
  assert.ok(codes / 2 ** 20 <= defaultConfig().daemon.vectorMemoryMB, `${Math.round(codes / 2 ** 20)} MiB of codes over ${defaultConfig().daemon.vectorMemoryMB}`);
  assert.ok(1_000_000 >= defaultConfig().daemon.codeRows, "held as codes");
});

test("catchUp: a small change reaches the copy with no search; a change too large to read in part waits for the next search", async () => {
  const { gen, remove, copies, held, current, close } = await bed("follow", 16, 1_500, "f", 0, join(dir, "follow-rows"));
  copies.catchUp(); // nothing held: nothing read
  assert.equal(held(), undefined);
  await copies.search(TABLE, DIMS, gen.next(), undefined, 10);
  await current();
  assert.equal(held()!.rows, 1_500);

  await remove(["f3", "f700"]);
  copies.catchUp();
  await current();
  assert.equal(held()!.rows, 1_498);
  assert.equal(held()!.rowsRead, 0, "only removed: nothing read again");

  const before = held()!;
  await remove(Array.from({ length: 1_100 }, (_, i) => `f${i + 10}`).filter((id) => id !== "f700"));
  copies.catchUp();
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(held()!.version, before.version, "more than the copy reads in part: left for the next search");
  await copies.search(TABLE, DIMS, gen.next(), undefined, 10);
  await current();
  assert.equal(held()!.rows, 1_500 - 2 - 1_099);
  await close();
});

test("catchUp: a copy let go while its catch-up ran (its int8 rows' file cut) is not held again", async () => {
  const rowsDir = join(dir, "letgo-rows");
  const { gen, state, rows, remove, logs, copies, current, close } = await bed("letgo", 17, 700, "g", 0, rowsDir);
  await copies.search(TABLE, DIMS, gen.next(), undefined, 10);
  await current();
  const [file] = readdirSync(rowsDir);
  truncateSync(join(rowsDir, file!), 0);
  await remove(["g3"]);
  copies.catchUp(); // the catch-up starts; the search meanwhile finds the file cut and lets the copy go
  assert.equal(await copies.search(TABLE, DIMS, rows[5]!.vector, ["a"], 10), undefined, "LanceDB answers");
  assert.match(logs.join("\n"), /the copy of t128 failed/);
  await new Promise((r) => setTimeout(r, 500)); // the catch-up ends
  const held = copies.status()[0];
  assert.ok(held === undefined || held.version === state.version(TABLE), `the copy let go is held again: ${JSON.stringify(held)}\n${logs.join("\n")}`);
  // and the next searches read it whole again, and it answers
  await copies.search(TABLE, DIMS, rows[5]!.vector, ["a"], 10);
  await current();
  assert.equal((await copies.search(TABLE, DIMS, rows[5]!.vector, ["a"], 10))?.[0]?.id, "g5");
  await close();
});

test("catchUp: rows only added wait for the next search (a float32 copy is copied whole to refresh: not every 5 s of an indexing session)", async () => {
  const { gen, write, remove, copies, held, current, close } = await bed("added", 19, 600, "a", 1_000_000);
  await copies.search(TABLE, DIMS, gen.next(), undefined, 10);
  await current();
  const first = held()!;
  await write([{ id: cleanText("a600"), project: cleanText("a"), vector: gen.next() }]);
  copies.catchUp();
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(held()!.version, first.version, "only added: left for the next search");
  // a removal is followed (with what was added meanwhile)
  await remove(["a7"]);
  copies.catchUp();
  await current();
  assert.equal(held()!.rows, 600);
  await close();
});

test("catchUp: a purge that takes a table of codes just under daemon.codeRows is followed in the copy's kind; the next search reads it whole as float32", async () => {
  const { gen, remove, copies, held, current, close } = await bed("kind", 23, 500, "k", 500);
  await copies.search(TABLE, DIMS, gen.next(), undefined, 10);
  await current();
  assert.ok(held()!.kernel.startsWith("codes"), held()!.kernel);
  await remove(["k3", "k9"]);
  copies.catchUp(); // 498 rows: under codeRows
  await current();
  assert.equal(held()!.rows, 498);
  assert.ok(held()!.kernel.startsWith("codes"), `refreshed in place, in its kind: ${held()!.kernel}`);
  const hits = await copies.search(TABLE, DIMS, gen.next(), undefined, 498);
  assert.ok(hits && !hits.some((h) => h.id === "k3" || h.id === "k9"), "the purged rows are gone");
  await close();
});
