import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { OllamaConfig } from "../../src/config/config.js";
import { modelMatches, OllamaProvider } from "../../src/embed/ollama.js";
import { EmbedError } from "../../src/embed/provider.js";
import { startFakeOllama, type FakeOllama, type FakeOllamaOptions, type MalformedKind } from "../helpers/fake-ollama.js";
import { hashVector } from "../helpers/hash-embedder.js";

const servers: FakeOllama[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function fake(opts?: FakeOllamaOptions): Promise<FakeOllama> {
  const s = await startFakeOllama(opts);
  servers.push(s);
  return s;
}

function provider(host: string, over: Partial<OllamaConfig> = {}): OllamaProvider {
  return new OllamaProvider({ host, model: "nomic-embed-text", timeoutMs: 5_000, healthTimeoutMs: 1_000, ...over });
}

/** Awaits a promise that must reject with an EmbedError and returns that error. */
async function embedError(p: Promise<unknown>): Promise<EmbedError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof EmbedError, `expected EmbedError, got ${String(err)}`);
    return err;
  }
  assert.fail("expected the call to reject");
}

/** A URL on which nothing listens: a port that was just in use and is now closed. */
async function closedUrl(): Promise<string> {
  const s = await startFakeOllama();
  await s.close();
  return s.url;
}

const norm = (v: Float32Array) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));

describe("OllamaProvider.health", () => {
  test("ok with the model's dims and a detail naming version and host", async () => {
    const s = await fake({ dims: 64 });
    const h = await provider(s.url).health();
    assert.equal(h.ok, true);
    assert.ok(h.ok);
    assert.equal(h.dims, 64);
    assert.match(h.detail ?? "", /0\.0\.0-fake/);
    assert.ok(h.detail?.includes(s.url));
    assert.equal(s.requests, 1, "health learns dims with one probe embed");
  });

  test("untagged model name matches :latest; an explicit tag must match exactly", async () => {
    assert.equal(modelMatches("nomic-embed-text", "nomic-embed-text:latest"), true);
    assert.equal(modelMatches("nomic-embed-text:v1.5", "nomic-embed-text:v1.5"), true);
    assert.equal(modelMatches("nomic-embed-text:v1.5", "nomic-embed-text:latest"), false);
    assert.equal(modelMatches("nomic-embed-text", "nomic-embed-text:v1.5"), false);
    assert.equal(modelMatches("nomic-embed-text", "nomic-embed-text-v2:latest"), false);
    assert.equal(modelMatches("registry.local:5000/ns/embed", "registry.local:5000/ns/embed:latest"), true);

    const s = await fake({ dims: 32, models: ["nomic-embed-text:latest", "mxbai-embed-large:v1"] });
    const untagged = await provider(s.url).health();
    assert.ok(untagged.ok, JSON.stringify(untagged));
    assert.equal(untagged.dims, 32);
    const tagged = await provider(s.url, { model: "mxbai-embed-large:v1" }).health();
    assert.ok(tagged.ok, JSON.stringify(tagged));
    const wrongTag = await provider(s.url, { model: "nomic-embed-text:v1.5" }).health();
    assert.equal(wrongTag.ok, false);
  });

  test("missing model → ok:false, reason names model and host, fix says ollama pull", async () => {
    const s = await fake({ models: ["llama3:latest"] });
    const h = await provider(s.url, { model: "nomic-embed-text" }).health();
    assert.equal(h.ok, false);
    assert.ok(!h.ok);
    assert.match(h.reason, /nomic-embed-text/);
    assert.ok(h.reason.includes(s.url));
    assert.match(h.reason, /llama3:latest/, "lists what is installed");
    assert.match(h.fix ?? "", /ollama pull nomic-embed-text/);
    assert.equal(s.requests, 0, "no probe embed when the model is missing");
  });

  test("nothing listening → ok:false quickly with an `ollama serve` fix, never throws", async () => {
    const url = await closedUrl();
    const started = Date.now();
    // A health timeout far beyond the bound: only a refused connection can end the check this soon, however loaded the machine.
    const h = await provider(url, { healthTimeoutMs: 60_000 }).health();
    assert.ok(Date.now() - started < 20_000, "fails fast on a refused connection, not at the timeout");
    assert.equal(h.ok, false);
    assert.ok(!h.ok);
    assert.ok(h.reason.includes(url));
    assert.match(h.reason, /cannot reach/);
    assert.match(h.fix ?? "", /ollama serve/);
    assert.ok(h.fix?.includes(url));
  });

  test("a server slower than healthTimeoutMs → ok:false within about the timeout", async () => {
    const s = await fake({ delayMs: 60_000 }); // the bound below is a hang guard far under the server's delay
    const started = Date.now();
    const h = await provider(s.url, { healthTimeoutMs: 150 }).health();
    const elapsed = Date.now() - started;
    assert.equal(h.ok, false);
    assert.ok(!h.ok);
    assert.match(h.reason, /timed out after 150 ms/);
    assert.ok(elapsed >= 140 && elapsed < 20_000, `took ${elapsed} ms`);
  });
});

