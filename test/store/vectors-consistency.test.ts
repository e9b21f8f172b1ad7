/**
 * Two processes' views of one LanceDB directory: the daemon keeps a table open while `mem index`,
 * `mem forget --purge` or `mem reindex` write and compact it. Every read sees the latest version,
 * and a reader holding the table open keeps reading after another connection pruned old versions.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { asStored } from "../../src/redact/clean.cjs";
import { VectorStore } from "../../src/store/vectors.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-vec-consistency-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

const row = (i: number) => ({ id: asStored(`c${i}`), project: asStored("/p"), vector: Float32Array.from([1, i, 0, 0]) });

test("a table held open by one connection sees another's writes, deletes and compaction", async () => {
  const dir = join(tmp, "lancedb");
  const writer = await VectorStore.open(dir);
  await writer.ensure("t", 4);
  await writer.upsert("t", [row(1), row(2)]);
  const reader = await VectorStore.open(dir);
  assert.equal(await reader.count("t"), 2, "opened after the first write");
  await writer.upsert("t", [row(3), row(4), row(5)]);
  assert.equal(await reader.count("t"), 5, "the writer's later rows");
  await writer.delete("t", ["c1"]);
  assert.deepEqual((await reader.ids("t")).sort(), ["c2", "c3", "c4", "c5"], "a purge elsewhere");
  await writer.optimize("t", new Date(Date.now() + 1_000));
  assert.equal(await writer.versions("t"), 1, "old versions pruned");
  const hits = await reader.search("t", Float32Array.from([1, 3, 0, 0]), undefined, 2);
  assert.equal(hits[0]?.id, "c3", "the reader still searches after the prune");
  assert.equal(await reader.count("t"), 4);
});
