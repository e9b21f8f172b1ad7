import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { after, describe, test } from "node:test";
import { ConfigError, loadConfig } from "../../src/config/load.js";
import { defaultConfig, PACKAGE_ROOT } from "../../src/config/config.js";
import { matchModel, normaliseModelName, parseCatalogue, parseEntry, prefixTag, withPrefix } from "../../src/config/catalogue.js";
import { CATALOGUE_PATH, describeModel, modelInfo, shippedCatalogue } from "../../src/embed/models.js";
import { vectorTableName } from "../../src/store/vector-table-name.js";

const temps: string[] = [];
after(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const NOMIC = { query: "search_query: ", document: "search_document: " };
const INSTRUCTION = "Represent this sentence for searching relevant passages: ";

describe("the shipped catalogue (models/catalogue.json)", () => {
  test("is valid, in the package's top-level models/, and every entry names its source and what was verified", () => {
    const c = shippedCatalogue();
    assert.equal(c.problem, undefined);
    assert.equal(relative(PACKAGE_ROOT, CATALOGUE_PATH), join("models", "catalogue.json"));
    assert.ok(c.entries.length >= 8);
    for (const e of c.entries) {
      assert.match(e.source ?? "", /^https:\/\//, `${e.id} names its model card`);
      assert.ok((e.verified ?? "").length > 10, `${e.id} says what was checked`);
    }
  });

  test("the model cache stays in the data home, never in the package's models/", () => {
    const dir = defaultConfig().embedding.transformers.cacheDir;
    assert.ok(relative(join(PACKAGE_ROOT, "models"), dir).startsWith(".."), `${dir} is outside the package's models/`);
  });

  // [configured name, expected entry id (undefined: unknown), query prefix, document prefix]
  const cases: [string, string | undefined, string, string][] = [
    ["nomic-embed-text", "nomic-embed-text", NOMIC.query, NOMIC.document],
    ["nomic-embed-text:latest", "nomic-embed-text", NOMIC.query, NOMIC.document],
    ["nomic-embed-text:v1.5", "nomic-embed-text", NOMIC.query, NOMIC.document],
    ["nomic-embed-text:137m-v1.5-fp16", "nomic-embed-text", NOMIC.query, NOMIC.document],
    ["NOMIC-EMBED-TEXT:Latest", "nomic-embed-text", NOMIC.query, NOMIC.document],
    ["registry.ollama.ai/library/nomic-embed-text:latest", "nomic-embed-text", NOMIC.query, NOMIC.document],
    [" nomic-embed-text ", "nomic-embed-text", NOMIC.query, NOMIC.document],
    ["nomic-ai/nomic-embed-text-v1.5", "nomic-embed-text", NOMIC.query, NOMIC.document],
    ["Xenova/nomic-embed-text-v1", "nomic-embed-text", NOMIC.query, NOMIC.document],
    ["Xenova/all-MiniLM-L6-v2", "all-MiniLM-L6-v2", "", ""],
    ["all-minilm:33m", "all-MiniLM-L6-v2", "", ""],
    ["mxbai-embed-large:335m-v1-fp16", "mxbai-embed-large-v1", INSTRUCTION, ""],
    ["Xenova/bge-small-en-v1.5", "bge-small-en-v1.5", INSTRUCTION, ""],
    ["snowflake-arctic-embed:xs", "snowflake-arctic-embed", INSTRUCTION, ""],
    ["Xenova/e5-small-v2", "e5-small-v2", "query: ", "passage: "],
    ["embeddinggemma:300m", "embeddinggemma-300m", "task: search result | query: ", "title: none | text: "],
    ["google/embeddinggemma-300m", "embeddinggemma-300m", "task: search result | query: ", "title: none | text: "],
    ["my-embedder:latest", undefined, "", ""],
    ["nomic-embed-text-v2-moe", undefined, "", ""],
    ["someone/nomic-embed-text", undefined, "", ""],
    ["snowflake-arctic-embed2", undefined, "", ""],
    ["", undefined, "", ""],
  ];
  for (const [name, id, query, document] of cases) {
    test(`"${name}" → ${id ?? "unknown"}`, () => {
      const info = modelInfo(name);
      assert.equal(info.known, id !== undefined);
      assert.equal(info.from, id === undefined ? "assumed" : "catalogue");
      if (id !== undefined) assert.equal(info.entry.id, id);
      assert.deepEqual(info.entry.prefixes, { query, document });
    });
  }

  test("known dims and context: nomic 768/8192, MiniLM 384/256, mxbai 1024/512, embeddinggemma 768/2048; pooling CLS for bge and mxbai, mean for e5", () => {
    const at = (n: string) => modelInfo(n).entry;
    assert.deepEqual([at("nomic-embed-text").dims, at("nomic-embed-text").contextTokens], [768, 8192]);
    assert.deepEqual([at("Xenova/all-MiniLM-L6-v2").dims, at("Xenova/all-MiniLM-L6-v2").contextTokens], [384, 256]);
    assert.deepEqual([at("mxbai-embed-large").dims, at("mxbai-embed-large").contextTokens], [1024, 512]);
    assert.deepEqual([at("embeddinggemma").dims, at("embeddinggemma").contextTokens], [768, 2048]);
    assert.equal(at("snowflake-arctic-embed").dims, undefined, "sizes differ: dims come from the model");
    assert.deepEqual([at("Xenova/bge-small-en-v1.5").pooling, at("mxbai-embed-large").pooling, at("Xenova/e5-small-v2").pooling], ["cls", "cls", "mean"]);
  });

  test("an unknown model: no prefixes, mean pooling, a lower prior than a known one", () => {
    const u = modelInfo("my-embedder");
    assert.deepEqual([u.entry.pooling, u.entry.dims, u.entry.priors.vectorWeight < modelInfo("nomic-embed-text").entry.priors.vectorWeight], ["mean", undefined, true]);
    assert.match(describeModel(u, 512), /"my-embedder" is not in mem's model catalogue: mem assumed no query or document prefix, 512 dims \(what the model returns\)/);
    assert.match(describeModel(modelInfo("nomic-embed-text:latest")), /queries get "search_query: ", documents get "search_document: "; 768 dims, 8192 tokens/);
  });
});

describe("validation", () => {
  const good = { id: "x", names: ["x"], prefixes: { query: "q: ", document: "" } };
  // [what is wrong, entry, message]
  const bad: [string, unknown, RegExp][] = [
    ["not an object", "x", /must be an object/],
    ["no names", { ...good, names: [] }, /"names"/],
    ["a name that is not text", { ...good, names: [3] }, /"names"/],
    ["a name with a control character", { ...good, names: ["a\u0007b"] }, /"names"/],
    ["an overlong name", { ...good, names: ["n".repeat(201)] }, /"names"/],
    ["prefixes missing", { id: "x", names: ["x"] }, /"prefixes"/],
    ["a prefix that is a number", { ...good, prefixes: { query: 1, document: "" } }, /"prefixes.query"/],
    ["an overlong prefix", { ...good, prefixes: { query: "q".repeat(201), document: "" } }, /"prefixes.query"/],
    ["a prefix with an escape character", { ...good, prefixes: { query: "\u001b[2J", document: "" } }, /"prefixes.query"/],
    ["a third side", { ...good, prefixes: { query: "", document: "", clustering: "c: " } }, /unknown side "clustering"/],
    ["negative dims", { ...good, dims: -1 }, /"dims"/],
    ["fractional dims", { ...good, dims: 1.5 }, /"dims"/],
    ["zero context", { ...good, contextTokens: 0 }, /"contextTokens"/],
    ["another pooling", { ...good, pooling: "max" }, /"pooling"/],
    ["normalized as text", { ...good, normalized: "yes" }, /"normalized"/],
    ["a prior above 1", { ...good, priors: { vectorWeight: 1.5 } }, /"priors"/],
    ["a prior that is not a number", { ...good, priors: { vectorWeight: "high" } }, /"priors"/],
    ["an unknown field", { ...good, prefix: "q: " }, /unknown field "prefix"/],
  ];
  for (const [what, entry, message] of bad) {
    test(`an entry with ${what} is refused, naming where`, () => {
      assert.throws(() => parseEntry(entry, "models[7]"), (err: Error) => err.message.startsWith("models[7]: ") && message.test(err.message));
    });
  }

  test("a whole file: version 1 and a models list; no name claimed by two entries (tags and case ignored)", () => {
    assert.equal(parseCatalogue({ version: 1, models: [good] }).length, 1);
    assert.throws(() => parseCatalogue({ models: [good] }), /expected \{"version": 1/);
    assert.throws(() => parseCatalogue({ version: 2, models: [] }), /expected \{"version": 1/);
    assert.throws(() => parseCatalogue({ version: 1, models: [good, { ...good, id: "y", names: ["X:latest"] }] }), /"X:latest" is claimed by both x and y/);
  });

  test("defaults: id from the first name, mean pooling, normalised, prior 0.5; an absent side is no prefix", () => {
    const e = parseEntry({ names: ["m"], prefixes: { query: "q: " } }, "w");
    assert.deepEqual(e, { id: "m", names: ["m"], prefixes: { query: "q: ", document: "" }, pooling: "mean", normalized: true, priors: { vectorWeight: 0.5 } });
  });

  test("name normalisation", () => {
    assert.equal(normaliseModelName("Nomic-Embed-Text:V1.5"), "nomic-embed-text");
    assert.equal(normaliseModelName("registry.ollama.ai/library/mxbai-embed-large:latest"), "mxbai-embed-large");
    assert.equal(normaliseModelName("library/bge-large"), "bge-large");
    assert.equal(normaliseModelName("Xenova/e5-small-v2"), "xenova/e5-small-v2");
    assert.equal(normaliseModelName("host:5000/team/model:tag"), "host:5000/team/model", "a port is not a tag");
    assert.equal(matchModel("a:1", [{ ...parseEntry(good, "w"), names: ["b"] }], [parseEntry({ ...good, names: ["a"] }, "w")])?.names[0], "a", "later lists are searched too");
  });
});

describe("prefix policy and table names", () => {
  test("the tag: none for no prefixes; stable; different for any change of either side", () => {
    assert.equal(prefixTag(undefined), "");
    assert.equal(prefixTag({ query: "", document: "" }), "");
    const t = prefixTag(NOMIC);
    assert.match(t, /^p[0-9a-f]{8}$/);
    assert.equal(prefixTag({ ...NOMIC }), t);
    const others = [{ query: "search_query:", document: NOMIC.document }, { query: NOMIC.query, document: "" }, { query: "", document: NOMIC.query + NOMIC.document }, { query: NOMIC.document, document: NOMIC.query }];
    assert.equal(new Set([t, ...others.map(prefixTag)]).size, 5);
  });

  test("a model without prefixes keeps its table's name; nomic-embed-text's table changes with its policy", () => {
    assert.equal(vectorTableName({ name: "transformers", model: "Xenova/all-MiniLM-L6-v2", prefixes: { query: "", document: "" } }, 384), "v_transformers_xenova_all_minilm_l6_v2_384");
    assert.equal(vectorTableName({ name: "ollama", model: "nomic-embed-text" }, 768), "v_ollama_nomic_embed_text_768");
    const now = vectorTableName({ name: "ollama", model: "nomic-embed-text", prefixes: NOMIC }, 768);
    assert.equal(now, `v_ollama_nomic_embed_text_768_${prefixTag(NOMIC)}`);
    assert.notEqual(vectorTableName({ name: "ollama", model: "nomic-embed-text", prefixes: { ...NOMIC, query: "" } }, 768), now);
  });

  test("withPrefix puts the side's prefix before each text; an empty prefix leaves them as they are", () => {
    assert.deepEqual(withPrefix(["a", "b"], "document", NOMIC), ["search_document: a", "search_document: b"]);
    assert.deepEqual(withPrefix(["a"], "query", NOMIC), ["search_query: a"]);
    const texts = ["a"];
    assert.equal(withPrefix(texts, "query", { query: "", document: "d" }), texts);
  });
});

describe("embedding.models in config.json", () => {
  function load(models: unknown) {
    const dir = mkdtempSync(join(tmpdir(), "mem-catalogue-config-"));
    temps.push(dir);
    writeFileSync(join(dir, "config.json"), JSON.stringify({ embedding: { models } }));
    return loadConfig(join(dir, "config.json"), {});
  }

  test("an entry keyed by the model's name (names default to the key) wins over the catalogue", () => {
    const { config, warnings } = load({ "nomic-embed-text": { prefixes: { query: "Q: ", document: "D: " } }, "my-embedder": { prefixes: { query: "query: ", document: "passage: " }, dims: 512 } });
    assert.deepEqual(warnings, []);
    const own = modelInfo("nomic-embed-text:latest", config.embedding.models);
    assert.deepEqual([own.from, own.entry.prefixes], ["config", { query: "Q: ", document: "D: " }]);
    const mine = modelInfo("my-embedder", config.embedding.models);
    assert.deepEqual([mine.known, mine.entry.dims, mine.entry.prefixes.document], [true, 512, "passage: "]);
    assert.match(describeModel(mine), /per your config \(embedding\.models\)/);
  });

  test("a malformed entry is a clear ConfigError naming the model; a list instead of an object too", () => {
    assert.throws(() => load({ "my-embedder": { prefixes: { query: 7 } } }), (err: Error) => err instanceof ConfigError && /embedding\.models\["my-embedder"\]: "prefixes\.query"/.test(err.message));
    assert.throws(() => load([{ names: ["x"] }]), (err: Error) => err instanceof ConfigError && /"embedding\.models" must be an object/.test(err.message));
  });

  test("absent: none", () => {
    assert.deepEqual(defaultConfig().embedding.models, []);
  });
});
