import assert from "node:assert/strict";
import { modelInfo } from "../../src/embed/models.js";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { embedText } from "../../indexer/embed-step.js";
import type { OllamaConfig } from "../../src/config/config.js";
import { OllamaProvider } from "../../src/embed/ollama.js";
import type { EmbeddingProvider } from "../../src/embed/provider.js";
import { bm25Leg } from "../../src/retrieve/bm25.js";
import { startFakeOllama, type FakeOllama, type FakeOllamaOptions } from "../helpers/fake-ollama.js";
import { HashEmbedder, hashVector } from "../helpers/hash-embedder.js";
import { cleanText } from "../../src/redact/clean.cjs";
import {
  assertFtsConsistent,
  assertVectorsMatch,
  bumpMtime,
  chunkRows,
  lanceRows,
  makeEnv,
  sourceRows,
  tableOf,
  type IndexerEnv,
} from "../helpers/indexer-env.js";

const envs: IndexerEnv[] = [];
const servers: FakeOllama[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await Promise.all(envs.map((e) => e.close()));
});
function env(tag: string, configure?: Parameters<typeof makeEnv>[1]): IndexerEnv {
  const e = makeEnv(tag, configure);
  envs.push(e);
  return e;
}
async function fake(opts: FakeOllamaOptions): Promise<FakeOllama> {
  const s = await startFakeOllama(opts);
  servers.push(s);
  return s;
}
function ollama(host: string, model: string, over: Partial<OllamaConfig> = {}): OllamaProvider {
  return new OllamaProvider({ host, model, timeoutMs: 5_000, healthTimeoutMs: 1_000, ...over });
}

const bm25 = (e: IndexerEnv, q: string, project = "p1") => bm25Leg(e.db, q, { projects: [project] }, 20).map((h) => h.id);

/** `files` markdown files of three one-chunk sections each, every section with a unique word. */
function writeSections(e: IndexerEnv, files: number, root = "mem"): number {
  for (let f = 0; f < files; f++) {
    const body = [0, 1, 2].map((s) => `# File ${f} section ${s}\n\nUnique word w${f}x${s}q and some shared filler text.\n`).join("\n");
    e.write(`${root}/notes-${f}.md`, body);
  }
  return files * 3;
}

/** Nine chunks of p1 (under mem/) and one of p2 (under other/), all embedded by one hash model. */
async function indexTwoProjects(e: IndexerEnv): Promise<{ total: number; embedder: HashEmbedder; table: string }> {
  const total = writeSections(e, 3);
  e.write("other/shared.md", "# Shared\n\nThe narwhal belongs to p2.\n");
  const embedder = new HashEmbedder();
  await e.run({ roots: ["mem"], providers: [embedder] });
  await e.run({ roots: ["other"], project: "p2", providers: [embedder] });
  return { total, embedder, table: tableOf(embedder, 64) };
}

/** Every row of `table` has `dims` numbers, equal to the given model's vector for that chunk's text. */
async function assertRowsAreModel(e: IndexerEnv, table: string, dims: number): Promise<number> {
  const rows = await lanceRows(await e.vectors(), table);
  const byId = new Map(e.db.prepare("SELECT id, heading, text FROM chunks").all().map((c) => [(c as { id: string }).id, c as { heading: string; text: string }]));
  for (const r of rows) {
    assert.equal(r.vector.length, dims, `row ${r.id} of ${table} has ${r.vector.length} dims`);
    const chunk = byId.get(r.id);
    assert.ok(chunk, `row ${r.id} of ${table} has no chunk`);
    const want = hashVector(embedText(chunk), dims);
    r.vector.forEach((x, i) => assert.ok(Math.abs(x - want[i]!) < 1e-5, `row ${r.id} of ${table} is not this model's vector`));
  }
  return rows.length;
}

