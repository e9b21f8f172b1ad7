import assert from "node:assert/strict";
import { test } from "node:test";
import { catalogueCheck, modelCheck } from "../../src/health/model.js";
import type { EmbeddingProvider } from "../../src/embed/provider.js";

const provider = (name: string, model: string): EmbeddingProvider => ({ name, model, health: async () => ({ ok: true, dims: 1 }), embed: async () => [] });

// [provider, model, dims found, chunkTokens, status, detail pattern]
const cases: [string, string, number | undefined, number | undefined, "ok" | "warn", RegExp][] = [
  ["ollama", "nomic-embed-text:latest", 768, 400, "ok", /^nomic-embed-text:latest per the catalogue \(nomic-embed-text\): queries get "search_query: ", documents get "search_document: "; 768 dims, 8192 tokens of context; its vectors go to v_ollama_nomic_embed_text_latest_768_p03aa22a9$/],
  ["ollama", "nomic-embed-text", undefined, 400, "ok", /8192 tokens of context$/],
  ["ollama", "nomic-embed-text", 1024, 400, "warn", /the model returns 1024 dims, not 768/],
  ["transformers", "Xenova/all-MiniLM-L6-v2", 384, 400, "ok", /queries get nothing, documents get nothing; 384 dims, 256 tokens of context \(chunks of up to 400 tokens, index\.chunkTokens, are longer than the 256 it reads: their ends are not in its vectors\); its vectors go to v_transformers_xenova_all_minilm_l6_v2_384$/],
  ["transformers", "Xenova/all-MiniLM-L6-v2", 384, 200, "ok", /256 tokens of context; its vectors/],
  ["ollama", "snowflake-arctic-embed:xs", 384, 400, "ok", /dims from the model, 512 tokens of context/],
  ["ollama", "qwen3-embedding:0.6b", 1024, 400, "warn", /^"qwen3-embedding:0\.6b" is not in mem's model catalogue: mem assumed no query or document prefix, 1024 dims \(what the model returns\), mean pooling; its vectors go to v_ollama_qwen3_embedding_0_6b_1024$/],
  ["ollama", "qwen3-embedding", undefined, 400, "warn", /mem assumed no query or document prefix, the dims the model returns, mean pooling$/],
];
for (const [name, model, dims, chunkTokens, status, detail] of cases) {
  test(`doctor on ${name} ${model} (${dims ?? "down"}): ${status}`, () => {
    const c = modelCheck(provider(name, model), [], dims, chunkTokens);
    assert.equal(c.name, `${name} model`);
    assert.equal(c.status, status);
    assert.match(c.detail, detail);
    assert.equal(c.fix !== undefined, status === "warn");
  });
}

test("the user's entry is named as the source", () => {
  const c = modelCheck(provider("ollama", "qwen3-embedding"), [{ id: "q", names: ["qwen3-embedding"], prefixes: { query: "Instruct: find\nQuery: ", document: "" }, pooling: "mean", normalized: true, priors: { vectorWeight: 0.5 } }], 1024);
  assert.equal(c.status, "ok");
  assert.match(c.detail, /^qwen3-embedding per your config \(embedding\.models\): queries get "Instruct: find\\nQuery: ", documents get nothing; dims from the model; its vectors go to v_ollama_qwen3_embedding_1024_p[0-9a-f]{8}$/);
});

test("the shipped catalogue reads fine: no check about it", () => {
  assert.deepEqual(catalogueCheck(), []);
});
