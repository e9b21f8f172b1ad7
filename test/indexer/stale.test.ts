import assert from "node:assert/strict";
import { readdirSync, renameSync, rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { reindexStale } from "../../indexer/reindex-stale.js";
import { rootIndexedAt } from "../../indexer/root-state.js";
import { chunkingKey } from "../../indexer/chunking-key.js";
import { quickStale, rootChanged } from "../../indexer/stale.js";
import { walkDirs } from "../../indexer/sources.js";
import { makeEnv, type IndexerEnv } from "../helpers/indexer-env.js";

const envs: IndexerEnv[] = [];
after(async () => {
  for (const e of envs) await e.close();
});

/** A project "p1" indexed from `notes`, every file and folder dated a minute back. */
async function indexed(tag: string, files = 3): Promise<{ e: IndexerEnv; root: string; ref: { project: string; path: string } }> {
  const e = makeEnv(tag);
  envs.push(e);
  for (let i = 0; i < files; i++) e.write(`notes/d${i % 3}/n${i}.md`, `# Note ${i}\n\nThe note numbered ${i}.\n`);
  const root = join(e.dir, "notes");
  backdate(root);
  await e.run({ roots: ["notes"], providers: [] });
  return { e, root, ref: { project: "p1", path: root } };
}

function backdate(root: string): void {
  const t = new Date(Date.now() - 60_000);
  for (const x of readdirSync(root, { withFileTypes: true, recursive: true })) utimesSync(join(x.parentPath, x.name), t, t);
  utimesSync(root, t, t);
}

const runs = (e: IndexerEnv) => e.db.prepare("SELECT count(*) FROM runs").pluck().get() as number;

describe("the cheap check: has an indexed root changed? (bounded stat calls, no walk)", () => {
  test("nothing touched since the run: not stale", async () => {
    const { e, ref } = await indexed("stale-none");
    assert.deepEqual(quickStale(e.db, [ref], { budget: 256, now: Date.now() }), { stale: [], partial: false });
    assert.equal(rootChanged(e.db, ref, e.config.index.ignore, e.config.index.maxFileBytes), undefined);
  });

  test("a file edited in place is seen by its size and mtime", async () => {
    const { e, ref } = await indexed("stale-edit");
    e.write("notes/d1/n1.md", "# Note 1\n\nRewritten.\n");
    const q = quickStale(e.db, [ref], { budget: 256, now: Date.now() });
    assert.equal(q.stale.length, 1);
    assert.match(q.stale[0]!.why, /n1\.md changed/);
    assert.match(rootChanged(e.db, ref, e.config.index.ignore, e.config.index.maxFileBytes) ?? "", /n1\.md changed/);
  });

  test("a file added, or removed, in a sub-folder is seen by the folder's mtime", async () => {
    const { e, root, ref } = await indexed("stale-add");
    e.write("notes/d2/new.md", "# New\n");
    assert.match(quickStale(e.db, [ref], { budget: 256, now: Date.now() }).stale[0]?.why ?? "", /d2: entries added or removed/);
    assert.match(rootChanged(e.db, ref, e.config.index.ignore, e.config.index.maxFileBytes) ?? "", /new\.md is new/);
    rmSync(join(root, "d2", "new.md"));
    rmSync(join(root, "d0", "n0.md"));
    assert.match(quickStale(e.db, [ref], { budget: 256, now: Date.now() }).stale[0]?.why ?? "", /d0: entries added or removed/);
    assert.match(rootChanged(e.db, ref, e.config.index.ignore, e.config.index.maxFileBytes) ?? "", /1 file\(s\) under .* gone/);
  });

  test("a root never recorded by a run of this version counts as stale once", async () => {
    const { e, root, ref } = await indexed("stale-unrecorded");
    e.db.prepare("DELETE FROM meta WHERE key LIKE 'root-indexed:%'").run();
    assert.match(quickStale(e.db, [ref], { budget: 256, now: Date.now() }).stale[0]?.why ?? "", /no record of when it was last indexed/);
    assert.equal(rootIndexedAt(e.db, "p1", root), undefined);
  });

  test("a missing root is not stale here (it is reported by the daemon and mem index)", async () => {
    const { e, root, ref } = await indexed("stale-missing");
    renameSync(root, `${root}-away`);
    assert.deepEqual(quickStale(e.db, [ref], { budget: 256, now: Date.now() }), { stale: [], partial: false });
  });

  test("a tree larger than the budget is sampled (partial), the window moving with the clock so every file is looked at in turn", async () => {
    const e = makeEnv("stale-big");
    envs.push(e);
    for (let i = 0; i < 300; i++) e.write(`notes/d${i % 3}/n${i}.md`, `# Note ${i}\n\nThe note numbered ${i}.\n`);
    const root = join(e.dir, "notes");
    backdate(root);
    // The oldest file, so never among the most recently edited sampled first.
    const victim = join(root, "d0", "n150.md");
    const old = new Date(Date.now() - 120_000);
    utimesSync(victim, old, old);
    await e.run({ roots: ["notes"], providers: [] });
    const ref = { project: "p1", path: root };
    const now = Date.now();
    assert.deepEqual(quickStale(e.db, [ref], { budget: 40, now }), { stale: [], partial: true });
    // Touched in place, its size kept: only its own mtime tells, and only a check that looks at it.
    const touched = new Date(Date.now() - 90_000);
    utimesSync(victim, touched, touched);
    const seen = Array.from({ length: 300 }, (_, s) => quickStale(e.db, [ref], { budget: 40, now: now + s * 1000 }).stale.length > 0);
    assert.ok(seen.some((x) => x), "some check within 300 successive seconds looks at it");
    assert.ok(seen.some((x) => !x), "a single check does not look at every file");
  });
});

describe("mem index --stale: the full check", () => {
  test("re-indexes only the roots that changed; an unchanged one records the check and costs no run", async () => {
    const e = makeEnv("stale-full");
    envs.push(e);
    e.write("a/one.md", "# One\n\nThe ibis.\n");
    e.write("b/two.md", "# Two\n\nThe heron.\n");
    backdate(join(e.dir, "a"));
    backdate(join(e.dir, "b"));
    await e.run({ roots: ["a"], providers: [] });
    await e.run({ roots: ["b"], providers: [] });
    const before = runs(e);
    e.write("b/two.md", "# Two\n\nThe egret.\n");
    const r = await reindexStale({ db: e.db, config: e.config, providers: [], vectors: e.vectors }, {});
    assert.equal(r.checked, 2);
    assert.deepEqual(r.stale.map((s) => s.path), [join(e.dir, "b")]);
    assert.equal(r.runs.length, 1);
    assert.equal(r.runs[0]!.files.indexed, 1);
    assert.equal(runs(e), before + 1);
    assert.ok((rootIndexedAt(e.db, "p1", join(e.dir, "a")) ?? 0) > Date.now() - 10_000, "the unchanged root's check is recorded");
    const again = await reindexStale({ db: e.db, config: e.config, providers: [], vectors: e.vectors }, {});
    assert.deepEqual({ stale: again.stale, runs: again.runs.length }, { stale: [], runs: 0 });
    assert.equal(runs(e), before + 1);
  });

  test("a file the indexer skips (binary, not UTF-8) is no news: the root is not indexed again at every check", async () => {
    const e = makeEnv("stale-skipped");
    envs.push(e);
    e.write("a/one.md", "# One\n\nThe ibis.\n");
    e.write("a/logo.md", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]));
    e.write("a/latin1.md", Buffer.from("caf\xe9\n", "latin1"));
    const first = await e.run({ roots: ["a"], providers: [] });
    assert.equal(first.files.skipped, 2);
    const before = runs(e);
    const r = await reindexStale({ db: e.db, config: e.config, providers: [], vectors: e.vectors }, {});
    assert.deepEqual({ stale: r.stale, runs: r.runs.length }, { stale: [], runs: 0 });
    assert.equal(runs(e), before, "no run recorded");
    // A stored file that turns binary keeps its chunks, and is no news either; nor a skipped file given as the root.
    e.write("a/one.md", Buffer.from([0x23, 0, 0, 0]));
    assert.equal(rootChanged(e.db, { project: "p1", path: join(e.dir, "a") }, e.config.index.ignore, e.config.index.maxFileBytes), undefined);
    assert.equal(rootChanged(e.db, { project: "p1", path: join(e.dir, "a", "logo.md") }, e.config.index.ignore, e.config.index.maxFileBytes), undefined);
    e.write("a/two.md", "# Two\n\nThe heron.\n");
    assert.match(rootChanged(e.db, { project: "p1", path: join(e.dir, "a") }, e.config.index.ignore, e.config.index.maxFileBytes) ?? "", /two\.md is new/, "a new file it would index is news");
  });

  test("after an upgrade that chunks otherwise, every root of the project is stale once, and the run chunks it again", async () => {
    const e = makeEnv("stale-chunker");
    envs.push(e);
    e.write("a/one.md", "# One\n\n<!-- a template's hint -->\nThe ibis.\n");
    backdate(join(e.dir, "a"));
    await e.run({ roots: ["a"], providers: [] });
    const ref = { project: "p1", path: join(e.dir, "a") };
    const now = chunkingKey(e.config.index);
    assert.equal(quickStale(e.db, [ref], { budget: 256, now: Date.now(), chunking: now }).stale.length, 0);
    // As a store indexed by the chunker before: the comment in the chunk, the key of then.
    e.db.prepare("UPDATE chunks SET text = '<!-- a template''s hint -->' || char(10) || text").run();
    e.db.prepare("UPDATE meta SET value = 'chunker 3: 400/80/64 tokens' WHERE key = 'chunking:p1'").run();
    assert.match(quickStale(e.db, [ref], { budget: 256, now: Date.now(), chunking: now }).stale[0]?.why ?? "", /^chunking changed since it was indexed \(chunker 3: 400\/80\/64 tokens → chunker 7/);
    assert.equal(quickStale(e.db, [ref], { budget: 256, now: Date.now() }).stale.length, 0, "not checked without the key of now");
    const r = await reindexStale({ db: e.db, config: e.config, providers: [], vectors: e.vectors }, {});
    assert.equal(r.runs.length, 1, "mem index --stale runs");
    assert.doesNotMatch(e.db.prepare("SELECT group_concat(text) FROM chunks").pluck().get() as string, /template/, "the comment is gone");
    assert.equal(rootChanged(e.db, ref, e.config.index.ignore, e.config.index.maxFileBytes, now), undefined, "and the root is up to date");
  });

  test("a missing root is reported and left as indexed (a re-index would empty it)", async () => {
    const e = makeEnv("stale-gone");
    envs.push(e);
    e.write("a/one.md", "# One\n\nThe ibis.\n");
    await e.run({ roots: ["a"], providers: [] });
    rmSync(join(e.dir, "a"), { recursive: true });
    const r = await reindexStale({ db: e.db, config: e.config, providers: [], vectors: e.vectors }, {});
    assert.deepEqual(r.missing, [{ project: "p1", path: join(e.dir, "a") }]);
    assert.equal(r.runs.length, 0);
    assert.equal(e.db.prepare("SELECT count(*) FROM chunks WHERE project = 'p1'").pluck().get(), 1);
  });
});

describe("walkDirs: what the daemon watches", () => {
  test("the directories the indexer walks (ignore rules, .git skipped), bounded", async () => {
    const e = makeEnv("walkdirs");
    envs.push(e);
    e.write("r/.gitignore", "build/\n");
    e.write("r/a/x.md", "x");
    e.write("r/a/b/y.md", "y");
    e.write("r/build/z.md", "z");
    e.write("r/node_modules/m/readme.md", "m");
    e.write("r/.git/HEAD", "ref");
    const root = join(e.dir, "r");
    assert.deepEqual(walkDirs(root, e.config.index.ignore, 100), { dirs: [root, join(root, "a"), join(root, "a", "b")], truncated: false, warnings: [] });
    assert.deepEqual(walkDirs(root, e.config.index.ignore, 2).truncated, true);
    assert.deepEqual(walkDirs(root, e.config.index.ignore, 100, new Set([join(root, "a")])).dirs, [root]);
  });
});
