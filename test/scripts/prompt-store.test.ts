/**
 * bench:prompt's store, written straight into SQLite/FTS5, LanceDB and vec_rows
 * (scripts/bench/prompt-store.ts), is the store the indexer would leave: `mem doctor` finds FTS5
 * consistent, no drift, and every LanceDB row recorded; the BM25 leg finds a written chunk by its
 * words; and the indexer then adds a fresh batch to it (scripts/bench/prompt-legs.ts).
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { openApp } from "../../src/app.js";
import { bm25Leg } from "../../src/retrieve/bm25.js";
import { VecState } from "../../src/store/vec-state.js";
import { buildStore, bulkId } from "../../scripts/bench/prompt-store.js";
import { indexThroughput } from "../../scripts/bench/prompt-legs.js";
import { startFakeOllama } from "../helpers/fake-ollama.js";
import { cleanEnv, jsonOf, runMem, show, type Check } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-prompt-store-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("bench:prompt's store is one the indexer would leave, and the indexer adds to it", async () => {
  const fake = await startFakeOllama({ dims: 64 });
  try {
    const home = join(tmp, "home");
    const proj = join(tmp, "proj");
    mkdirSync(home, { mode: 0o700 });
    mkdirSync(join(proj, ".git"), { recursive: true });
    writeFileSync(join(home, "config.json"), JSON.stringify({ embedding: { order: ["ollama"], ollama: { host: fake.url } }, index: { watch: false } }));
    const env: NodeJS.ProcessEnv = { ...cleanEnv(join(tmp, "claude")), HOME: tmp, MEM_HOME: home };
    delete env.MEM_EMBED_ORDER;
    let app = openApp(env);
    const built = await buildStore(app, proj, 250, 64, () => undefined);
    const state = new VecState(app.db);
    const chunks = app.db.prepare("SELECT count(*) FROM chunks WHERE project = ?").pluck().get(built.project) as number;
    assert.equal(chunks, 251, "the seed note's chunk and 250 written");
    assert.equal(state.count(built.table), 251);
    assert.equal(await (await app.vectors()).count(built.table), 251);
    // A written chunk is found by the words of its text, as the indexer's would be.
    const c = app.db.prepare("SELECT id, text FROM chunks WHERE id = ?").get(bulkId(123)) as { id: string; text: string };
    const words = c.text.split(/[ .]+/).filter((w) => w.length > 6).slice(0, 4).join(" ");
    assert.ok(bm25Leg(app.db, words, { projects: [built.project] }, 30).some((h) => h.id === c.id), `found by "${words}"`);
    await app.close();

    const r = await runMem(["doctor", "--json"], { env, cwd: proj });
    const checks = jsonOf<{ checks: Check[] }>(r).checks;
    const status = (name: string) => checks.find((x) => x.name === name)?.status;
    assert.deepEqual([status("fts5"), status("drift"), status(`lancedb ${built.table}`)], ["ok", "ok", "ok"], show(r));

    app = openApp(env);
    const batch = await indexThroughput(app, proj, 100);
    assert.ok(batch.chunks >= 100, `the batch's sections are chunks: ${batch.chunks}`);
    assert.equal(new VecState(app.db).count(built.table), 251 + batch.chunks, "and get their vectors");
    await app.close();
  } finally {
    await fake.close();
  }
});
