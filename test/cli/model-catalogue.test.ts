/**
 * The catalogue end to end, through the real CLI and a loopback Ollama: what `mem index` and
 * `mem query` send for nomic-embed-text, the new table a change of prefix policy builds (said
 * once, the old table kept), and what `mem doctor` says of a known and an unknown model.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { git } from "../helpers/git.js";
import { cleanEnv, runMem, type Run } from "../helpers/mem-cli.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-model-catalogue-"));
const OLD = "v_ollama_nomic_embed_text_64";
const NEW = "v_ollama_nomic_embed_text_64_p03aa22a9";
let ollama: FakeOllama;

before(async () => {
  ollama = await startFakeOllama({ models: ["nomic-embed-text:latest", "my-embedder:latest"], dims: 64 });
});
after(async () => {
  await ollama?.close();
  rmSync(tmp, { recursive: true, force: true });
});

function env(home: string, model = "nomic-embed-text"): NodeJS.ProcessEnv {
  return { ...cleanEnv(join(tmp, ".claude")), HOME: tmp, MEM_HOME: home, MEM_EMBED_ORDER: "ollama", MEM_OLLAMA_HOST: ollama.url, MEM_OLLAMA_MODEL: model };
}

function project(name: string): string {
  const dir = join(tmp, "work", name);
  mkdirSync(join(dir, "notes"), { recursive: true });
  git(dir, "init", "-q");
  writeFileSync(join(dir, "notes", "db.md"), "# Database\n\nWe use advisory locks for the job queue.\n");
  writeFileSync(join(dir, "notes", "deploy.md"), "# Deploy\n\nDeploys run on Fridays after the smoke tests.\n");
  return dir;
}

const show = (r: Run) => `code ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;

describe("nomic-embed-text through mem index and mem query", () => {
  const home = join(tmp, "home-nomic");
  let proj = "";
  before(() => {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    proj = project("nomic");
  });

  test("indexed texts carry `search_document: `, the query `search_query: `; the table's name carries the policy", async () => {
    const from = ollama.inputs.length;
    const r = await runMem(["index", proj, "--json"], { env: env(home), cwd: proj });
    assert.equal(r.code, 0, show(r));
    assert.equal(JSON.parse(r.stdout).vector.table, NEW);
    const sent = ollama.inputs.slice(from).filter((t) => !t.endsWith("health check probe"));
    assert.equal(sent.length, 2, sent.join("\n"));
    for (const t of sent) assert.ok(t.startsWith("search_document: "), t);

    const before = ollama.inputs.length;
    const q = await runMem(["query", "advisory locks job queue", "--json"], { env: env(home), cwd: proj });
    assert.equal(q.code, 0, show(q));
    assert.equal(JSON.parse(q.stdout).vector?.table, NEW);
    assert.deepEqual(ollama.inputs.slice(before).filter((t) => !t.endsWith("health check probe")), ["search_query: advisory locks job queue"]);
  });
});

describe("a change of prefix policy", () => {
  const home = join(tmp, "home-policy");
  let proj = "";
  before(() => {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    proj = project("policy");
  });

  test("builds a new table, says so once, and keeps the old table", async () => {
    // Before: nomic-embed-text fed bare text (as mem did before the catalogue), here by a config entry.
    writeFileSync(join(home, "config.json"), JSON.stringify({ embedding: { models: { "nomic-embed-text": { prefixes: { query: "", document: "" } } } } }));
    const first = await runMem(["index", proj, "--json"], { env: env(home), cwd: proj });
    assert.equal(first.code, 0, show(first));
    assert.equal(JSON.parse(first.stdout).vector.table, OLD);

    rmSync(join(home, "config.json"));
    const second = await runMem(["index", proj, "--json"], { env: env(home), cwd: proj });
    assert.equal(second.code, 0, show(second));
    const v = JSON.parse(second.stdout).vector;
    assert.deepEqual([v.table, v.embedded], [NEW, 2], "every chunk embedded again, into the new table");
    const note = `${second.stderr}${second.stdout}`;
    assert.match(note, /ollama nomic-embed-text is now fed the prefixes its model card asks for \(queries: \\?"search_query: \\?", documents: \\?"search_document: \\?"\): its vectors are rebuilt in v_ollama_nomic_embed_text_64_p03aa22a9 and never mixed with those of v_ollama_nomic_embed_text_64 \(kept until removed\)/);

    const third = await runMem(["index", proj, "--json"], { env: env(home), cwd: proj });
    assert.equal(third.code, 0, show(third));
    assert.doesNotMatch(`${third.stderr}${third.stdout}`, /is now fed/, "said once");

    const st = await runMem(["status", "--json"], { env: env(home), cwd: proj });
    const tables = (JSON.parse(st.stdout) as { tables: { name: string; count: number }[] }).tables.map((t) => [t.name, t.count]);
    assert.deepEqual(tables.sort(), [[OLD, 2], [NEW, 2]].sort(), "the old table stays, whole");
  });
});

describe("mem doctor names the model and what mem feeds it", () => {
  async function doctorModel(model: string, host = ollama.url, tag = model) {
    const home = join(tmp, `home-doctor-${tag}`);
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const r = await runMem(["doctor", "--json"], { env: { ...env(home, model), MEM_OLLAMA_HOST: host }, cwd: tmp });
    const checks = (JSON.parse(r.stdout) as { checks: { name: string; status: string; detail: string; fix?: string }[] }).checks;
    const c = checks.find((x) => x.name === "ollama model");
    assert.ok(c, JSON.stringify(checks));
    return { c, checks };
  }

  test("a known model: ok, with its prefixes, dims and table", async () => {
    const real = await startFakeOllama({ models: ["nomic-embed-text:latest"], dims: 768 });
    try {
      const { c } = await doctorModel("nomic-embed-text", real.url, "nomic-768");
      assert.equal(c.status, "ok");
      assert.equal(c.detail, `nomic-embed-text per the catalogue (nomic-embed-text): queries get "search_query: ", documents get "search_document: "; 768 dims, 8192 tokens of context; its vectors go to v_ollama_nomic_embed_text_768_p03aa22a9`);
    } finally {
      await real.close();
    }
  });

  test("a known name answering with other dims than its card's: a warning (another model under a known name?)", async () => {
    const { c } = await doctorModel("nomic-embed-text");
    assert.equal(c.status, "warn");
    assert.match(c.detail, /but the model returns 64 dims, not 768: is "nomic-embed-text" another model under a known name\?/);
  });

  test("an unknown model: a warning naming it and what mem assumed, with the way to teach mem", async () => {
    const { c, checks } = await doctorModel("my-embedder");
    assert.equal(c.status, "warn");
    assert.equal(c.detail, `"my-embedder" is not in mem's model catalogue: mem assumed no query or document prefix, 64 dims (what the model returns), mean pooling; its vectors go to v_ollama_my_embedder_64`);
    assert.match(c.fix ?? "", /embedding\.models in config\.json \(see .*models\/README\.md\)/);
    assert.equal(checks.find((x) => x.name === "ollama")?.status, "ok", "the provider itself is healthy");
  });
});
