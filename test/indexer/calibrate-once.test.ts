/**
 * Calibrating the vector leg (indexer/calibrate-step.ts) reads the project's vectors once, not a
 * flat LanceDB search per pseudo-query (41 reads of every row, what made an index run's cost grow
 * with the store: issue 35). That one read answers as the flat searches did: test/retrieve/one-pass.test.ts.
 * Real SQLite and LanceDB; the store's calls counted, not replaced.
 */
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { calibrationsOf } from "../../src/store/fusion-calibration.js";
import type { VectorStore } from "../../src/store/vectors.js";
import { HashEmbedder } from "../helpers/hash-embedder.js";
import { makeEnv, tableOf, type IndexerEnv } from "../helpers/indexer-env.js";

const envs: IndexerEnv[] = [];
after(async () => {
  await Promise.all(envs.map((e) => e.close()));
});

const WORDS = ["billing", "ingest", "search", "auth", "export", "scheduler", "gateway", "reports", "mailer", "uploads", "audit", "metrics", "cache", "payments", "webhooks", "tenants"];
const STORES = ["postgres", "redis", "sqlite", "kafka", "clickhouse", "elastic", "dynamo", "minio"];

/** 60 notes of three sections, each with words of its own (pseudo-queries need rare words to find their source). */
function writeNotes(e: IndexerEnv, root: string): void {
  for (let n = 0; n < 60; n++) {
    const parts = [`# Note ${n}`];
    for (let s = 0; s < 3; s++) {
      const k = n * 3 + s;
      parts.push(`## ${WORDS[k % 16]} ${STORES[k % 8]}`, `The ${WORDS[k % 16]} part number ${k} keeps its records in ${STORES[(k * 5) % 8]} behind a ${WORDS[(k * 7) % 16]} proxy, word${k} and token${k * 3} and marker${k % 37}.`);
    }
    e.write(`${root}/n${n}.md`, `${parts.join("\n\n")}\n`);
  }
}

/** The real store, with every call of each method counted. */
function counted(store: VectorStore): { store: VectorStore; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const proxy = new Proxy(store, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver);
      if (typeof v !== "function") return v;
      return (...args: unknown[]) => {
        calls.set(String(key), (calls.get(String(key)) ?? 0) + 1);
        return v.apply(target, args);
      };
    },
  });
  return { store: proxy, calls };
}

test("an index run's calibration reads the project's vectors once: no flat search per pseudo-query", async () => {
  const e = makeEnv("calonce");
  envs.push(e);
  writeNotes(e, "a");
  writeNotes(e, "b"); // another project's rows in the same table
  const embedder = new HashEmbedder();
  await e.run({ roots: ["b"], project: "other", providers: [embedder] });
  const real = await e.vectors();
  const { store, calls } = counted(real);
  const s = await e.run({ roots: ["a"], project: "p1", providers: [embedder], vectors: async () => store });
  assert.equal(s.vector.status, "ok");
  const table = tableOf(embedder, 64);
  const cal = calibrationsOf(e.db, table, ["p1"])[0];
  assert.ok(cal && cal.queries >= 8, JSON.stringify(cal));
  assert.equal(calls.get("search") ?? 0, 0, `flat searches: ${JSON.stringify([...calls])}`);
  assert.equal(calls.get("batches"), 1, `reads of the project's rows: ${JSON.stringify([...calls])}`);
  // Every chunk of the project has its hub share.
  const chunks = e.db.prepare("SELECT count(*) FROM chunks WHERE project = 'p1'").pluck().get() as number;
  const hubs = e.db.prepare("SELECT count(*) FROM vec_hub h JOIN chunks c ON c.id = h.chunk_id WHERE c.project = 'p1'").pluck().get() as number;
  assert.ok(chunks >= 60);
  assert.equal(hubs, chunks);
});
