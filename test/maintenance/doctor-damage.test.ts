/** `mem doctor` on damaged, empty and healthy stores: never a crash, the damage as a failed check with its fix. */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { checkpoint, damagePages, lanceDataFile, overwrite, pagesByName } from "../helpers/damage.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { VectorStore } from "../../src/store/vectors.js";
import { cleanEnv, jsonOf, runMem, show, type Check } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-doctor-damage-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

function notes(dir: string): string {
  mkdirSync(join(dir, "archive"), { recursive: true });
  writeFileSync(join(dir, "state.md"), "# State\n\nThe billing service moves to the new queue next sprint.\n");
  writeFileSync(join(dir, "archive", "old.md"), "# Old\n\nWe once kept invoices in a spreadsheet.\n");
  return dir;
}

const checksOf = (r: Awaited<ReturnType<typeof runMem>>) => {
  const out = jsonOf<{ ok: boolean; checks: Check[] }>(r);
  assert.deepEqual(Object.keys(out).sort(), ["assistants", "checks", "daemon", "ok"], "the --json shape is kept (assistants: where each is wired; daemon: its memory, or null)");
  for (const c of out.checks) assert.ok(typeof c.name === "string" && ["ok", "warn", "error"].includes(c.status) && typeof c.detail === "string", JSON.stringify(c));
  return out;
};

describe("mem doctor on a damaged SQLite store", () => {
  const home = join(tmp, "home-sqlite");
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home };
  before(async () => {
    const r = await runMem(["index", notes(join(tmp, "notes-a"))], { env });
    assert.equal(r.code, 0, show(r));
  });

  test("healthy: exit 0, the sqlite check is ok", async () => {
    const r = await runMem(["doctor", "--json"], { env });
    assert.equal(r.code, 0, show(r));
    const sqlite = checksOf(r).checks.find((c) => c.name === "sqlite");
    assert.equal(sqlite?.status, "ok", show(r));
  });

  test("garbage over the schema page: no crash, exit 1, a failed sqlite check naming the repair; the other checks still run", async () => {
    const file = join(home, "mem.sqlite");
    checkpoint(file);
    damagePages(file, [1]);
    const [j, human] = await Promise.all([runMem(["doctor", "--json"], { env }), runMem(["doctor"], { env })]);
    assert.equal(j.code, 1, show(j));
    assert.equal(j.stderr, "", show(j));
    const out = checksOf(j);
    assert.equal(out.ok, false);
    const sqlite = out.checks.find((c) => c.name === "sqlite");
    assert.equal(sqlite?.status, "error", show(j));
    assert.match(sqlite!.detail, /damaged/);
    assert.match(sqlite!.fix ?? "", /mem doctor --repair/);
    for (const name of ["data home", "embedding", "hooks"]) assert.ok(out.checks.some((c) => c.name === name), `${name} still checked\n${show(j)}`);
    assert.equal(human.code, 1, show(human));
    assert.match(human.stdout, /\[FAIL\] sqlite: .*damaged[\s\S]*fix: .*mem doctor --repair/);
  });

  test("a store truncated to 0 bytes is reported, not taken for a new empty one", async () => {
    const h = join(tmp, "home-empty");
    const e = { ...env, MEM_HOME: h };
    assert.equal((await runMem(["index", notes(join(tmp, "notes-b"))], { env: e })).code, 0);
    const file = join(h, "mem.sqlite");
    checkpoint(file);
    writeFileSync(file, "");
    utimesSync(file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const r = await runMem(["doctor", "--json"], { env: e });
    assert.equal(r.code, 1, show(r));
    const sqlite = checksOf(r).checks.find((c) => c.name === "sqlite");
    assert.equal(sqlite?.status, "error", show(r));
    assert.match(sqlite!.detail, /empty \(0 bytes\)/);
    assert.match(sqlite!.fix ?? "", /mem doctor --repair/);
  });

  test("garbage in a table's pages (schema intact) is a failed check naming the repair", async () => {
    const h = join(tmp, "home-pages");
    const e = { ...env, MEM_HOME: h };
    assert.equal((await runMem(["index", notes(join(tmp, "notes-c"))], { env: e })).code, 0);
    const file = join(h, "mem.sqlite");
    checkpoint(file);
    damagePages(file, pagesByName(file).get("chunks")!);
    const r = await runMem(["doctor", "--json"], { env: e });
    assert.equal(r.code, 1, show(r));
    const sqlite = checksOf(r).checks.find((c) => c.name === "sqlite");
    assert.equal(sqlite?.status, "error", show(r));
    assert.match(sqlite!.fix ?? "", /mem doctor --repair/);
  });
});

describe("mem doctor on a damaged LanceDB table", () => {
  const home = join(tmp, "home-lance");
  let ollama: FakeOllama;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    ollama = await startFakeOllama({ dims: 64 });
    env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, MEM_EMBED_ORDER: "ollama", MEM_OLLAMA_HOST: ollama.url };
    const dir = join(tmp, "notes-lance");
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 40; i++) writeFileSync(join(dir, `n${i}.md`), `# Note ${i}\n\nTopic ${i}: the deployment pipeline step ${i} and its rollback.\n`);
    const r = await runMem(["index", dir], { env });
    assert.equal(r.code, 0, show(r));
  });
  after(async () => ollama?.close());

  test("garbage in the vectors of a .lance data file: every row is read, and the table fails its check", async () => {
    const ok = await runMem(["doctor", "--json"], { env });
    assert.equal(ok.code, 0, show(ok));
    // Garbage over the middle of one stored vector: rows still count and a top-1 search still answers.
    const store = await VectorStore.open(join(home, "vectors"));
    const [first] = (await (await store.table("v_ollama_nomic_embed_text_64_p03aa22a9")).query().limit(1).toArray()) as { vector: { toArray(): Float32Array } }[];
    store.close();
    const vec = Float32Array.from(first!.vector.toArray());
    const bytes = Buffer.from(vec.buffer, vec.byteOffset, vec.byteLength);
    const file = lanceDataFile(join(home, "vectors", "v_ollama_nomic_embed_text_64_p03aa22a9.lance"));
    const at = readFileSync(file).indexOf(bytes);
    assert.ok(at > 0, "the vector is stored as is");
    overwrite(file, at + 64, 128);
    const r = await runMem(["doctor", "--json"], { env });
    assert.equal(r.code, 1, show(r));
    const lance = checksOf(r).checks.find((c) => c.name.startsWith("lancedb v_ollama"));
    assert.equal(lance?.status, "error", show(r));
    assert.match(lance!.detail, /damaged|unreadable/);
    assert.match(lance!.fix ?? "", /mem doctor --repair/);
  });
});
