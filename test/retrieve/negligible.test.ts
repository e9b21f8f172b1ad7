/**
 * A BM25 hit that scored about a millionth of the best (it matched only words more than half of
 * all chunks hold, which FTS5 gives an idf of 1e-6) is no evidence: the leg drops it, so a
 * salience bonus cannot lift it over the note that answers. Pure cut, then a small real store.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { NEGLIGIBLE_BM25, withoutNegligible } from "../../src/retrieve/bm25.js";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-negligible-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("withoutNegligible keeps hits down to a thousandth of the best, and every hit when none stands out", () => {
  const hits = (...scores: number[]) => scores.map((score, i) => ({ id: `c${i}`, score }));
  assert.deepEqual(withoutNegligible(hits(1.35, 0.4, 1.2e-6, 1.0e-6)).map((h) => h.id), ["c0", "c1"]);
  assert.deepEqual(withoutNegligible(hits(1.66e-6, 1.19e-6, 9e-7)).map((h) => h.id), ["c0", "c1", "c2"], "all alike small: all kept");
  assert.deepEqual(withoutNegligible(hits(2, 2 * NEGLIGIBLE_BM25)).length, 2, "exactly at the cut: kept");
  assert.deepEqual(withoutNegligible(hits(2, 2 * NEGLIGIBLE_BM25 * 0.99)).length, 1);
  assert.deepEqual(withoutNegligible([]), []);
  assert.deepEqual(withoutNegligible(hits(0, 0)).length, 2, "no positive best: nothing to compare with");
  assert.deepEqual(withoutNegligible(hits(3, Number.NaN, 2)).map((h) => h.id), ["c0"], "a score that is not a number ends the list");
});

test("in a small store, the warm note that answers outranks hot notes that only share a word every note holds", async () => {
  const mem = join(tmp, "proj", "memory");
  mkdirSync(join(tmp, "proj", ".git"), { recursive: true });
  mkdirSync(join(mem, "reference"), { recursive: true });
  writeFileSync(join(mem, "state.md"), "# Current state\n\nThe indexer writes SQLite and LanceDB; the hook ships next week.\n");
  writeFileSync(join(mem, "references.md"), "# References\n\n- SQLite FTS5 documentation: the bm25 function.\n- LanceDB tables per model.\n");
  writeFileSync(join(mem, "reference", "storage.md"), "# Why SQLite\n\nWe chose SQLite over Postgres: no server to run on a laptop, and WAL mode lets hooks write while the indexer reads. SQLite backups are one file.\n");
  writeFileSync(join(mem, "reference", "embeddings.md"), "# Embeddings\n\nOllama first, transformers.js as the fallback.\n");
  const env = { ...cleanEnv(join(tmp, "claude")), HOME: tmp, MEM_HOME: join(tmp, "home"), MEM_EMBED_ORDER: "none" };
  const idx = await runMem(["index", mem, "-q"], { env, cwd: join(tmp, "proj") });
  assert.equal(idx.code, 0, show(idx));
  const q = await runMem(["query", "why did we choose SQLite over Postgres", "--json"], { env, cwd: join(tmp, "proj") });
  assert.equal(q.code, 0, show(q));
  const results = jsonOf<{ results: { path: string; salience: { base: number } }[] }>(q).results;
  assert.equal(results[0]?.path, join(mem, "reference", "storage.md"), JSON.stringify(results.map((r) => r.path)));
  assert.ok(results.every((r) => !r.path.endsWith("state.md") && !r.path.endsWith("references.md")), "the hot notes matched only \"sqlite\", which 3 of 4 notes hold: no evidence");
  // A query of such words alone still answers (nothing stands out, so nothing is cut).
  const common = await runMem(["query", "sqlite", "--json"], { env, cwd: join(tmp, "proj") });
  assert.equal(jsonOf<{ results: unknown[] }>(common).results.length, 3);
});
