import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { ConfigError, loadConfig } from "../../src/config/load.js";
import { PACKAGE_ROOT, defaultConfig } from "../../src/config/config.js";
import { dataHome, homePaths } from "../../src/config/paths.cjs";

let dir = "";
let n = 0;

before(() => {
  dir = mkdtempSync(join(tmpdir(), "mem-config-"));
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Writes `text` to a fresh config.json and returns its path. */
function configFile(text: string): string {
  const sub = join(dir, `case-${n++}`);
  mkdirSync(sub);
  const path = join(sub, "config.json");
  writeFileSync(path, text);
  return path;
}

const missing = () => join(dir, "does-not-exist", "config.json");

/** Runs `fn`, which must throw a ConfigError, and returns its message. */
function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ConfigError, `expected ConfigError, got ${String(err)}`);
    assert.equal(err.name, "ConfigError");
    return err.message;
  }
  assert.fail("expected a ConfigError");
}

describe("loadConfig: config.json", () => {
  test("without a config file and environment, the defaults apply with no warnings", () => {
    const { config, warnings } = loadConfig(missing(), {});
    assert.deepEqual(config, defaultConfig(join(dir, "does-not-exist", "models")));
    assert.deepEqual(warnings, []);
    assert.deepEqual(config.embedding.order, ["ollama", "transformers"]);
    assert.equal(config.embedding.ollama.host, "http://127.0.0.1:11434");
    assert.equal(config.index.chunkTokens, 400);
    assert.equal(config.index.overlapTokens, 80);
    assert.equal(config.index.minChunkTokens, 64);
    assert.deepEqual(config.daemon, { idleMs: 1_800_000, clientBudgetMs: 250, vectorBudgetMs: 150, indexEveryMs: 5_000, vectorMemoryMB: 1024, scanWorkerRows: 20_000, codeRows: 200_000, rssWarnMB: 1_536, watchMaxDirs: 2_000, watchDebounceMs: 300, watchPollMs: 60_000 });
    assert.equal(config.index.watch, true);
    assert.equal(config.query.rrfK, 10);
  });

  test("the transformers model cache is in the data home, never in the package", () => {
    const home = join(dir, "home-of-models");
    const paths = homePaths(home);
    assert.equal(loadConfig(paths.config, {}, paths.models).config.embedding.transformers.cacheDir, join(home, "models"));
    assert.equal(loadConfig(paths.config, {}).config.embedding.transformers.cacheDir, join(home, "models"), "beside config.json by default");
    assert.equal(defaultConfig().embedding.transformers.cacheDir, join(dataHome(), "models"), "defaultConfig() follows this process's data home");
    assert.ok(!defaultConfig().embedding.transformers.cacheDir.startsWith(`${PACKAGE_ROOT}/`));
    assert.equal(loadConfig(paths.config, { MEM_MODELS_DIR: "/opt/mem-models" }, paths.models).config.embedding.transformers.cacheDir, "/opt/mem-models");
  });

  test("defaultConfig returns a fresh object each time", () => {
    const a = defaultConfig();
    a.index.ignore.push("mutated/");
    a.query.weights.bm25 = 99;
    assert.deepEqual(defaultConfig().index.ignore.includes("mutated/"), false);
    assert.equal(defaultConfig().query.weights.bm25, 1);
  });

  test("config.json is deep-merged onto the defaults, key by key", () => {
    const path = configFile(
      JSON.stringify({
        embedding: { order: ["transformers"], ollama: { model: "mxbai-embed-large" } },
        index: { ignore: ["vendor/"], chunkTokens: 300 },
        query: { weights: { vector: 2 }, includeGlobal: false },
      }),
    );
    const { config, warnings } = loadConfig(path, {});
    assert.deepEqual(warnings, []);
    const expected = defaultConfig(join(dirname(path), "models"));
    expected.embedding.order = ["transformers"];
    expected.embedding.ollama.model = "mxbai-embed-large";
    expected.index.ignore = ["vendor/"]; // lists replace, not append
    expected.index.chunkTokens = 300;
    expected.query.weights.vector = 2;
    expected.query.includeGlobal = false;
    assert.deepEqual(config, expected);
  });

  test("unknown keys are ignored with a warning naming their full path", () => {
    const path = configFile(JSON.stringify({ colour: "blue", query: { k: 5, topK: 3 }, embedding: { ollama: { hots: "x" } } }));
    const { config, warnings } = loadConfig(path, {});
    assert.equal(config.query.k, 5);
    assert.deepEqual(warnings, [
      'config: unknown key "colour" ignored',
      'config: unknown key "query.topK" ignored',
      'config: unknown key "embedding.ollama.hots" ignored',
    ]);
  });

  test("keys inherited from Object.prototype are unknown keys, not settings", () => {
    const path = configFile('{"toString": "x", "constructor": {}, "query": {"hasOwnProperty": 1}, "__proto__": {"polluted": true}}');
    const { config, warnings } = loadConfig(path, {});
    assert.deepEqual(warnings, [
      'config: unknown key "toString" ignored',
      'config: unknown key "constructor" ignored',
      'config: unknown key "query.hasOwnProperty" ignored',
      'config: unknown key "__proto__" ignored',
    ]);
    assert.deepEqual(config, defaultConfig(join(dirname(path), "models")));
    assert.equal((Object.prototype as Record<string, unknown>).polluted, undefined);
    assert.doesNotThrow(() => loadConfig(configFile('{"__proto__": {"__proto__": {}}}'), {}));
  });

  test("a value of the wrong type is a ConfigError naming the key", () => {
    const cases: [unknown, RegExp][] = [
      [{ query: { k: "5" } }, /"query\.k" must be a number, got "5"/],
      [{ query: { includeGlobal: "yes" } }, /"query\.includeGlobal" must be a boolean/],
      [{ embedding: { ollama: { host: 11434 } } }, /"embedding\.ollama\.host" must be a string, got 11434/],
      [{ query: 5 }, /"query" must be an object/],
      [{ query: { weights: [1, 2] } }, /"query\.weights" must be an object/],
      [{ embedding: null }, /"embedding" must be an object/],
      [{ index: { ignore: "node_modules/" } }, /"index\.ignore" must be a list of strings/],
      [{ index: { ignore: ["ok/", 3] } }, /"index\.ignore" must be a list of strings/],
      [{ query: { k: null } }, /"query\.k" must be a number, got null/],
    ];
    for (const [json, pattern] of cases) assert.match(configError(() => loadConfig(configFile(JSON.stringify(json)), {})), pattern);
  });

  test("values of the right type but out of range are ConfigErrors naming the key", () => {
    const cases: [unknown, RegExp][] = [
      [{ query: { k: 0 } }, /"query\.k" must be an integer in \[1, 1000\], got 0/],
      [{ embedding: { batchSize: -1 } }, /"embedding\.batchSize" must be an integer in \[1, 4096\], got -1/],
      [{ index: { chunkTokens: 100, overlapTokens: 100 } }, /"index\.overlapTokens" must be ≥ 0 and below index\.chunkTokens/],
      [{ index: { overlapTokens: -1 } }, /"index\.overlapTokens"/],
      [{ index: { chunkTokens: 100, overlapTokens: 10, minChunkTokens: 100 } }, /"index\.minChunkTokens" must be ≥ 0 and below index\.chunkTokens/],
      [{ index: { minChunkTokens: -5 } }, /"index\.minChunkTokens"/],
      [{ daemon: { vectorMemoryMB: 0 } }, /"daemon\.vectorMemoryMB" must be a number in \(0, 1048576\], got 0/],
      [{ daemon: { watchDebounceMs: 0 } }, /"daemon\.watchDebounceMs" must be an integer in \[10, 60000\], got 0/],
      [{ daemon: { watchPollMs: 10 } }, /"daemon\.watchPollMs" must be an integer in \[1000, 2147483647\], got 10/],
      [{ daemon: { watchMaxDirs: -1 } }, /"daemon\.watchMaxDirs" must be an integer in \[0, 1000000\], got -1/],
      [{ embedding: { order: ["ollama", "openai"] } }, /unknown provider "openai" in embedding\.order/],
    ];
    for (const [json, pattern] of cases) assert.match(configError(() => loadConfig(configFile(JSON.stringify(json)), {})), pattern);
  });

  test("the maintenance settings: defaults, a time zone by IANA name, ranges", () => {
    assert.deepEqual(defaultConfig().maintenance, { coldAfterDays: 90, archiveAfterDays: 90, timeZone: "", keepSnapshots: 5 });
    const { config } = loadConfig(configFile(JSON.stringify({ maintenance: { coldAfterDays: 30, timeZone: "Europe/Paris" } })), {});
    assert.deepEqual(config.maintenance, { coldAfterDays: 30, archiveAfterDays: 90, timeZone: "Europe/Paris", keepSnapshots: 5 });
    const cases: [unknown, RegExp][] = [
      [{ maintenance: { coldAfterDays: 0 } }, /"maintenance\.coldAfterDays" must be an integer in \[1, 36500\], got 0/],
      [{ maintenance: { archiveAfterDays: 1.5 } }, /"maintenance\.archiveAfterDays" must be an integer/],
      [{ maintenance: { timeZone: "Mars/Olympus_Mons" } }, /"maintenance\.timeZone" must be an IANA time zone .*got "Mars\/Olympus_Mons"/],
      [{ maintenance: { timeZone: 5 } }, /"maintenance\.timeZone" must be a string/],
    ];
    for (const [json, pattern] of cases) assert.match(configError(() => loadConfig(configFile(JSON.stringify(json)), {})), pattern);
  });

  test("invalid JSON is a ConfigError naming the file", () => {
    const path = configFile('{"query": {"k": 5,}}');
    const message = configError(() => loadConfig(path, {}));
    assert.ok(message.includes(path), message);
    assert.match(message, /not valid JSON/);
  });

  test("a JSON value that is not an object is a ConfigError naming the file", () => {
    for (const text of ["[]", "5", "null", '"config"']) {
      const path = configFile(text);
      const message = configError(() => loadConfig(path, {}));
      assert.ok(message.includes(path) && /must hold a JSON object/.test(message), message);
    }
  });

  test("a config path that cannot be read is a ConfigError naming it", () => {
    const path = join(dir, "a-directory.json");
    mkdirSync(path);
    const message = configError(() => loadConfig(path, {}));
    assert.ok(message.includes(`cannot read ${path}`), message);
  });
});

