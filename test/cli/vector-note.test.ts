import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { VectorReport } from "../../indexer/embed-step.js";
import { searchWarningLine, VECTOR_LEG_SKIPPED, vectorSkippedNote } from "../../src/cli/vector-note.js";
import { defaultConfig, type Config } from "../../src/config/config.js";
import { noModelOptions } from "../../src/health/providers.js";
import { NO_MODEL_LINE } from "../../src/retrieve/warnings.js";

const skipped = (reason: string): VectorReport => ({ status: "skipped", reason, embedded: 0, removed: 0, unavailable: [], failovers: [] });
const long = 'no embedding provider available: ollama (model "nomic-embed-text" at http://127.0.0.1:11434): health check failed: cannot reach the server (ECONNREFUSED); transformers: loading failed (fix: start it: `ollama serve` …)';
const cfg = (edit: (c: Config) => unknown = () => undefined) => {
  const c = defaultConfig();
  edit(c);
  return c;
};
const bm25Only = cfg((c) => (c.embedding.order = []));

describe("one voice: the vector step's line and the search's warning (pure)", () => {
  const cases: { name: string; config: Config; reason: string; index: string | undefined; search: string | undefined }[] = [
    { name: "no model answered (every provider's error): the one line", config: cfg(), reason: long, index: NO_MODEL_LINE, search: NO_MODEL_LINE },
    { name: "Ollama on a host of its own, another model: the same line", config: cfg((c) => Object.assign(c.embedding.ollama, { host: "http://gpu-box:11434", model: "mxbai-embed-large" })), reason: long, index: NO_MODEL_LINE, search: NO_MODEL_LINE },
    { name: "transformers.js alone, offline: the same line", config: cfg((c) => (c.embedding.order = ["transformers"])), reason: "no embedding provider available: transformers: model X is not in /m and huggingface.co cannot be reached to download it (offline?)", index: NO_MODEL_LINE, search: NO_MODEL_LINE },
    { name: "BM25 only by choice: nothing", config: bm25Only, reason: "no embedding provider configured (embedding.order is empty)", index: undefined, search: undefined },
    { name: "another cause (the vector table): told as it is", config: cfg(), reason: "vector table v_x is unreadable (boom); run `mem index --full` to rebuild it", index: "vector step skipped: vector table v_x is unreadable (boom); run `mem index --full` to rebuild it", search: `${VECTOR_LEG_SKIPPED}vector table v_x is unreadable (boom); run \`mem index --full\` to rebuild it` },
  ];
  for (const c of cases) {
    test(`mem index: ${c.name}`, () => assert.equal(vectorSkippedNote(c.config, skipped(c.reason)), c.index));
    test(`a search's warning: ${c.name}`, () => assert.equal(searchWarningLine(c.config, `${VECTOR_LEG_SKIPPED}${c.reason}`), c.search));
  }
  test("the line is short and names no provider's error", () => {
    assert.ok(NO_MODEL_LINE.length <= 120 && !NO_MODEL_LINE.includes("\n"));
    assert.doesNotMatch(NO_MODEL_LINE, /ECONNREFUSED|ENOTFOUND|ollama serve/);
  });
  test("a step that ran says nothing; other warnings are kept as they are", () => {
    assert.equal(vectorSkippedNote(cfg(), { status: "ok", embedded: 3, removed: 0, unavailable: [], failovers: [] }), undefined);
    assert.equal(searchWarningLine(cfg(), "nothing is indexed for project p"), "nothing is indexed for project p");
  });
});

describe("mem doctor explains the options (pure)", () => {
  const cases: { name: string; config: Config; has: RegExp[] }[] = [
    { name: "both providers, the default host", config: cfg(), has: [/^\(1\) Ollama: install it, run `ollama serve` and `ollama pull nomic-embed-text`; \(2\) transformers\.js: /, /`mem doctor --bm25-only`$/] },
    { name: "Ollama elsewhere, another model", config: cfg((c) => Object.assign(c.embedding, { order: ["ollama"], ollama: { ...c.embedding.ollama, host: "http://gpu-box:11434", model: "bge-m3" } })), has: [/run `ollama serve` at http:\/\/gpu-box:11434 and `ollama pull bge-m3`/] },
    { name: "transformers.js alone", config: cfg((c) => (c.embedding.order = ["transformers"])), has: [/^\(1\) transformers\.js: run mem once where huggingface\.co is reachable \(it downloads Xenova\/all-MiniLM-L6-v2 into /] },
  ];
  for (const c of cases) test(c.name, () => {
    const text = noModelOptions(c.config);
    for (const re of c.has) assert.match(text, re);
  });
});
