/**
 * A BM25-only setup is a valid state: with no embedding model ever answering in this data home,
 * the weekly `mem reindex` succeeds (exit 0) and says "BM25 only", so a scheduled job does not
 * report failure forever. Once a model has answered, its silence fails the run (exit 3): see
 * reindex-cmd.test.ts.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";
import { closedPort } from "../helpers/fake-ollama.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-reindex-bm25-")));
after(() => rmSync(tmp, { recursive: true, force: true }));


test("no model has ever answered: mem reindex succeeds, BM25 only, in its report and its log", async () => {
  const proj = join(tmp, "proj");
  const home = join(tmp, "home");
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(join(proj, "memory"), { recursive: true });
  writeFileSync(join(proj, "memory", "db.md"), "# Storage\n\nWe keep metadata in SQLite.\n");
  // The default order (Ollama, then transformers), neither reachable: what a new user has.
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp, MEM_EMBED_ORDER: "ollama,transformers", MEM_OLLAMA_HOST: `http://127.0.0.1:${await closedPort()}`, MEM_MODELS_DIR: join(tmp, "no-models") };
  const mem = (args: string[]) => runMem(args, { env, cwd: proj });
  assert.equal((await mem(["index", "memory", "-q"])).code, 0);
  const r = await mem(["reindex"]);
  assert.equal(r.code, 0, show(r));
  assert.match(r.stdout, /^mem reindex: ok in /);
  assert.match(r.stdout, /vectors: BM25 only: no embedding model has answered here yet/);
  assert.match(readFileSync(join(home, "maintenance.log"), "utf8"), /reindex ok \(BM25 only\)/);
  const j = jsonOf<{ ok: boolean; vectors: string }>(await mem(["reindex", "--json"]));
  assert.deepEqual([j.ok, j.vectors], [true, "bm25-only"]);
});
