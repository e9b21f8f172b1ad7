/**
 * The default search is warm: chunks of the cold tier (notes under archive/, and memories a
 * maintenance job moved there by setting their tier) are left out of both legs, and a search with
 * `tier: "cold"` finds them alone. Real SQLite and LanceDB, a hash embedder.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { indexPaths } from "../../indexer/pipeline.js";
import { defaultConfig } from "../../src/config/config.js";
import { firstHealthy } from "../../src/embed/chain.js";
import { resolveProject } from "../../src/project/identity.js";
import type { TierScope } from "../../src/retrieve/filters.js";
import { search, type SearchContext, type SearchOptions } from "../../src/retrieve/search.js";
import { openDb, type Db } from "../../src/store/db.js";
import { VectorStore } from "../../src/store/vectors.js";
import { HashEmbedder } from "../helpers/hash-embedder.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-tier-")));
const root = join(tmp, "proj");
const embedder = new HashEmbedder("hash-test", 256);
let db: Db;
let store: VectorStore;
let ctx: SearchContext;
let P: string;

function write(rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

const opts = (text: string, over: Partial<SearchOptions> = {}, tier?: TierScope): SearchOptions => ({
  text,
  k: 10,
  mode: "hybrid",
  filters: { projects: [P], ...(tier ? { tier } : {}) },
  candidates: 50,
  rrfK: 60,
  weights: { bm25: 1, vector: 1 },
  dedupeThreshold: 0.9,
  ...over,
});
const rels = async (o: SearchOptions) => (await search(ctx, o)).results.map((r) => r.path.slice(root.length + 1)).sort();

before(async () => {
  write("notes/db.md", "# Database\n\nThe pelican schema migrations run before every deploy.\n");
  write("notes/moved.md", "# Old habit\n\nWe once ran pelican migrations by hand on Fridays.\n");
  write("archive/2023.md", "# 2023\n\nThe pelican cron box ran the schema migrations nightly.\n");
  for (let i = 0; i < 4; i++) write(`archive/near-${i}.md`, `# Near ${i}\n\ngannet rollback gannet rollback plan ${i}\n`);
  write("notes/gannet.md", "# Gannet\n\ngannet rollback steps, written down once for the release team and the on-call rota.\n");
  db = openDb(join(tmp, "home", "mem.sqlite"));
  store = await VectorStore.open(join(tmp, "home", "vectors"));
  const project = resolveProject(root);
  P = project.id;
  const s = await indexPaths({ db, config: defaultConfig(), providers: [embedder], vectors: async () => store }, { roots: [root], project, full: false });
  assert.equal(s.vector.status, "ok");
  // What the weekly job does to a warm memory unused for long: its chunks' tier becomes cold.
  db.prepare("UPDATE chunks SET tier = 'cold' WHERE path = ?").run(join(root, "notes", "moved.md"));
  ctx = { db, vectors: async () => store, projectRoot: (p) => (p.startsWith("/") ? p : undefined), pickProvider: () => firstHealthy([embedder]) };
});

after(() => {
  store?.close();
  db?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe("tiers in search", () => {
  test("the default search leaves out the archive and chunks moved to the cold tier, in both legs", async () => {
    const cold = (p: string) => p.startsWith("archive/") || p === "notes/moved.md";
    const hybrid = await search(ctx, opts("pelican schema migrations"));
    assert.equal(hybrid.results[0]?.path, join(root, "notes", "db.md"));
    assert.ok(hybrid.results.every((r) => r.tier === "warm"), hybrid.results.map((r) => `${r.path} ${r.tier}`).join(", "));
    assert.deepEqual(await rels(opts("pelican schema migrations", { mode: "bm25" })), ["notes/db.md"]);
    const vector = await rels(opts("pelican schema migrations", { mode: "vector" }));
    assert.ok(vector.length > 0 && !vector.some(cold), vector.join(", "));
  });

  test("tier cold finds only the cold tier; all finds every tier", async () => {
    assert.deepEqual(await rels(opts("pelican schema migrations", { mode: "bm25" }, "cold")), ["archive/2023.md", "notes/moved.md"]);
    const hybrid = await search(ctx, opts("pelican schema migrations", {}, "cold"));
    assert.deepEqual(hybrid.results.slice(0, 2).map((r) => r.path.slice(root.length + 1)).sort(), ["archive/2023.md", "notes/moved.md"]);
    assert.ok(hybrid.results.every((r) => r.tier === "cold"));
    assert.deepEqual(await rels(opts("pelican schema migrations", { mode: "bm25" }, "all")), ["archive/2023.md", "notes/db.md", "notes/moved.md"]);
  });

  test("cold chunks nearest to the query do not starve the warm vector leg (it fetches twice the candidates)", async () => {
    // Four archived chunks are nearer to the query than the warm note; with 4 candidates the leg
    // still reaches the warm one.
    const res = await search(ctx, opts("gannet rollback plan", { mode: "vector", candidates: 4 }));
    assert.ok(res.results.some((r) => r.path.endsWith("notes/gannet.md")), res.results.map((r) => r.path).join(", "));
    const cold = await search(ctx, opts("gannet rollback plan", { mode: "vector", candidates: 4 }, "cold"));
    assert.equal(cold.results.filter((r) => r.path.includes("/archive/near-")).length, 4);
  });
});