describe("interrupted vector step", () => {
  test("the only provider failing part way leaves SQLite complete and the stored vectors consistent; the next run embeds only the missing ones", async () => {
    const e = env("interrupted", (c) => (c.embedding.batchSize = 4));
    const total = writeSections(e, 6);
    const embedder = new HashEmbedder();
    embedder.failAfterTexts = 10;
    const table = tableOf(embedder, 64);

    const s = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.equal(s.vector.status, "skipped");
    assert.match(s.vector.reason ?? "", /every provider failed/);
    assert.match(s.vector.reason ?? "", /simulated failure/);
    assert.equal(s.vector.failovers.length, 1);
    assert.match(s.vector.failovers[0]!, /^hash \(hash-test\) failed mid-run: hash embedder: simulated failure/);
    assert.ok(s.warnings.some((w) => /simulated failure; trying the next provider/.test(w)));
    assert.equal(e.db.prepare("SELECT status FROM runs ORDER BY id DESC LIMIT 1").pluck().get(), "vector-skipped");

    // SQLite: every file and chunk is there and searchable.
    assert.equal(s.files.indexed, 6);
    assert.equal(s.chunks.total, total);
    assert.equal(chunkRows(e.db, "p1").length, total);
    assert.equal(bm25(e, "w5x2q").length, 1);
    assertFtsConsistent(e.db);

    // LanceDB: exactly what was embedded before the failure, and SQLite records exactly that.
    assert.ok(embedder.texts > 0 && embedder.texts < total, `partial: ${embedder.texts} of ${total}`);
    const stored = await assertVectorsMatch(e, table, { complete: false });
    assert.equal(stored.length, embedder.texts, "every computed vector was kept");
    assert.equal(e.state.count(table), stored.length);
    assert.equal(await (await e.vectors()).count(table), stored.length);

    // Second run, working embedder: only the missing ones.
    embedder.failAfterTexts = undefined;
    const before = embedder.texts;
    const again = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.equal(again.vector.status, "ok");
    assert.equal(again.files.unchanged, 6);
    assert.equal(again.vector.embedded, total - stored.length);
    assert.equal(embedder.texts - before, total - stored.length);
    const ids = await assertVectorsMatch(e, table, { complete: true, projects: ["p1"] });
    assert.equal(ids.length, total);
    for (const id of stored) assert.ok(ids.includes(id), "vectors of the first run are kept, not replaced");
    assert.equal(await assertRowsAreModel(e, table, 64), total);
  });

  test("a crash between the LanceDB write and the SQLite record: the next run adopts those rows, embeds nothing again, duplicates nothing", async () => {
    const e = env("crash-window");
    const total = writeSections(e, 3);
    const embedder = new HashEmbedder();
    await e.run({ roots: ["mem"], providers: [embedder] });
    const table = tableOf(embedder, 64);
    // What a kill right after `upsert` and before `mark` leaves behind: rows LanceDB has, SQLite does not know.
    const forgotten = chunkRows(e.db, "p1").slice(2, 6).map((c) => c.id);
    e.state.unmark(table, forgotten);
    assert.equal(e.state.count(table), total - 4);
    assert.equal(await (await e.vectors()).count(table), total);

    const texts = embedder.texts;
    const s = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.equal(s.vector.embedded, 0, "the vectors were written: same content hash, same model");
    assert.equal(embedder.texts, texts);
    assert.ok(s.warnings.some((w) => w.includes("out of step with SQLite: 4 rows recorded, 0 stray rows deleted, 0 lost")), s.warnings.join("\n"));
    const ids = await assertVectorsMatch(e, table, { complete: true, projects: ["p1"] });
    assert.equal(ids.length, total, "upsert by id: no duplicate rows");
  });
});

