import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { buildTinyBertModel } from "../../scripts/build-test-model.js";
import { loadConfig } from "../../src/config/load.js";
import { createProviders } from "../../src/embed/chain.js";
import { OllamaProvider } from "../../src/embed/ollama.js";
import type { EmbeddingProvider } from "../../src/embed/provider.js";
import { TransformersProvider } from "../../src/embed/transformers.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";

const temps: string[] = [];
const servers: FakeOllama[] = [];
const providers: EmbeddingProvider[] = [];
after(async () => {
  for (const p of providers) await p.close?.();
  await Promise.all(servers.map((s) => s.close()));
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

function tempDir(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), `mem-prefixes-${tag}-`));
  temps.push(dir);
  return dir;
}

describe("Ollama: what the server receives", () => {
  async function setup(model: string) {
    const s = await startFakeOllama({ models: [`${model}:latest`], dims: 32 });
    servers.push(s);
    return { s, p: new OllamaProvider({ host: s.url, model, timeoutMs: 5_000, healthTimeoutMs: 2_000 }) };
  }

  test("nomic-embed-text: `search_document: ` before every indexed text, `search_query: ` before the query", async () => {
    const { s, p } = await setup("nomic-embed-text");
    await p.embed(["the deploy runs on fridays", "postgres advisory locks"], "document");
    await p.embed(["when do we deploy?"], "query");
    assert.deepEqual(s.inputs, ["search_document: the deploy runs on fridays", "search_document: postgres advisory locks", "search_query: when do we deploy?"]);
  });

  test("a tagged name gets the same prefixes", async () => {
    const s = await startFakeOllama({ models: ["nomic-embed-text:v1.5"], dims: 32 });
    servers.push(s);
    const p = new OllamaProvider({ host: s.url, model: "nomic-embed-text:v1.5", timeoutMs: 5_000, healthTimeoutMs: 2_000 });
    await p.embed(["x"], "query");
    assert.deepEqual(s.inputs, ["search_query: x"]);
  });

  test("mxbai-embed-large: the instruction before queries only", async () => {
    const { s, p } = await setup("mxbai-embed-large");
    await p.embed(["a chunk"], "document");
    await p.embed(["a question"], "query");
    assert.deepEqual(s.inputs, ["a chunk", "Represent this sentence for searching relevant passages: a question"]);
  });

  test("a model mem does not know: texts as they are, on both sides", async () => {
    const { s, p } = await setup("my-embedder");
    assert.equal(p.info.known, false);
    await p.embed(["a chunk"], "document");
    await p.embed(["a question"], "query");
    assert.deepEqual(s.inputs, ["a chunk", "a question"]);
  });

  test("an entry in config.json's embedding.models reaches the provider createProviders builds", async () => {
    const s = await startFakeOllama({ models: ["my-embedder:latest"], dims: 32 });
    servers.push(s);
    const dir = tempDir("config");
    writeFileSync(join(dir, "config.json"), JSON.stringify({ embedding: { order: ["ollama"], ollama: { host: s.url, model: "my-embedder" }, models: { "my-embedder": { prefixes: { query: "query: ", document: "passage: " } } } } }));
    const { config } = loadConfig(join(dir, "config.json"), {});
    const [p] = await createProviders(config);
    providers.push(p!);
    await p!.embed(["a chunk"], "document");
    await p!.embed(["a question"], "query");
    assert.deepEqual(s.inputs, ["passage: a chunk", "query: a question"]);
  });
});

describe("transformers.js (a tiny random-weight BERT, offline): the catalogue's prefixes and pooling", () => {
  let dir = "";
  const SEED = 7;
  before(async () => {
    dir = tempDir("models");
    // The same weights under four names: one the catalogue knows as e5 (query: / passage:), one as
    // bge (an instruction before queries, CLS pooling), and two it does not know.
    for (const name of ["Xenova/e5-small-v2", "Xenova/bge-small-en-v1.5", "test/plain", "test/custom"]) await buildTinyBertModel(dir, { name, hidden: 32, seed: SEED });
  });

  function tp(model: string, overrides: ConstructorParameters<typeof TransformersProvider>[1] = []): TransformersProvider {
    const p = new TransformersProvider({ model, cacheDir: dir, allowRemote: false, loadTimeoutMs: 30_000 }, overrides);
    providers.push(p);
    return p;
  }
  const same = (a: Float32Array, b: Float32Array) => a.length === b.length && a.every((x, i) => Math.abs(x - b[i]!) < 1e-5);

  test("e5: a query is embedded as `query: …`, a document as `passage: …`", async () => {
    const e5 = tp("Xenova/e5-small-v2");
    const plain = tp("test/plain");
    assert.deepEqual([e5.info.known, plain.info.known], [true, false]);
    const [q] = await e5.embed(["where are the locks"], "query");
    const [d] = await e5.embed(["where are the locks"], "document");
    const [q0, d0, raw] = await plain.embed(["query: where are the locks", "passage: where are the locks", "where are the locks"], "document");
    assert.ok(same(q!, q0!), "the query vector is the vector of the prefixed text");
    assert.ok(same(d!, d0!), "the document vector is the vector of the prefixed text");
    assert.ok(!same(q!, d!) && !same(q!, raw!), "the two sides differ, and differ from the bare text");
    const [pq] = await plain.embed(["where are the locks"], "query");
    assert.ok(same(pq!, raw!), "an unknown model: no prefix on either side");
  });

  test("bge: the instruction before queries, nothing before documents, CLS pooling", async () => {
    const bge = tp("Xenova/bge-small-en-v1.5");
    const cls = tp("test/custom", [{ id: "cls", names: ["test/custom"], prefixes: { query: "", document: "" }, pooling: "cls", normalized: true, priors: { vectorWeight: 0.5 } }]);
    const mean = tp("test/plain");
    const text = "why advisory locks";
    const [q] = await bge.embed([text], "query");
    const [d] = await bge.embed([text], "document");
    const [q0, d0] = await cls.embed([`Represent this sentence for searching relevant passages: ${text}`, text], "document");
    assert.ok(same(q!, q0!) && same(d!, d0!));
    const [m] = await mean.embed([text], "document");
    assert.ok(!same(d!, m!), "CLS pooling is not mean pooling");
  });

  test("an override (config's embedding.models) gives a model unknown to the catalogue its prefixes", async () => {
    const custom = tp("test/custom", [{ id: "custom", names: ["test/custom"], prefixes: { query: "q> ", document: "d> " }, pooling: "mean", normalized: true, priors: { vectorWeight: 0.5 } }]);
    const plain = tp("test/plain");
    const [q, d] = [(await custom.embed(["x y"], "query"))[0]!, (await custom.embed(["x y"], "document"))[0]!];
    const [q0, d0] = await plain.embed(["q> x y", "d> x y"], "document");
    assert.ok(same(q, q0!) && same(d, d0!));
  });
});
