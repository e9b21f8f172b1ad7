import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { VectorReport } from "../../indexer/embed-step.js";
import { searchWarningLine, VECTOR_LEG_SKIPPED, vectorSkippedNote } from "../../src/cli/vector-note.js";
import { defaultConfig } from "../../src/config/config.js";

const skipped = (reason: string): VectorReport => ({ status: "skipped", reason, embedded: 0, removed: 0, unavailable: [], failovers: [] });
const long = 'no embedding provider available: ollama (model "nomic-embed-text" at http://127.0.0.1:11434): health check failed: cannot reach the server (ECONNREFUSED); transformers: loading failed (fix: start it: `ollama serve` …)';

describe("the skipped vector step's line (pure)", () => {
  test("names the fix in full, on one line under 160 characters", () => {
    const line = vectorSkippedNote(defaultConfig(), skipped(long))!;
    assert.equal(line, "vector step skipped, BM25 only: no embedding model answered. Fix: ollama pull nomic-embed-text (Ollama must be running); `mem doctor` says more");
    assert.ok(line.length < 160 && !line.includes("\n"));
  });

  test("the configured model and a host of its own are named", () => {
    const c = defaultConfig();
    c.embedding.ollama.model = "mxbai-embed-large";
    c.embedding.ollama.host = "http://gpu-box:11434";
    assert.match(vectorSkippedNote(c, skipped(long))!, /Fix: ollama pull mxbai-embed-large \(Ollama must be running at http:\/\/gpu-box:11434\)/);
  });

  test("transformers alone: where to put its model", () => {
    const c = defaultConfig();
    c.embedding.order = ["transformers"];
    assert.match(vectorSkippedNote(c, skipped("no embedding provider available: transformers: …"))!, /Fix: put Xenova\/all-MiniLM-L6-v2 in .*models \(see models\/README\.md\)/);
  });

  test("nothing when BM25 only was chosen, or when the step ran", () => {
    const c = defaultConfig();
    c.embedding.order = [];
    assert.equal(vectorSkippedNote(c, skipped("no embedding provider configured (embedding.order is empty)")), undefined);
    assert.equal(vectorSkippedNote(defaultConfig(), { status: "ok", embedded: 3, removed: 0, unavailable: [], failovers: [] }), undefined);
  });

  test("a skip of another cause (the vector table) is told as it is", () => {
    const reason = "vector table v_x is unreadable (boom); run `mem index --full` to rebuild it";
    assert.equal(vectorSkippedNote(defaultConfig(), skipped(reason)), `vector step skipped: ${reason}`);
  });
});

describe("the search's warnings as mem query and mem why print them (pure)", () => {
  const leg = `${VECTOR_LEG_SKIPPED}${long}`;
  test("no model: one short line with the fix and how to choose BM25, not every provider's error", () => {
    const line = searchWarningLine(defaultConfig(), leg)!;
    assert.equal(line, "BM25 only (word matching): no embedding model answered. Fix: ollama pull nomic-embed-text (Ollama must be running), or `mem doctor --bm25-only` to choose BM25; `mem doctor` says more");
    assert.ok(line.length < 200 && !line.includes("ECONNREFUSED"));
  });
  test("BM25 only by choice: nothing", () => {
    const c = defaultConfig();
    c.embedding.order = [];
    assert.equal(searchWarningLine(c, `${VECTOR_LEG_SKIPPED}no embedding provider configured (embedding.order is empty)`), undefined);
  });
  test("another cause, and other warnings, as they are", () => {
    const odd = `${VECTOR_LEG_SKIPPED}vector table v_x is unreadable`;
    assert.equal(searchWarningLine(defaultConfig(), odd), odd);
    assert.equal(searchWarningLine(defaultConfig(), "nothing is indexed for project p"), "nothing is indexed for project p");
  });
});
