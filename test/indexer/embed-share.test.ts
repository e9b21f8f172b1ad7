/**
 * The daemon embeds a backlog a share at a time (`maxRows`), so an index run waiting for
 * index.lock waits for one share: each call embeds at most that many and says more are left.
 */
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { embedStep } from "../../indexer/embed-step.js";
import { HashEmbedder } from "../helpers/hash-embedder.js";
import { assertVectorsMatch, makeEnv, tableOf, type IndexerEnv } from "../helpers/indexer-env.js";

const envs: IndexerEnv[] = [];
after(async () => Promise.all(envs.map((e) => e.close())));

test("maxRows: a backlog of 10 chunks is embedded 4, 4, then 2, the first two calls saying more are left", async () => {
  const e = makeEnv("share");
  envs.push(e);
  for (let i = 0; i < 10; i++) e.write(`mem/n${i}.md`, `# Note ${i}\n\nThe fact numbered w${i}q.\n`);
  await e.run({ roots: ["mem"], providers: [] }); // chunks, no vectors
  const embedder = new HashEmbedder();
  const step = () => embedStep({ project: "p1", providers: [embedder], state: e.state, vectors: e.vectors, batchSize: 3, concurrency: 1, full: false, now: Date.now, maxRows: 4, warn: (m) => assert.fail(m) });
  const calls = [await step(), await step(), await step()];
  assert.deepEqual(calls.map((r) => [r.embedded, r.limited ?? false]), [[4, true], [4, true], [2, false]]);
  await assertVectorsMatch(e, tableOf(embedder, embedder.dims), { complete: true, projects: ["p1"] });
});