describe("damaged LanceDB tables", () => {
  test("a table deleted behind our back is detected and rebuilt by the next run, with every project's vectors", async () => {
    const e = env("table-deleted");
    const { total, embedder, table } = await indexTwoProjects(e);
    assert.deepEqual(readdirSync(e.lanceDir), [`${table}.lance`]);

    rmSync(join(e.lanceDir, `${table}.lance`), { recursive: true });
    const texts = embedder.texts;
    const s = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.ok(s.warnings.some((w) => w.includes(table) && /missing; its 10 vectors, of every project, are rebuilt/.test(w)), s.warnings.join("\n"));
    assert.equal(s.vector.status, "ok");
    assert.equal(s.vector.embedded, total + 1, "p1's and p2's");
    assert.equal(embedder.texts - texts, total + 1);
    await assertVectorsMatch(e, table, { complete: true, projects: ["p1", "p2"] });

    // Same again seen by a fresh connection (a new `mem` process), with the whole lance dir gone.
    e.reopenVectors();
    rmSync(e.lanceDir, { recursive: true });
    const s2 = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.equal(s2.vector.status, "ok");
    assert.equal(s2.vector.embedded, total + 1);
    await assertVectorsMatch(e, table, { complete: true, projects: ["p1", "p2"] });
  });

  test("LanceDB and SQLite out of step: rows SQLite lost are adopted without re-embedding, stray rows deleted, rows LanceDB lost embedded again", async () => {
    const e = env("out-of-step");
    const total = writeSections(e, 3);
    const embedder = new HashEmbedder();
    await e.run({ roots: ["mem"], providers: [embedder] });
    const table = tableOf(embedder, 64);
    const store = await e.vectors();
    const [lostInLance, ...rest] = chunkRows(e.db, "p1").map((c) => c.id);

    // SQLite forgot half its records (restored from an older backup, say); LanceDB gained a row of
    // no chunk (a run killed between its two writes, for a chunk since deleted) and lost one.
    const forgotten = rest.slice(0, 4);
    e.state.unmark(table, forgotten);
    await store.upsert(table, [{ id: cleanText("no-such-chunk"), project: cleanText("p1"), vector: hashVector("gone", 64) }]);
    await store.delete(table, [lostInLance!]);

    const texts = embedder.texts;
    const s = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.equal(s.vector.status, "ok", s.vector.reason);
    assert.ok(s.warnings.some((w) => w.includes(`${table} was out of step with SQLite: 4 rows recorded, 1 stray rows deleted, 1 lost vectors to embed again`)), s.warnings.join("\n"));
    assert.equal(s.vector.embedded, 1, "only the vector LanceDB lost");
    assert.equal(embedder.texts - texts, 1);
    assert.equal(s.vector.removed, 1);
    await assertVectorsMatch(e, table, { complete: true, projects: ["p1"] });
    assert.equal(await store.count(table), total);

    const again = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.deepEqual([again.vector.embedded, again.vector.removed, again.warnings], [0, 0, []], "in step again: nothing to do");
  });

  test("a corrupted manifest makes a normal run skip the vector step with a `mem index --full` hint; --full rebuilds it", async () => {
    const e = env("corrupt-manifest");
    const { total, embedder, table } = await indexTwoProjects(e);
    await assertVectorsMatch(e, table, { complete: true, projects: ["p1", "p2"] });

    // A new process finds every version manifest of the table overwritten (e.g. a torn write).
    e.reopenVectors();
    const versions = join(e.lanceDir, `${table}.lance`, "_versions");
    const manifests = readdirSync(versions).filter((f) => f.endsWith(".manifest"));
    assert.ok(manifests.length > 0, `LanceDB keeps its manifests in _versions: ${readdirSync(versions).join(", ")}`);
    for (const m of manifests) writeFileSync(join(versions, m), "garbage");

    // A normal run: text side fine (an edit is indexed), vector side skipped with the fix named.
    const edited = join(e.dir, "mem", "notes-0.md");
    writeFileSync(edited, "# File 0 section 0\n\nRewritten: the beluga arrives.\n");
    bumpMtime(edited);
    const texts = embedder.texts;
    const s = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.equal(s.vector.status, "skipped");
    assert.ok(s.vector.reason?.includes(table), s.vector.reason);
    assert.match(s.vector.reason ?? "", /unreadable.*run `mem index --full` to rebuild it/);
    assert.equal(embedder.texts, texts, "nothing embedded into a table that cannot be read");
    assert.equal(s.files.indexed, 1);
    assert.equal(bm25(e, "beluga").length, 1);
    assertFtsConsistent(e.db);
    assert.equal(e.db.prepare("SELECT status FROM runs ORDER BY id DESC LIMIT 1").pluck().get(), "vector-skipped");

    // --full: the table is rebuilt; this project is complete again.
    const full = await e.run({ roots: ["mem"], full: true, providers: [embedder] });
    const p1Total = chunkRows(e.db, "p1").length;
    assert.equal(full.vector.status, "ok", full.vector.reason);
    assert.ok(full.warnings.some((w) => w.includes(table) && /rebuilding it from scratch, with every project's vectors/.test(w)), full.warnings.join("\n"));
    assert.equal(p1Total, total - 2, "section 0 of notes-0 replaced three sections");
    // The old table held p2's vectors too: they go back in the same run, nothing is left without.
    assert.equal(full.vector.embedded, p1Total + 1);
    await assertVectorsMatch(e, table, { complete: true, projects: ["p1", "p2"] });
    const p2 = await e.run({ roots: ["other"], project: "p2", providers: [embedder] });
    assert.equal(p2.vector.embedded, 0);
  });

  test("corrupted data files make a run that has to touch them skip with a `mem index --full` hint; --full rebuilds", async () => {
    const e = env("corrupt-data");
    const total = writeSections(e, 3);
    const embedder = new HashEmbedder();
    await e.run({ roots: ["mem"], providers: [embedder] });
    const table = tableOf(embedder, 64);

    e.reopenVectors();
    const data = join(e.lanceDir, `${table}.lance`, "data");
    const files = readdirSync(data).filter((f) => f.endsWith(".lance"));
    assert.ok(files.length > 0);
    for (const f of files) writeFileSync(join(data, f), "garbage");

    // New content only (no orphan to delete): the write itself hits the damage.
    e.write("mem/extra.md", "# Extra\n\nThe manatee is new.\n");
    const s = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.equal(s.vector.status, "skipped");
    assert.ok(s.vector.reason?.includes(table), s.vector.reason);
    assert.match(s.vector.reason ?? "", /run `mem index --full`/);
    assert.equal(bm25(e, "manatee").length, 1);
    // Whatever LanceDB holds, SQLite does not claim more than was there before.
    assert.equal(e.state.count(table), total);

    // A removed file (orphan rows to delete) hits it in the table's preparation.
    rmSync(join(e.dir, "mem", "notes-2.md"));
    const s2 = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.equal(s2.vector.status, "skipped");
    assert.match(s2.vector.reason ?? "", /run `mem index --full`/);

    e.reopenVectors();
    const full = await e.run({ roots: ["mem"], full: true, providers: [embedder] });
    assert.equal(full.vector.status, "ok", full.vector.reason);
    assert.equal(full.vector.embedded, total - 3 + 1);
    await assertVectorsMatch(e, table, { complete: true, projects: ["p1"] });
    assert.equal(await assertRowsAreModel(e, table, 64), total - 3 + 1);
  });
});

describe("provider failover", () => {
  test("Ollama A dies mid-run over real HTTP: the run fails over to Ollama B, no table mixes models, and A's table is filled once A is back", async () => {
    const e = env("ollama-failover", (c) => {
      c.embedding.batchSize = 2;
      c.embedding.concurrency = 2;
    });
    const total = writeSections(e, 5);
    const serverA = await fake({ models: ["nomic-embed-text:latest"], dims: 64 });
    const serverB = await fake({ models: ["mxbai-embed-large:latest"], dims: 32 });
    serverA.dieAfterEmbedRequests(2); // the health probe and one batch
    const providerA = ollama(serverA.url, "nomic-embed-text");
    const providerB = ollama(serverB.url, "mxbai-embed-large");
    const tableA = tableOf(providerA, 64);
    const tableB = tableOf(providerB, 32);

    const s = await e.run({ roots: ["mem"], providers: [providerA, providerB] });
    assert.equal(s.vector.status, "ok", s.vector.reason);
    assert.equal(s.vector.provider, "ollama");
    assert.equal(s.vector.model, "mxbai-embed-large");
    assert.equal(s.vector.table, tableB);
    assert.equal(s.vector.dims, 32);
    assert.equal(s.vector.embedded, total);
    assert.equal(s.vector.failovers.length, 1, s.vector.failovers.join("\n"));
    assert.match(s.vector.failovers[0]!, /^ollama \(nomic-embed-text\) failed mid-run: .*cannot reach the server/);
    assert.ok(s.vector.failovers[0]!.includes(serverA.url));
    assert.ok(s.warnings.some((w) => /failed mid-run.*trying the next provider/.test(w)));
    assert.deepEqual(s.vector.unavailable, []);

    // B holds every chunk; A holds what it answered before dying; each table is one model's.
    await assertVectorsMatch(e, tableB, { complete: true, projects: ["p1"] });
    assert.equal(await assertRowsAreModel(e, tableB, 32), total);
    const storedA = await assertVectorsMatch(e, tableA, { complete: false });
    assert.ok(storedA.length >= 2 && storedA.length < total, `A stored ${storedA.length} of ${total}`);
    assert.equal(await assertRowsAreModel(e, tableA, 64), storedA.length);
    assert.deepEqual(
      e.state.tables().map((t) => [t.name, t.provider, t.model, t.dims]).sort(),
      [[tableA, "ollama", "nomic-embed-text", 64], [tableB, "ollama", "mxbai-embed-large", 32]].sort(),
    );
    // Beside them, B was asked queries: its health probe, and the calibration's pseudo-queries after the run.
    const asQueries = (server: FakeOllama, model: string) => server.inputs.filter((t) => t.startsWith(modelInfo(model).entry.prefixes.query)).length;
    assert.ok(asQueries(serverB, "mxbai-embed-large") > 1, "the calibration asked its pseudo-queries");
    assert.equal(serverB.texts - asQueries(serverB, "mxbai-embed-large"), total, "B embedded every chunk once as a document");

    // A comes back (a new server with the same model): A is first again and fills its own table.
    const serverA2 = await fake({ models: ["nomic-embed-text:latest"], dims: 64 });
    const providerA2 = ollama(serverA2.url, "nomic-embed-text");
    const bTexts = serverB.texts;
    const again = await e.run({ roots: ["mem"], providers: [providerA2, providerB] });
    assert.equal(again.vector.status, "ok", again.vector.reason);
    assert.equal(again.vector.table, tableA);
    assert.equal(again.vector.embedded, total - storedA.length);
    assert.deepEqual(again.vector.failovers, []);
    assert.equal(serverA2.texts - asQueries(serverA2, "nomic-embed-text"), total - storedA.length, "only A's missing chunks as documents (beside the probe and the calibration)");
    assert.equal(serverB.texts, bTexts, "B is not asked when A is healthy");
    await assertVectorsMatch(e, tableA, { complete: true, projects: ["p1"] });
    assert.equal(await assertRowsAreModel(e, tableA, 64), total);
    await assertVectorsMatch(e, tableB, { complete: true, projects: ["p1"] });
  });

  test("Ollama down from the start is listed as unavailable; Ollama answering garbage mid-run fails over to the hash embedder", async () => {
    const e = env("ollama-garbage", (c) => (c.embedding.batchSize = 3));
    const total = writeSections(e, 3);
    const dead = await fake({ dims: 64 });
    await dead.close();
    const fallback = new HashEmbedder("hash-fallback", 32);

    const down = await e.run({ roots: ["mem"], providers: [ollama(dead.url, "nomic-embed-text"), fallback] });
    assert.equal(down.vector.status, "ok");
    assert.equal(down.vector.model, "hash-fallback");
    assert.equal(down.vector.unavailable.length, 1);
    assert.match(down.vector.unavailable[0]!, /^ollama \(nomic-embed-text\): .*cannot reach the server/);
    assert.deepEqual(down.vector.failovers, []);
    await assertVectorsMatch(e, tableOf(fallback, 32), { complete: true, projects: ["p1"] });

    // Healthy at the check, then malformed answers: a non-retryable error, nothing of it is stored.
    const server = await fake({ dims: 64 });
    const real = ollama(server.url, "nomic-embed-text");
    const provider: EmbeddingProvider = {
      name: real.name,
      model: real.model,
      async health() {
        const h = await real.health();
        server.setMalformed("ragged"); // the server turns bad right after answering the health probe
        return h;
      },
      embed: (texts, kind) => real.embed(texts, kind),
    };
    e.write("mem/late.md", "# Late\n\nThe dolphin arrives late.\n");
    const s = await e.run({ roots: ["mem"], providers: [provider, fallback] });
    assert.equal(s.vector.status, "ok");
    assert.equal(s.vector.model, "hash-fallback");
    assert.equal(s.vector.embedded, 1, "the fallback only needed the new chunk");
    assert.equal(s.vector.failovers.length, 1);
    assert.match(s.vector.failovers[0]!, /^ollama \(nomic-embed-text\) failed mid-run: .*malformed \/api\/embed answer/);
    assert.ok(server.requests >= 2, "the bad answer came from a real embed request after the probe");
    const tableA = tableOf(provider, 64);
    assert.equal(await (await e.vectors()).count(tableA), 0, "no vector from a malformed answer is stored");
    assert.equal(e.state.count(tableA), 0);
    await assertVectorsMatch(e, tableOf(fallback, 32), { complete: true, projects: ["p1"] });
    assert.equal(chunkRows(e.db, "p1").length, total + 1);
    assert.equal(sourceRows(e.db, "p1").length, 4);
  });
});
