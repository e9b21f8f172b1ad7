/**
 * A BM25 hit that scored about a millionth of the best (it matched only words more than half of
 * all chunks hold, which FTS5 gives an idf of 1e-6) is weak evidence: it is ranked after the
 * others, so a salience bonus cannot lift it over the note that answers, but it is kept. Pure
 * partition, then a small real store through the CLI.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import type { Fused } from "../../src/retrieve/rrf.js";
import { NEGLIGIBLE_BM25, weakLast } from "../../src/retrieve/weak-hits.js";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-negligible-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("weakLast moves BM25-only results under a thousandth of the best BM25 score after the others, each part in its order", () => {
  const f = (id: string, score: number, bm25?: number, vector?: number): Fused => ({ id, score, legs: { ...(bm25 !== undefined ? { bm25: { rank: 1, score: bm25 } } : {}), ...(vector !== undefined ? { vector: { rank: 1, score: vector } } : {}) } });
  const order = (fs: Fused[]) => weakLast(fs).ranked.map((x) => x.id);
  // Salience put two hot notes that matched only common words ahead of the answer.
  const r = weakLast([f("hot1", 0.0161, 1.2e-6), f("hot2", 0.0158, 1.0e-6), f("answer", 0.0155, 1.35), f("other", 0.015, 0.4)]);
  assert.deepEqual(r.ranked.map((x) => x.id), ["answer", "other", "hot1", "hot2"]);
  assert.deepEqual([...r.weak].sort(), ["hot1", "hot2"]);
  assert.deepEqual(order([f("a", 3, 1.66e-6), f("b", 2, 1.19e-6), f("c", 1, 9e-7)]), ["a", "b", "c"], "all alike small: nothing moves");
  assert.deepEqual(order([f("w", 3, 1e-6, 0.8), f("s", 2, 2)]), ["w", "s"], "found by the vectors too: not weak");
  assert.deepEqual(order([f("v", 3, undefined, 0.8), f("s", 2, 2)]), ["v", "s"], "vector only: not weak");
  assert.deepEqual(order([f("edge", 3, 2 * NEGLIGIBLE_BM25), f("s", 2, 2)]), ["edge", "s"], "exactly at the cut: not weak");
  assert.deepEqual(order([f("under", 3, 2 * NEGLIGIBLE_BM25 * 0.99), f("s", 2, 2)]), ["s", "under"]);
  assert.deepEqual(order([f("nan", 3, Number.NaN), f("s", 2, 2)]), ["s", "nan"], "a score that is not a number is weak");
  assert.deepEqual(order([]), []);
  assert.deepEqual(order([f("z", 2, 0), f("y", 1, 0)]), ["z", "y"], "no positive best: nothing to compare with");
});

test("in a small store, the warm note that answers outranks hot notes that only share a word most notes hold; they still come, after it", async () => {
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
  const results = jsonOf<{ results: { path: string; weak?: true }[] }>(q).results;
  const paths = results.map((r) => r.path.slice(mem.length + 1));
  assert.equal(paths[0], "reference/storage.md", JSON.stringify(paths));
  assert.deepEqual(paths.slice(1).sort(), ["references.md", "state.md"], "the hot notes that hold only \"sqlite\" (3 of 4 notes do) come after it, kept");
  assert.deepEqual(results.map((r) => r.weak === true), [false, true, true], "marked in --json");
  const explained = await runMem(["query", "why did we choose SQLite over Postgres", "--explain"], { env, cwd: join(tmp, "proj") });
  assert.match(explained.stdout, /\n {3}ranked after the others: BM25 alone found it, under a thousandth of the best BM25 score/);
  // A query of such words alone: nothing stands out, nothing moves, nothing is marked.
  const common = jsonOf<{ results: { weak?: true }[] }>(await runMem(["query", "sqlite", "--json"], { env, cwd: join(tmp, "proj") })).results;
  assert.equal(common.length, 3);
  assert.ok(common.every((r) => r.weak === undefined));
});

test("a note matching only common words of the query is kept, after one matching a rarer word", async () => {
  const dir = join(tmp, "proj2", "notes");
  mkdirSync(join(tmp, "proj2", ".git"), { recursive: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "api.md"), "# API\n\nThe API server binds 8080 on the laptop.\n");
  writeFileSync(join(dir, "logs.md"), "# Logs\n\nThe API server logs to stdout.\n");
  writeFileSync(join(dir, "restarts.md"), "# Restarts\n\nThe API server restarts nightly.\n");
  writeFileSync(join(dir, "windows.md"), "# Windows\n\nThe port of the CLI to Windows.\n");
  writeFileSync(join(dir, "ci.md"), "# CI\n\nTests run in CI.\n");
  const env = { ...cleanEnv(join(tmp, "claude")), HOME: tmp, MEM_HOME: join(tmp, "home2"), MEM_EMBED_ORDER: "none" };
  assert.equal((await runMem(["index", dir, "-q"], { env, cwd: join(tmp, "proj2") })).code, 0);
  const results = jsonOf<{ results: { path: string; weak?: true }[] }>(await runMem(["query", "what port does the api server listen on", "--json"], { env, cwd: join(tmp, "proj2") })).results;
  const names = results.map((r) => r.path.slice(dir.length + 1));
  assert.equal(names[0], "windows.md", "the rare word's match first");
  assert.ok(names.includes("api.md"), `the note that answers is still there: ${JSON.stringify(names)}`);
  assert.deepEqual(results.map((r) => r.weak === true), [false, true, true, true]);
});
