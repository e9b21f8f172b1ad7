/**
 * The vector step compacts the table once small fragments have gathered (indexer/embed-step.ts
 * COMPACT_AT), not after every run: LanceDB's compaction rewrites every fragment under a million
 * rows with the new ones, the whole table below that size, so compacting each run made an index
 * run's cost grow with the store (issue 35). Real SQLite and LanceDB.
 */
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { COMPACT_AT } from "../../indexer/embed-step.js";
import { HashEmbedder } from "../helpers/hash-embedder.js";
import { lanceRows, makeEnv, tableOf, type IndexerEnv } from "../helpers/indexer-env.js";

const envs: IndexerEnv[] = [];
after(async () => {
  await Promise.all(envs.map((e) => e.close()));
});

test("runs that each add a few vectors leave their fragments until enough have gathered, then one compaction joins them", async () => {
  const e = makeEnv("compactgather");
  envs.push(e);
  const embedder = new HashEmbedder();
  const table = tableOf(embedder, 64);
  const fragments: number[] = [];
  for (let run = 0; run < COMPACT_AT + 1; run++) {
    e.write(`notes/n${run}.md`, `# Note ${run}\n\nThe note number ${run} says word${run} and token${run * 7}.\n`);
    const s = await e.run({ roots: ["notes"], providers: [embedder] });
    assert.equal(s.vector.embedded, 1, `run ${run}`);
    fragments.push((await (await e.vectors()).fragments(table)).all);
  }
  // One fragment a run until COMPACT_AT, then compacted to one, then gathering again.
  const expected = [...Array.from({ length: COMPACT_AT - 1 }, (_, i) => i + 1), 1, 2];
  assert.deepEqual(fragments, expected);
  // Nothing lost either way: one row per chunk.
  const rows = await lanceRows(await e.vectors(), table);
  assert.equal(rows.length, COMPACT_AT + 1);
  assert.equal(new Set(rows.map((r) => r.id)).size, COMPACT_AT + 1);
});
