import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { after, describe, test } from "node:test";
import { PACKAGE_ROOT } from "../../src/config/config.js";
import { firstHealthy } from "../../src/embed/chain.js";
import { search, type Mode } from "../../src/retrieve/search.js";
import { HashEmbedder } from "../helpers/hash-embedder.js";
import { makeEnv, project } from "../helpers/indexer-env.js";

// 38 real architecture decision records from ../shared (absent on a user's clone: skip cleanly).
const ADR = join(PACKAGE_ROOT, "..", "shared", "data", "adr");
const present = existsSync(join(ADR, "0018-use-rds-instead-of-provisioned-ec2-databases.md"));

describe("ingesting real architecture decision records", { skip: present ? false : `no ${ADR}` }, () => {
  const env = makeEnv("adr");
  const embedder = new HashEmbedder("hash-adr", 64);
  after(() => env.close());

  const top = async (text: string, mode: Mode) => {
    const res = await search(
      { db: env.db, vectors: () => env.vectors(), projectRoot: () => undefined, pickProvider: () => firstHealthy([embedder]) },
      { text, k: 5, mode, filters: { projects: ["adr"] }, candidates: 50, rrfK: 60, weights: { bm25: 1, vector: 1 }, dedupeThreshold: 0.9 },
    );
    return res.results.map((r) => basename(r.path));
  };

  test("every record is indexed without warnings, with vectors for every chunk", async () => {
    const s = await env.run({ roots: [ADR], project: "adr", providers: [embedder] });
    assert.equal(s.files.indexed, 38);
    assert.equal(s.files.skipped, 0);
    assert.deepEqual(s.warnings, []);
    assert.ok(s.chunks.total > 38, `expected several chunks per record, got ${s.chunks.total}`);
    assert.equal(s.vector.status, "ok");
    assert.equal(s.vector.embedded, s.chunks.total);
  });

  test("a question about a decision finds its record first, in every mode", async () => {
    for (const mode of ["bm25", "hybrid"] as Mode[]) {
      assert.equal((await top("use RDS instead of provisioned EC2 databases", mode))[0], "0018-use-rds-instead-of-provisioned-ec2-databases.md", mode);
      assert.equal((await top("ElastiCache for Redis", mode))[0], "0025-use-elasticache-for-redis.md", mode);
    }
  });

  test("chunks keep the record's heading path and real line numbers; one-line sections join their neighbours", () => {
    const rows = env.db.prepare("SELECT heading, start_line, end_line, text FROM chunks WHERE path LIKE '%0018-%' ORDER BY seq").all() as { heading: string; start_line: number; end_line: number; text: string }[];
    assert.ok(rows.some((r) => r.heading === "18. Use RDS instead of provisioned EC2 databases > Decision"));
    // "Date: …", "## Status / Accepted" alone would rank on the title and say nothing: they open the Context chunk.
    assert.equal(rows[0]!.heading, "18. Use RDS instead of provisioned EC2 databases");
    assert.equal(rows[0]!.start_line, 1);
    assert.match(rows[0]!.text, /^# 18\. Use RDS[^\n]*\n\nDate: 2017-08-01\n\n## Status\n\nAccepted\n\n## Context\n\nWe use both MySQL/);
    for (const r of rows) assert.ok(r.end_line >= r.start_line);
    const tiny = env.db.prepare("SELECT count(*) FROM chunks WHERE project = 'adr' AND length(text) < 256").pluck().get() as number;
    assert.ok(tiny <= 2, `${tiny} chunks under 64 tokens in 38 records`);
  });

  test("re-indexing the unchanged records costs no embedding", async () => {
    const before = embedder.texts;
    const s = await env.run({ roots: [ADR], project: "adr", providers: [embedder] });
    assert.equal(s.files.unchanged, 38);
    assert.equal(embedder.texts, before);
  });

  test("the records never leak into another project's results", async () => {
    const res = await search(
      { db: env.db, vectors: () => env.vectors(), projectRoot: () => undefined, pickProvider: () => firstHealthy([embedder]) },
      { text: "RDS databases", k: 5, mode: "hybrid", filters: { projects: [project("elsewhere").id] }, candidates: 50, rrfK: 60, weights: { bm25: 1, vector: 1 }, dedupeThreshold: 0.9 },
    );
    assert.deepEqual(res.results, []);
  });
});
