/**
 * Calibrating the vector leg (indexer/calibrate-step.ts) reads the project's vectors once, not a
 * flat LanceDB search per pseudo-query (41 reads of every row, what made an index run's cost grow
 * with the store: issue 35). That one read answers as the flat searches did: test/retrieve/one-pass.test.ts.
 * Real SQLite and LanceDB; the store's calls counted, not replaced.
 */
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { sampleStands } from "../../indexer/calibrate-step.js";
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

test("sampleStands: a calibration stands when made from today's sample, or from every chunk of a smaller project (table)", () => {
  const cases: [string, { chunks: number; sampled?: number }, boolean][] = [
    ["100 of 500", { chunks: 500, sampled: 100 }, true],
    ["every one of 60", { chunks: 60, sampled: 60 }, true],
    ["40 of 500 (before)", { chunks: 500, sampled: 40 }, false],
    ["no sample recorded, 500 chunks: 40 then", { chunks: 500 }, false],
    ["no sample recorded, 30 chunks: every one then", { chunks: 30 }, true],
    ["no sample recorded, 60 chunks: 40 of them then", { chunks: 60 }, false],
  ];
  for (const [what, stored, stands] of cases) assert.equal(sampleStands(stored, 100), stands, what);
});

test("a calibration made from the old sample of 40 is made again once, from 100, and then stands", async () => {
  const e = makeEnv("calsample");
  envs.push(e);
  writeNotes(e, "a/x");
  writeNotes(e, "a/y"); // 120 notes: more chunks than the sample
  const embedder = new HashEmbedder();
  await e.run({ roots: ["a"], project: "p1", providers: [embedder] });
  const table = tableOf(embedder, 64);
  const first = calibrationsOf(e.db, table, ["p1"])[0]!;
  assert.ok(first.chunks > 100, `${first.chunks} chunks`);
  assert.equal(first.sampled, 100);
  // As a calibration stored before the sample was recorded (40 chunks, no `sampled`), marked by its weight.
  const { sampled: _s, table: _t, project: _p, at: _a, ...old } = first;
  e.db.prepare("UPDATE fusion_calibration SET detail = ?, weight = 0.123 WHERE project = 'p1'").run(JSON.stringify({ ...old, weight: 0.123 }));
  await e.run({ roots: ["a"], project: "p1", providers: [embedder] });
  const again = calibrationsOf(e.db, table, ["p1"])[0]!;
  assert.notEqual(again.weight, 0.123, "made again");
  assert.equal(again.sampled, 100);
  e.db.prepare("UPDATE fusion_calibration SET detail = ?, weight = 0.456 WHERE project = 'p1'").run(JSON.stringify({ ...again, weight: 0.456 }));
  await e.run({ roots: ["a"], project: "p1", providers: [embedder] });
  assert.equal(calibrationsOf(e.db, table, ["p1"])[0]!.weight, 0.456, "made from 100: it stands");
});