describe("OllamaProvider.embed", () => {
  test("one request per batch; unit-norm, deterministic vectors equal to hashVector", async () => {
    const s = await fake({ dims: 48 });
    const p = provider(s.url);
    const texts = ["alpha beta gamma", "the quick brown fox", "Ollama embeds text", "alpha beta", "zeta"];
    const first = await p.embed(texts, "document");
    assert.equal(s.requests, 1);
    assert.equal(s.texts, texts.length);
    assert.deepEqual(s.inputs, texts.map((t) => `search_document: ${t}`), "nomic-embed-text's document prefix on every text");
    assert.equal(first.length, texts.length);
    first.forEach((v, i) => {
      assert.ok(v instanceof Float32Array);
      assert.equal(v.length, 48);
      assert.ok(Math.abs(norm(v) - 1) < 1e-5, `vector ${i} norm ${norm(v)}`);
      const want = hashVector(texts[i]!, 48); // the fake drops the task prefix before hashing
      for (let j = 0; j < 48; j++) assert.ok(Math.abs(v[j]! - want[j]!) < 1e-6, `vector ${i}[${j}]`);
    });
    const second = await p.embed(texts, "document");
    assert.deepEqual(second, first);
    assert.equal(s.requests, 2);
    assert.deepEqual(await p.embed([], "document"), []);
    assert.equal(s.requests, 2, "an empty batch makes no request");
  });

  test("vectors are normalised even when the server's are not unit length", async () => {
    const s = await fake({ dims: 16, scale: 3.5 });
    const [v] = await provider(s.url).embed(["solo word"], "document");
    assert.ok(v);
    assert.ok(Math.abs(norm(v) - 1) < 1e-6, `norm ${norm(v)}`);
    const want = hashVector("solo word", 16);
    for (let j = 0; j < 16; j++) assert.ok(Math.abs(v[j]! - want[j]!) < 1e-6);
  });

  test("unknown model → non-retryable EmbedError naming model, host and the 404", async () => {
    const s = await fake();
    const err = await embedError(provider(s.url, { model: "no-such-model" }).embed(["hello"], "document"));
    assert.equal(err.retryable, false);
    assert.match(err.message, /no-such-model/);
    assert.ok(err.message.includes(s.url));
    assert.match(err.message, /HTTP 404.*not found/);
  });

  test("timeout: server slower than timeoutMs → retryable EmbedError within about the timeout", async () => {
    const s = await fake({ delayMs: 60_000 }); // the bound below is a hang guard far under the server's delay
    const started = Date.now();
    const err = await embedError(provider(s.url, { timeoutMs: 200 }).embed(["slow text"], "document"));
    const elapsed = Date.now() - started;
    assert.equal(err.retryable, true);
    assert.match(err.message, /timed out after 200 ms/);
    assert.ok(err.message.includes(s.url) && err.message.includes("nomic-embed-text"));
    assert.ok(elapsed >= 190 && elapsed < 20_000, `took ${elapsed} ms`);
  });

  test("the caller's AbortSignal cancels a request in flight (not retryable)", async () => {
    const s = await fake({ delayMs: 60_000 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const started = Date.now();
    const err = await embedError(provider(s.url, { timeoutMs: 60_000 }).embed(["cancel me"], "document", ac.signal));
    assert.ok(Date.now() - started < 20_000, "ended by the abort, not by the server or the timeout");
    assert.equal(err.retryable, false);
    assert.match(err.message, /aborted/);
    const pre = await embedError(provider(s.url).embed(["never sent"], "document", AbortSignal.abort()));
    assert.match(pre.message, /aborted/);
  });

  test("server dies mid-run → following embeds reject with a retryable EmbedError, no hang", async () => {
    const s = await fake({ dims: 32 });
    const p = provider(s.url, { timeoutMs: 60_000 });
    s.dieAfterEmbedRequests(2);
    assert.equal((await p.embed(["one", "two"], "document")).length, 2);
    assert.equal((await p.embed(["three"], "document")).length, 1);
    for (const text of ["four", "five"]) {
      const started = Date.now();
      const err = await embedError(p.embed([text], "document"));
      assert.ok(Date.now() - started < 20_000, "fails fast instead of waiting for the timeout");
      assert.equal(err.retryable, true, err.message);
      assert.match(err.message, /cannot reach the server/);
      assert.ok(err.message.includes(s.url));
    }
    assert.equal(s.texts, 3);
    const h = await p.health();
    assert.equal(h.ok, false);
  });

  const cases: [MalformedKind, RegExp][] = [
    ["count", /expected 3 vectors, got 4/],
    ["non-numeric", /non-number/],
    ["invalid-json", /not valid JSON/],
    ["ragged", /vector 2 has 23 dims, expected 24/],
    ["overflow", /non-finite/],
    ["missing", /no embeddings array/],
  ];
  for (const [kind, message] of cases) {
    test(`malformed answer (${kind}) → non-retryable EmbedError, no NaN vectors`, async () => {
      const s = await fake({ dims: 24 });
      const p = provider(s.url);
      s.setMalformed(kind);
      const err = await embedError(p.embed(["first text", "second text", "third text"], "document"));
      assert.equal(err.retryable, false);
      assert.match(err.message, message);
      assert.ok(err.message.includes(s.url));
      s.setMalformed(null);
      const good = await p.embed(["first text", "second text", "third text"], "document");
      assert.equal(good.length, 3);
      assert.ok(good.every((v) => v.every((x) => Number.isFinite(x))));
    });
  }
});
