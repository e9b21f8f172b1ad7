/**
 * BM25 only is a choice `mem doctor --bm25-only` records in config.json: from then on doctor
 * says so in one ok line (and how to undo it), query prints no vector note, reindex succeeds
 * saying "BM25 only". Without that choice, a model that answered once and stops fails loudly.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { withChoice } from "../../src/config/choice.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { cleanEnv, jsonOf, runMem, show, type Check } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-bm25-choice-")));
let fake: FakeOllama | undefined;
after(async () => {
  await fake?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe("withChoice: config.json with the choice applied, every other key kept", () => {
  const cases: { name: string; before: Record<string, unknown>; choice: "bm25-only" | "vectors"; after: Record<string, unknown>; changed: boolean }[] = [
    { name: "no file yet: BM25 only", before: {}, choice: "bm25-only", after: { embedding: { order: [] } }, changed: true },
    { name: "other keys kept", before: { query: { k: 5 }, embedding: { batchSize: 8 } }, choice: "bm25-only", after: { query: { k: 5 }, embedding: { batchSize: 8, order: [] } }, changed: true },
    { name: "a chosen order replaced", before: { embedding: { order: ["ollama"] } }, choice: "bm25-only", after: { embedding: { order: [] } }, changed: true },
    { name: "already BM25 only", before: { embedding: { order: [] } }, choice: "bm25-only", after: { embedding: { order: [] } }, changed: false },
    { name: "undo: the key goes, and `embedding` when it held nothing else", before: { query: { k: 5 }, embedding: { order: [] } }, choice: "vectors", after: { query: { k: 5 } }, changed: true },
    { name: "undo keeps the rest of `embedding`", before: { embedding: { order: [], batchSize: 8 } }, choice: "vectors", after: { embedding: { batchSize: 8 } }, changed: true },
    { name: "undo with nothing chosen: nothing to change", before: { embedding: { order: ["transformers"] } }, choice: "vectors", after: { embedding: { order: ["transformers"] } }, changed: false },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const r = withChoice(c.before, c.choice);
      assert.deepEqual(r, { config: c.after, changed: c.changed });
    });
  }
  test("an `embedding` that is no object is refused", () => {
    assert.throws(() => withChoice({ embedding: [] }, "bm25-only"), /"embedding" must be an object/);
  });
});

describe("mem doctor --bm25-only, spawned", () => {
  test("a model that worked and stopped fails loudly; after --bm25-only nothing asks for a model; --use-vectors undoes it", async () => {
    fake = await startFakeOllama({ dims: 32 });
    const proj = join(tmp, "proj");
    const home = join(tmp, "home");
    mkdirSync(join(proj, ".git"), { recursive: true });
    mkdirSync(join(proj, "memory"), { recursive: true });
    mkdirSync(home, { recursive: true, mode: 0o700 });
    writeFileSync(join(proj, "memory", "db.md"), "# Storage\n\nWe keep metadata in SQLite.\n");
    const userConfig = '{\n    "query": { "k": 5 }\n}\n';
    writeFileSync(join(home, "config.json"), userConfig);
    const env: NodeJS.ProcessEnv = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp, MEM_OLLAMA_HOST: fake.url, MEM_MODELS_DIR: join(tmp, "no-models") };
    delete env.MEM_EMBED_ORDER; // the choice is config.json's
    const mem = (args: string[]) => runMem(args, { env, cwd: proj });
    const embedding = async () => jsonOf<{ checks: Check[] }>(await mem(["doctor", "--json"])).checks.filter((c) => /^(embedding|ollama|transformers)$/.test(c.name));

    const ix = await mem(["index", "memory"]);
    assert.equal(ix.code, 0, show(ix));
    assert.equal(ix.stderr, "", "a model answered: no note");

    // The model stops: loud everywhere (exit 3, the note, doctor's warning).
    await fake.close();
    const down = await mem(["reindex", "-q"]);
    assert.equal(down.code, 3, show(down));
    assert.match(down.stderr, /vector step skipped/);
    rmSync(join(home, "no-model-said"), { force: true }); // said at most once a day: as if a day had passed
    assert.match((await mem(["query", "metadata"])).stderr, /^note: no embedding model: search is BM25 only \(`mem doctor` for vector search\)$/m);
    assert.ok((await embedding()).some((c) => c.status === "warn"));

    // The user chooses BM25.
    const chose = await mem(["doctor", "--bm25-only"]);
    assert.equal(chose.code, 0, show(chose));
    assert.equal(chose.stdout, `BM25 only, by your choice: recorded in ${join(home, "config.json")} (embedding.order: []). Undo: \`mem doctor --use-vectors\`\n`);
    assert.deepEqual(JSON.parse(readFileSync(join(home, "config.json"), "utf8")), { query: { k: 5 }, embedding: { order: [] } });
    const checks = await embedding();
    assert.deepEqual(checks.map((c) => [c.name, c.status]), [["embedding", "ok"]], "no provider is tried, none warned about");
    assert.match(checks[0]!.detail, /^BM25 only, by your choice \(embedding\.order is empty in config\.json\).*to add one: `mem doctor --use-vectors`$/);
    const doctorText = await mem(["doctor"]);
    assert.equal(doctorText.stdout.split("\n").filter((l) => /BM25 only/.test(l)).length, 1, "one line");
    assert.doesNotMatch(doctorText.stdout, /\[warn\] (embedding|ollama|transformers)/);
    const q = await mem(["query", "metadata"]);
    assert.equal(q.code, 0, show(q));
    assert.match(q.stdout, /db\.md/);
    assert.equal(q.stderr, "", "no vector note");
    const r = await mem(["reindex"]);
    assert.equal(r.code, 0, show(r));
    assert.match(r.stdout, /\n {2}vectors: BM25 only, by your choice/);
    assert.match(readFileSync(join(home, "maintenance.log"), "utf8"), /reindex ok \(BM25 only, by your choice\)/);
    assert.equal((await mem(["doctor", "--bm25-only"])).stdout.includes("as it was already"), true);

    // Undone: the file as it was in substance, and the silent model fails loudly again.
    const undo = await mem(["doctor", "--use-vectors", "--json"]);
    assert.deepEqual(jsonOf(undo), { config: join(home, "config.json"), changed: true, choice: "vectors" });
    assert.deepEqual(JSON.parse(readFileSync(join(home, "config.json"), "utf8")), { query: { k: 5 } });
    assert.equal((await mem(["reindex", "-q"])).code, 3);
  });

  test("--bm25-only refuses a config.json that is not JSON, and changes nothing", async () => {
    const home = join(tmp, "home-bad");
    mkdirSync(home, { recursive: true, mode: 0o700 });
    writeFileSync(join(home, "config.json"), "{ not json");
    const r = await runMem(["doctor", "--bm25-only"], { env: { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp } });
    assert.equal(r.code, 1, show(r));
    assert.match(r.stderr, /is not valid JSON .*nothing was written/);
    assert.equal(readFileSync(join(home, "config.json"), "utf8"), "{ not json");
    assert.equal((await runMem(["doctor", "--bm25-only", "--repair"], { env: { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp } })).code, 2);
  });
});