describe("loadConfig: environment overrides", () => {
  test("MEM_EMBED_ORDER sets the provider order, with commas, spaces or '>' between names", () => {
    assert.deepEqual(loadConfig(missing(), { MEM_EMBED_ORDER: "transformers" }).config.embedding.order, ["transformers"]);
    assert.deepEqual(loadConfig(missing(), { MEM_EMBED_ORDER: "transformers,ollama" }).config.embedding.order, ["transformers", "ollama"]);
    assert.deepEqual(loadConfig(missing(), { MEM_EMBED_ORDER: " transformers > ollama " }).config.embedding.order, ["transformers", "ollama"]);
  });

  test('MEM_EMBED_ORDER="none" means BM25 only, even over config.json', () => {
    const path = configFile(JSON.stringify({ embedding: { order: ["ollama"] } }));
    assert.deepEqual(loadConfig(path, { MEM_EMBED_ORDER: "none" }).config.embedding.order, []);
  });

  test("MEM_EMBED_ORDER with an unknown provider is a ConfigError naming it", () => {
    const message = configError(() => loadConfig(missing(), { MEM_EMBED_ORDER: "ollama,openai" }));
    assert.match(message, /MEM_EMBED_ORDER: unknown provider "openai"/);
    assert.match(configError(() => loadConfig(missing(), { MEM_EMBED_ORDER: "none,ollama" })), /unknown provider "none"/);
  });

  test("MEM_OLLAMA_HOST without a scheme gets http://", () => {
    assert.equal(loadConfig(missing(), { MEM_OLLAMA_HOST: "gpu-box:11434" }).config.embedding.ollama.host, "http://gpu-box:11434");
    assert.equal(loadConfig(missing(), { MEM_OLLAMA_HOST: "https://ollama.internal" }).config.embedding.ollama.host, "https://ollama.internal");
    assert.equal(loadConfig(missing(), { MEM_OLLAMA_HOST: "http://10.0.0.5:11434" }).config.embedding.ollama.host, "http://10.0.0.5:11434");
  });

  test("OLLAMA_HOST is used when MEM_OLLAMA_HOST is not set, and MEM_OLLAMA_HOST wins over it", () => {
    assert.equal(loadConfig(missing(), { OLLAMA_HOST: "127.0.0.1:11500" }).config.embedding.ollama.host, "http://127.0.0.1:11500");
    assert.equal(
      loadConfig(missing(), { OLLAMA_HOST: "127.0.0.1:11500", MEM_OLLAMA_HOST: "other:11434" }).config.embedding.ollama.host,
      "http://other:11434",
    );
  });

  test("environment overrides beat config.json", () => {
    const path = configFile(JSON.stringify({ embedding: { ollama: { host: "http://from-file:1", model: "file-model" }, transformers: { model: "file/model" } } }));
    const { config } = loadConfig(path, { MEM_OLLAMA_HOST: "from-env:2", MEM_OLLAMA_MODEL: "env-model", MEM_TRANSFORMERS_MODEL: "env/model" });
    assert.equal(config.embedding.ollama.host, "http://from-env:2");
    assert.equal(config.embedding.ollama.model, "env-model");
    assert.equal(config.embedding.transformers.model, "env/model");
  });

  test("MEM_MODELS_DIR sets the transformers cache directory as an absolute path", () => {
    assert.equal(loadConfig(missing(), { MEM_MODELS_DIR: "/opt/mem-models" }).config.embedding.transformers.cacheDir, "/opt/mem-models");
    assert.equal(loadConfig(missing(), { MEM_MODELS_DIR: "rel/models" }).config.embedding.transformers.cacheDir, resolve("rel/models"));
  });

  test("MEM_WATCH=0 turns watching and background re-indexing off, MEM_WATCH=1 on whatever the file says", () => {
    assert.equal(loadConfig(missing(), { MEM_WATCH: "0" }).config.index.watch, false);
    assert.equal(loadConfig(configFile(JSON.stringify({ index: { watch: false } })), { MEM_WATCH: "1" }).config.index.watch, true);
    assert.equal(loadConfig(configFile(JSON.stringify({ index: { watch: false } })), {}).config.index.watch, false);
    assert.equal(loadConfig(missing(), { MEM_WATCH: "yes" }).config.index.watch, true, "other values leave the setting alone");
  });

  test("MEM_ALLOW_REMOTE_MODELS=0 forbids model downloads; other values leave them allowed", () => {
    assert.equal(loadConfig(missing(), { MEM_ALLOW_REMOTE_MODELS: "0" }).config.embedding.transformers.allowRemote, false);
    assert.equal(loadConfig(missing(), { MEM_ALLOW_REMOTE_MODELS: "1" }).config.embedding.transformers.allowRemote, true);
    assert.equal(loadConfig(missing(), {}).config.embedding.transformers.allowRemote, true);
    const path = configFile(JSON.stringify({ embedding: { transformers: { allowRemote: false } } }));
    assert.equal(loadConfig(path, {}).config.embedding.transformers.allowRemote, false);
  });

  test("empty host and model variables are ignored", () => {
    const { config } = loadConfig(missing(), { MEM_OLLAMA_HOST: "", MEM_OLLAMA_MODEL: "", MEM_TRANSFORMERS_MODEL: "", MEM_MODELS_DIR: "" });
    assert.deepEqual(config, defaultConfig(join(dir, "does-not-exist", "models")));
  });
});

