/**
 * The daemon embeds a backlog a share at a time (`maxRows`), so an index run waiting for
 * index.lock waits for one share: each call embeds at most that many and says more are left.
 */
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { embedStep } from "../../indexer/embed-step.js";
import { MemoryService } from "../../src/service/memory.js";
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

test("maxRows bounds a call's redone rows too: memories edited while embedded wait for the next call rather than a second share", async () => {
  const e = makeEnv("share-redo");
  envs.push(e);
  e.write("mem/notes.md", "# Notes\n\nThe build uses esbuild.\n");
  const svc = new MemoryService({ db: e.db, config: e.config, projectRoot: () => undefined });
  const ids = Array.from({ length: 6 }, (_, i) => svc.put({ project: "p1", session: "s1", text: `service ${i} listens on port ${5000 + i}` }).memory.id);
  await e.run({ roots: ["mem"], providers: [] }); // chunks, no vectors
  let rows = 0;
  let edited = false;
  class Editing extends HashEmbedder {
    override async embed(texts: string[]): Promise<Float32Array[]> {
      rows += texts.length;
      const out = await super.embed(texts);
      if (!edited) {
        edited = true;
        for (const id of ids) svc.patch(id, { text: `${svc.get(id).text}, moved` }); // every memory edited mid-call
      }
      return out;
    }
  }
  const embedder = new Editing();
  const step = () => embedStep({ project: "p1", providers: [embedder], state: e.state, vectors: e.vectors, batchSize: 2, concurrency: 1, full: false, now: Date.now, maxRows: 4, warn: (m) => assert.fail(m) });
  const first = await step();
  assert.equal(rows, 4, "one share of rows embedded, the redone ones included");
  assert.equal(first.limited, true, "more is left");
  for (let i = 0; i < 5 && (await step()).limited; i++);
  await assertVectorsMatch(e, tableOf(embedder, embedder.dims), { complete: true, projects: ["p1"] });
});
