import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { indexPaths } from "../../indexer/pipeline.js";
import { defaultConfig } from "../../src/config/config.js";
import { firstHealthy } from "../../src/embed/chain.js";
import type { EmbeddingProvider, Health } from "../../src/embed/provider.js";
import { resolveProject } from "../../src/project/identity.js";
import { search, SearchError, type SearchContext, type SearchOptions, type SearchResult } from "../../src/retrieve/search.js";
import { openDb, type Db } from "../../src/store/db.js";
import { VectorStore, vectorTableName } from "../../src/store/vectors.js";
import { HashEmbedder } from "../helpers/hash-embedder.js";

const DIMS = 256;
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-search-")));
const dirA = join(tmp, "alpha");
const dirB = join(tmp, "beta");
const dirC = join(tmp, "gamma");

function write(root: string, rel: string, text: string): string {
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

const DB_MD = `---
kind: decision
tags: [db, infra]
date: 2024-03-05
---
# Database

## Migrations

We run schema migrations with a rollback script before every deploy.
`;
const DUP = "Release checklist: bump the version, tag the commit, publish the package, announce it in the team channel.";

/** Project A: a small tiered memory; B: a copy of one file plus its own; C: indexed without vectors. */
function writeCorpus(): void {
  write(dirA, "notes/db.md", DB_MD);
  write(dirA, "notes/cache.md", "---\ntags: [db]\ndate: 2024-01-10\n---\n# Cache\n\nThe cache layer keeps query results in Redis for five minutes.\n");
  write(dirA, "sessions/2024-06-20.md", "---\ndate: 2024-06-20\ntags: [session]\n---\n# Session\n\nWe debugged the flaky login test and raised its timeout.\n");
  write(dirA, "birds.md", "# Field notes\n\nThe marmot watched from its burrow while a kestrel circled above the meadow.\n");
  write(dirA, "dup-one.md", `# Shipping\n\n${DUP}\n`);
  write(dirA, "dup-two.md", `# Shipping\n\n${DUP}\n`);
  write(dirA, "misc.md", "# Misc\n\nSpreadsheet exports use semicolons as separators.\n");
  write(dirB, "notes/db.md", DB_MD);
  write(dirB, "glossary.md", "# Glossary\n\nA kestrel is a small falcon; the word appears in our bird survey glossary.\n");
  write(dirC, "plain.md", "# Plain\n\nSchema migrations in gamma are applied by hand.\n");
}

/** A provider whose health check always fails. */
class DownProvider implements EmbeddingProvider {
  readonly name = "down";
  readonly model = "down-model";
  embedCalls = 0;
  async health(): Promise<Health> {
    return { ok: false, reason: "down for this test", fix: "nothing to fix" };
  }
  async embed(): Promise<Float32Array[]> {
    this.embedCalls++;
    throw new Error("must not be called");
  }
}

let db: Db;
let store: VectorStore;
let A: string;
let B: string;
let C: string;
const indexer = new HashEmbedder("hash-test", DIMS);

interface Probe {
  ctx: SearchContext;
  picks: () => number;
}
function ctxWith(providers: EmbeddingProvider[]): Probe {
  let picks = 0;
  return {
    picks: () => picks,
    ctx: {
      db,
      vectors: async () => store,
      projectRoot: (p) => (p.startsWith("/") ? p : undefined),
      pickProvider: () => {
        picks++;
        return firstHealthy(providers);
      },
    },
  };
}

const opts = (text: string, over: Partial<SearchOptions> = {}): SearchOptions => ({
  text,
  k: 10,
  mode: "hybrid",
  filters: {},
  candidates: 50,
  rrfK: 60,
  weights: { bm25: 1, vector: 1 },
  dedupeThreshold: 0.9,
  ...over,
});
const rel = (r: SearchResult) => r.path.slice((`${r.project}/`).length);
const rels = (rs: SearchResult[]) => rs.map(rel).sort();

before(async () => {
  writeCorpus();
  db = openDb(join(tmp, "home", "mem.sqlite"));
  store = await VectorStore.open(join(tmp, "home", "vectors"));
  const config = defaultConfig();
  for (const dir of [dirA, dirB]) {
    const project = resolveProject(dir);
    const s = await indexPaths({ db, config, providers: [indexer], vectors: async () => store }, { roots: [dir], project, full: false });
    assert.equal(s.vector.status, "ok", JSON.stringify(s.vector));
    assert.equal(s.vector.embedded, s.chunks.total);
  }
  A = resolveProject(dirA).id;
  B = resolveProject(dirB).id;
  C = resolveProject(dirC).id;
  assert.equal(A, dirA);
});

after(() => {
  store?.close();
  db?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe("search over a real index (SQLite FTS5 + LanceDB, hash embedder)", () => {
  test("hybrid: both legs ran, each result carries per-leg ranks and scores and the weighted fused score", async () => {
    const { ctx } = ctxWith([new HashEmbedder("hash-test", DIMS)]);
    const res = await search(ctx, opts("schema migrations rollback", { filters: { projects: [A] } }));
    assert.deepEqual(res.legs, ["bm25", "vector"]);
    assert.deepEqual(res.vector, { provider: "hash", model: "hash-test", table: vectorTableName({ name: "hash", model: "hash-test" }, DIMS) });
    assert.deepEqual(res.warnings, []);
    const top = res.results[0]!;
    assert.equal(rel(top), "notes/db.md");
    assert.equal(top.legs.bm25?.rank, 1);
    assert.equal(top.legs.vector?.rank, 1);
    assert.ok(top.legs.bm25!.score > 0, "bm25 scores are negated so higher is better");
    assert.ok(top.legs.vector!.score > 0.3 && top.legs.vector!.score <= 1.0001, `cosine similarity ${top.legs.vector!.score}`);
    // Too few chunks to calibrate on: the vector leg keeps the prior weight, scaled by this query's trust.
    const f = res.fusion!;
    assert.equal(f.calibrated, 0.5);
    assert.equal(f.weights.bm25, 1);
    assert.ok(Math.abs(f.weights.vector - 0.5 * f.query) < 1e-12, JSON.stringify(f));
    assert.match(f.reason, /never calibrated/);
    assert.equal(top.score, 1, "the best of both legs scores 1");
    for (const r of res.results) assert.ok(r.score >= 0 && r.score <= 1, `${rel(r)}: fused ${r.score}`);
    for (let i = 1; i < res.results.length; i++) assert.ok(res.results[i - 1]!.score >= res.results[i]!.score, "fused scores descend");
    // only db.md matches lexically; every other chunk comes from the vector leg alone
    assert.deepEqual(res.results.filter((r) => r.legs.bm25).map(rel), ["notes/db.md"]);
    assert.ok(res.results.length > 1);
  });

  test("weights scale a leg's contribution", async () => {
    const { ctx } = ctxWith([new HashEmbedder("hash-test", DIMS)]);
    const res = await search(ctx, opts("schema migrations rollback", { filters: { projects: [A] }, weights: { bm25: 3, vector: 0.5 } }));
    const f = res.fusion!;
    assert.equal(f.weights.bm25, 3);
    assert.ok(Math.abs(f.weights.vector - 0.5 * f.calibrated * f.query) < 1e-12, JSON.stringify(f));
  });

  test("result objects carry id, text, path, line range, heading path, project and metadata", async () => {
    const { ctx } = ctxWith([new HashEmbedder("hash-test", DIMS)]);
    const [r] = (await search(ctx, opts("schema migrations rollback", { filters: { projects: [A] }, k: 1 }))).results;
    assert.ok(r);
    assert.match(r.id, /^[0-9a-f]{32}$/);
    assert.equal(r.path, join(dirA, "notes", "db.md"));
    assert.equal(r.project, A);
    assert.deepEqual(r.headingPath, ["Database", "Migrations"]);
    assert.equal(r.startLine, 6, "line numbers count the frontmatter");
    assert.equal(r.endLine, 10);
    assert.equal(r.text, "# Database\n\n## Migrations\n\nWe run schema migrations with a rollback script before every deploy.");
    assert.equal(r.kind, "decision");
    assert.equal(r.tier, "warm");
    assert.deepEqual(r.tags, ["db", "infra"]);
    assert.equal(r.date, "2024-03-05");
    assert.deepEqual(r.duplicates, []);
  });

  test("a chunk the lexical leg cannot find is still returned by hybrid through the vector leg", async () => {
    // FTS reads "kestrel_marmot" as the phrase "kestrel marmot", which birds.md does not contain
    // (the words are apart and reversed); the bag-of-words vector sees both words.
    const { ctx } = ctxWith([new HashEmbedder("hash-test", DIMS)]);
    const lexical = await search(ctx, opts("kestrel_marmot", { mode: "bm25", filters: { projects: [A] } }));
    assert.deepEqual(lexical.results, []);
    const sanity = await search(ctx, opts("kestrel", { mode: "bm25", filters: { projects: [A] } }));
    assert.deepEqual(sanity.results.map(rel), ["birds.md"], "the chunk is in the text index");

    const hybrid = await search(ctx, opts("kestrel_marmot", { filters: { projects: [A] } }));
    assert.deepEqual(hybrid.legs, ["bm25", "vector"]);
    const top = hybrid.results[0]!;
    assert.equal(rel(top), "birds.md");
    assert.equal(top.legs.bm25, undefined);
    assert.equal(top.legs.vector?.rank, 1);
    assert.ok(top.score > 0);
  });

  test("mode bm25 never asks for a provider and never embeds", async () => {
    const embedder = new HashEmbedder("hash-test", DIMS);
    const probe = ctxWith([embedder]);
    const res = await search(probe.ctx, opts("schema migrations rollback", { mode: "bm25", filters: { projects: [A] } }));
    assert.equal(probe.picks(), 0);
    assert.equal(embedder.calls + embedder.queryCalls, 0);
    assert.deepEqual(res.legs, ["bm25"]);
    assert.equal(res.vector, undefined);
    assert.deepEqual(res.results.map(rel), ["notes/db.md"]);
    assert.equal(res.results[0]!.legs.vector, undefined);
    assert.equal(res.results[0]!.score, 1, "BM25 alone: a share of its best score");
  });

  test("mode vector runs only the vector leg", async () => {
    const embedder = new HashEmbedder("hash-test", DIMS);
    const res = await search(ctxWith([embedder]).ctx, opts("schema migrations rollback", { mode: "vector", filters: { projects: [A] } }));
    assert.deepEqual(res.legs, ["vector"]);
    assert.equal(embedder.queryCalls, 1, "the query is embedded once");
    assert.equal(embedder.calls, 0, "as a query, not a document");
    assert.equal(rel(res.results[0]!), "notes/db.md");
    assert.ok(res.results.every((r) => r.legs.bm25 === undefined && r.legs.vector !== undefined));
  });

  test("no healthy provider: mode vector throws SearchError, hybrid answers from BM25 with a warning", async () => {
    const down = new DownProvider();
    const { ctx } = ctxWith([down]);
    await assert.rejects(search(ctx, opts("schema migrations", { mode: "vector", filters: { projects: [A] } })), (err: unknown) => {
      assert.ok(err instanceof SearchError);
      assert.match(err.message, /down for this test/);
      return true;
    });
    const res = await search(ctx, opts("schema migrations", { filters: { projects: [A] } }));
    assert.deepEqual(res.legs, ["bm25"]);
    assert.equal(res.vector, undefined);
    assert.deepEqual(res.warnings, ["vector leg skipped, answering from BM25 only: no embedding provider available: down for this test (fix: nothing to fix; `mem doctor` checks them all)"]);
    assert.deepEqual(res.results.map(rel), ["notes/db.md"]);
    assert.equal(down.embedCalls, 0);

    const none = await search(ctxWith([]).ctx, opts("schema migrations", { filters: { projects: [A] } }));
    assert.deepEqual(none.warnings, ["vector leg skipped, answering from BM25 only: no embedding provider configured (embedding.order is empty)"]);
    assert.equal(none.results.length, 1);
  });

  test("a healthy provider whose model has no vectors yet: warning in hybrid, SearchError in vector mode", async () => {
    const { ctx } = ctxWith([new HashEmbedder("other-model", DIMS)]);
    const res = await search(ctx, opts("schema migrations", { filters: { projects: [A] } }));
    assert.deepEqual(res.legs, ["bm25"]);
    assert.equal(res.warnings.length, 1);
    assert.match(res.warnings[0]!, /no vectors for hash \(other-model\) yet; run `mem index`/);
    await assert.rejects(search(ctx, opts("schema migrations", { mode: "vector" })), SearchError);
  });

  test("results stay inside the given projects; every project when projects is undefined", async () => {
    const { ctx } = ctxWith([new HashEmbedder("hash-test", DIMS)]);
    for (const mode of ["hybrid", "bm25", "vector"] as const) {
      const onlyB = await search(ctx, opts("schema migrations rollback kestrel", { mode, filters: { projects: [B] } }));
      assert.ok(onlyB.results.length > 0, mode);
      assert.ok(onlyB.results.every((r) => r.project === B), `${mode}: ${onlyB.results.map((r) => r.project).join(", ")}`);
      assert.ok(onlyB.results.every((r) => r.duplicates.length === 0));
      const onlyA = await search(ctx, opts("schema migrations rollback kestrel", { mode, filters: { projects: [A] } }));
      assert.ok(onlyA.results.every((r) => r.project === A), mode);
      const nobody = await search(ctx, opts("schema migrations rollback kestrel", { mode, filters: { projects: ["no-such-project"] } }));
      assert.deepEqual(nobody.results, [], mode);
    }
    // the same file indexed in both projects gives two chunks with distinct ids
    const both = await search(ctx, opts("schema migrations rollback", { mode: "bm25", dedupeThreshold: 2 }));
    const dbHits = both.results.filter((r) => rel(r) === "notes/db.md");
    assert.deepEqual(dbHits.map((r) => r.project).sort(), [A, B].sort());
    assert.notEqual(dbHits[0]!.id, dbHits[1]!.id);
    // undefined projects: both projects' own documents are found
    const all = await search(ctx, opts("kestrel", { mode: "bm25" }));
    assert.deepEqual(all.results.map((r) => `${r.project === A ? "A" : r.project === B ? "B" : "?"}:${rel(r)}`).sort(), ["A:birds.md", "B:glossary.md"]);
  });

  test("near-duplicate chunks collapse into one result that lists the others", async () => {
    const { ctx } = ctxWith([new HashEmbedder("hash-test", DIMS)]);
    const res = await search(ctx, opts("release checklist publish package", { mode: "bm25", filters: { projects: [A] } }));
    assert.equal(res.results.length, 1);
    const [r] = res.results;
    assert.ok(["dup-one.md", "dup-two.md"].includes(rel(r!)));
    assert.equal(r!.duplicates.length, 1);
    assert.notEqual(r!.duplicates[0], r!.id);
    const twin = await search(ctx, opts("release checklist publish package", { mode: "bm25", filters: { projects: [A] }, dedupeThreshold: 1.01 }));
    assert.deepEqual(rels(twin.results), ["dup-one.md", "dup-two.md"]);
    assert.ok(twin.results.map((x) => x.id).includes(r!.duplicates[0]!), "the collapsed id is the other file's chunk");
    // across projects the same paragraph collapses as well
    const cross = await search(ctx, opts("schema migrations rollback", { mode: "bm25", filters: { projects: [A, B] } }));
    assert.equal(cross.results.length, 1);
    assert.equal(cross.results[0]!.duplicates.length, 1);
  });

  describe("filters", () => {
    // Hybrid over a tiny corpus: the vector leg returns every chunk of the project, so the results
    // are exactly the chunks the filters let through.
    const q = (filters: SearchOptions["filters"]) => search(ctxWith([new HashEmbedder("hash-test", DIMS)]).ctx, opts("notes", { filters: { projects: [A], ...filters }, k: 50 }));

    test("no filter: every chunk of the project (near-duplicates collapsed)", async () => {
      const res = await q({});
      const dups = res.results.filter((r) => rel(r).startsWith("dup-"));
      assert.equal(dups.length, 1, "dup-one.md and dup-two.md collapse");
      assert.equal(dups[0]!.duplicates.length, 1);
      assert.deepEqual(rels(res.results.filter((r) => !rel(r).startsWith("dup-"))), ["birds.md", "misc.md", "notes/cache.md", "notes/db.md", "sessions/2024-06-20.md"]);
      assert.equal(res.results.length, 6);
    });

    test("kind (case-insensitive; from frontmatter or the layout)", async () => {
      assert.deepEqual(rels((await q({ kinds: ["decision"] })).results), ["notes/db.md"]);
      assert.deepEqual(rels((await q({ kinds: ["DECISION"] })).results), ["notes/db.md"]);
      assert.deepEqual(rels((await q({ kinds: ["session"] })).results), ["sessions/2024-06-20.md"]);
      assert.deepEqual(rels((await q({ kinds: ["session", "decision"] })).results), ["notes/db.md", "sessions/2024-06-20.md"]);
      assert.deepEqual((await q({ kinds: ["nope"] })).results, []);
    });

    test("tags: every tag must match; a leading # is ignored", async () => {
      assert.deepEqual(rels((await q({ tags: ["db"] })).results), ["notes/cache.md", "notes/db.md"]);
      assert.deepEqual(rels((await q({ tags: ["db", "infra"] })).results), ["notes/db.md"]);
      assert.deepEqual(rels((await q({ tags: ["#infra"] })).results), ["notes/db.md"]);
      assert.deepEqual((await q({ tags: ["infra", "session"] })).results, []);
    });

    test("path glob relative to the project root, or absolute", async () => {
      assert.deepEqual(rels((await q({ path: "sessions/**" })).results), ["sessions/2024-06-20.md"]);
      assert.deepEqual(rels((await q({ path: "notes/*.md" })).results), ["notes/cache.md", "notes/db.md"]);
      assert.deepEqual(rels((await q({ path: `${dirA}/notes/db.md` })).results), ["notes/db.md"]);
      const top = rels((await q({ path: "*.md" })).results);
      assert.equal(top.length, 3, "a single * does not cross directories");
      assert.deepEqual(top.filter((p) => !p.startsWith("dup-")), ["birds.md", "misc.md"]);
      assert.deepEqual((await q({ path: "archive/**" })).results, []);
    });

    test("since / until are inclusive; undated chunks drop out", async () => {
      assert.deepEqual(rels((await q({ since: "2024-03-01" })).results), ["notes/db.md", "sessions/2024-06-20.md"]);
      assert.deepEqual(rels((await q({ since: "2024-03-05" })).results), ["notes/db.md", "sessions/2024-06-20.md"]);
      assert.deepEqual(rels((await q({ until: "2024-03-05" })).results), ["notes/cache.md", "notes/db.md"]);
      assert.deepEqual(rels((await q({ until: "2024-03" })).results), ["notes/cache.md", "notes/db.md"], "a month-only bound includes that month");
      assert.deepEqual(rels((await q({ since: "2024-02-01", until: "2024-06-01" })).results), ["notes/db.md"]);
      assert.deepEqual((await q({ since: "2025-01-01" })).results, []);
    });

    test("filters combine with the lexical leg too", async () => {
      const res = await search(ctxWith([]).ctx, opts("schema migrations cache redis timeout", { filters: { projects: [A], tags: ["db"], until: "2024-02-01" } }));
      assert.deepEqual(rels(res.results), ["notes/cache.md"]);
    });
  });

  test("k caps the number of results", async () => {
    const { ctx } = ctxWith([new HashEmbedder("hash-test", DIMS)]);
    const many = await search(ctx, opts("notes", { filters: { projects: [A] }, k: 50 }));
    assert.ok(many.results.length >= 5);
    for (const k of [1, 3]) {
      const res = await search(ctx, opts("notes", { filters: { projects: [A] }, k }));
      assert.equal(res.results.length, k);
      assert.deepEqual(res.results.map((r) => r.id), many.results.slice(0, k).map((r) => r.id), "the top k of the same ranking");
    }
  });

  test("an embedder slower than vectorBudgetMs: hybrid answers from BM25 alone with a warning; without a budget it waits", async () => {
    // The embedder is held until the test lets it go (the timer is only a hang guard), so "answered before the
    // embedding" holds however slow a loaded machine is: no wall-clock bound.
    let release = (): void => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const guard = setTimeout(() => release(), 60_000);
    let embedded = 0;
    class Slow extends HashEmbedder {
      override async embed(texts: string[]): Promise<Float32Array[]> {
        await gate;
        embedded++;
        return super.embed(texts);
      }
    }
    const { ctx } = ctxWith([new Slow("hash-test", DIMS)]);
    const res = await search(ctx, opts("schema migrations rollback", { filters: { projects: [A] }, vectorBudgetMs: 50 }));
    assert.equal(embedded, 0, "answered without waiting for the embedding");
    assert.deepEqual(res.legs, ["bm25"]);
    assert.deepEqual(res.warnings, ["vector leg skipped, answering from BM25 only: no embedding within 50 ms"]);
    assert.deepEqual(res.results.map(rel), ["notes/db.md"]);
    await assert.rejects(search(ctx, opts("schema migrations", { mode: "vector", vectorBudgetMs: 50 })), /no embedding within 50 ms/);
    assert.equal(embedded, 0, "failed without waiting for the embedding");
    release();
    clearTimeout(guard);
    const patient = await search(ctx, opts("schema migrations rollback", { filters: { projects: [A] } }));
    assert.deepEqual(patient.legs, ["bm25", "vector"]);
  });

  test("empty or stop-word-only text: BM25 has nothing to match, no crash", async () => {
    const res = await search(ctxWith([]).ctx, opts("?!", { filters: { projects: [A] } }));
    assert.deepEqual(res.results, []);
  });

  test("a warning when vectors cover only part of the searched chunks", async () => {
    // gamma is indexed with no provider: BM25 only
    const s = await indexPaths({ db, config: defaultConfig(), providers: [], vectors: async () => store }, { roots: [dirC], project: resolveProject(dirC), full: false });
    assert.equal(s.vector.status, "skipped");
    assert.ok(s.chunks.total > 0);
    const { ctx } = ctxWith([new HashEmbedder("hash-test", DIMS)]);
    const all = await search(ctx, opts("schema migrations"));
    const countA = db.prepare("SELECT count(*) FROM chunks WHERE project IN (?, ?)").pluck().get(A, B) as number;
    const total = db.prepare("SELECT count(*) FROM chunks").pluck().get() as number;
    assert.deepEqual(all.warnings, [`vectors cover ${countA} of ${total} chunks; run \`mem index\` to finish them`]);
    assert.deepEqual(all.legs, ["bm25", "vector"]);
    assert.ok(all.results.some((r) => r.project === C && r.legs.bm25 && !r.legs.vector), "gamma is still found lexically");
    const onlyC = await search(ctx, opts("schema migrations", { filters: { projects: [C] } }));
    assert.equal(onlyC.warnings.length, 1);
    assert.match(onlyC.warnings[0]!, /^vectors cover 0 of 1 chunks/);
    assert.ok(onlyC.results.every((r) => r.project === C));
    const onlyA = await search(ctx, opts("schema migrations", { filters: { projects: [A] } }));
    assert.deepEqual(onlyA.warnings, []);
    const unchecked = await search(ctx, opts("schema migrations", { checkCoverage: false }));
    assert.deepEqual(unchecked.warnings, [], "the prompt path skips the counting, and the warning with it");
    assert.deepEqual(unchecked.legs, ["bm25", "vector"]);
  });
});