describe("dataHome", () => {
  test("MEM_HOME wins over everything, resolved to an absolute path", () => {
    const env = { MEM_HOME: "/srv/mem", XDG_DATA_HOME: "/xdg", HOME: "/home/dana", LOCALAPPDATA: "C:\\Users\\dana\\AppData\\Local" };
    assert.equal(dataHome(env, "linux"), "/srv/mem");
    assert.equal(dataHome(env, "darwin"), "/srv/mem");
    assert.equal(dataHome(env, "win32"), "/srv/mem");
    assert.equal(dataHome({ MEM_HOME: "relative/mem" }, "linux"), resolve("relative/mem"));
  });

  test("a blank MEM_HOME is ignored", () => {
    assert.equal(dataHome({ MEM_HOME: "  ", HOME: "/home/dana" }, "linux"), "/home/dana/.local/share/mem");
  });

  test("on Linux, XDG_DATA_HOME is used when it is absolute", () => {
    assert.equal(dataHome({ XDG_DATA_HOME: "/data/xdg", HOME: "/home/dana" }, "linux"), "/data/xdg/mem");
    assert.equal(dataHome({ XDG_DATA_HOME: "relative/xdg", HOME: "/home/dana" }, "linux"), "/home/dana/.local/share/mem");
  });

  test("on Linux without XDG_DATA_HOME it is ~/.local/share/mem", () => {
    assert.equal(dataHome({ HOME: "/home/dana" }, "linux"), "/home/dana/.local/share/mem");
    assert.equal(dataHome({ HOME: "/home/dana" }, "freebsd"), "/home/dana/.local/share/mem");
  });

  test("on macOS it is ~/Library/Application Support/mem, whatever XDG_DATA_HOME says", () => {
    assert.equal(dataHome({ HOME: "/Users/dana", XDG_DATA_HOME: "/xdg" }, "darwin"), "/Users/dana/Library/Application Support/mem");
  });

  test("on Windows it is under LOCALAPPDATA, or AppData/Local in the home directory", () => {
    assert.equal(dataHome({ LOCALAPPDATA: "/c/Users/dana/AppData/Local", HOME: "/c/Users/dana" }, "win32"), join("/c/Users/dana/AppData/Local", "mem"));
    assert.equal(dataHome({ HOME: "/c/Users/dana" }, "win32"), join("/c/Users/dana", "AppData", "Local", "mem"));
  });

  test("the files of the data home sit directly inside it", () => {
    assert.deepEqual(homePaths("/srv/mem"), {
      home: "/srv/mem",
      sqlite: "/srv/mem/mem.sqlite",
      lance: "/srv/mem/vectors",
      config: "/srv/mem/config.json",
      models: "/srv/mem/models",
    });
  });
});
