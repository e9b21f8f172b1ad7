import assert from "node:assert/strict";
import { mkdirSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { embedText } from "../../indexer/embed-step.js";
import { chunksOf } from "../../indexer/file-chunks.js";
import { provablyUnchanged, RACY_MS } from "../../indexer/pipeline.js";
import { defaultConfig } from "../../src/config/config.js";
import { bm25Leg } from "../../src/retrieve/bm25.js";
import type { VectorStore } from "../../src/store/vectors.js";
import { HashEmbedder, hashVector } from "../helpers/hash-embedder.js";
import {
  assertFtsConsistent,
  assertVectorsMatch,
  bumpMtime,
  chunkRows,
  chunksOfPath,
  lanceRows,
  makeEnv,
  sourceRows,
  tableOf,
  writeMemoryTree,
  type IndexerEnv,
} from "../helpers/indexer-env.js";

const envs: IndexerEnv[] = [];
after(async () => {
  await Promise.all(envs.map((e) => e.close()));
});
function env(tag: string, configure?: Parameters<typeof makeEnv>[1]): IndexerEnv {
  const e = makeEnv(tag, configure);
  envs.push(e);
  return e;
}

/** Every tier: these tests are about what the index holds, not what a default search shows. */
const bm25 = (e: IndexerEnv, q: string, projects = ["p1"]) => bm25Leg(e.db, q, { projects, tier: "all" }, 20).map((h) => h.id);
const idsOf = (rows: { id: string }[]) => rows.map((r) => r.id);

/** The memory tree indexed as project "alpha" and again as "beta", with one hash embedder. */
async function twoProjectsOneTree(tag: string) {
  const e = env(tag);
  writeMemoryTree(e);
  const embedder = new HashEmbedder();
  await e.run({ roots: ["mem"], project: "alpha", providers: [embedder] });
  await e.run({ roots: ["mem"], project: "beta", providers: [embedder] });
  return { e, embedder, table: tableOf(embedder, 64), alpha: idsOf(chunkRows(e.db, "alpha")), beta: idsOf(chunkRows(e.db, "beta")) };
}

/** Three sections, one chunk each at the default chunk size. */
const THREE_SECTIONS = [
  "# Alpha",
  "",
  "Alpha paragraph about the heron migration.",
  "",
  "# Beta",
  "",
  "Beta paragraph about the ibis colony.",
  "",
  "# Gamma",
  "",
  "Gamma paragraph about the kestrel nest.",
  "",
].join("\n");

describe("indexing a memory tree", () => {
  test("stores sources and chunks with tier/kind/tags/date from frontmatter and layout; FTS finds them; LanceDB rows == chunks", async () => {
    const e = env("tree");
    writeMemoryTree(e);
    const embedder = new HashEmbedder();
    const s = await e.run({ roots: ["mem"], providers: [embedder] });
    const root = join(e.dir, "mem");

    assert.deepEqual(s.warnings, []);
    assert.equal(s.project, "p1");
    assert.equal(s.files.seen, 7, "5 markdown files + 2 event logs; scratch.jsonl and readme.txt are not sources");
    assert.equal(s.files.indexed, 7);
    assert.equal(s.files.skipped, 0);

    const sources = sourceRows(e.db, "p1");
    assert.deepEqual(
      sources.map((r) => [r.path.slice(root.length + 1), r.kind, r.tier]),
      [
        ["archive/z.md", "markdown", "cold"],
        ["events/log.jsonl", "events", "warm"],
        ["identity.md", "markdown", "hot"],
        ["notes.events.jsonl", "events", "warm"],
        ["reference/x.md", "markdown", "warm"],
        ["sessions/y.md", "markdown", "warm"],
        ["state.md", "markdown", "hot"],
      ],
    );
    for (const src of sources) assert.equal(src.size, statSync(src.path).size);

    const rows = chunkRows(e.db, "p1");
    assert.equal(s.chunks.total, rows.length);
    assert.equal(s.chunks.added, rows.length);
    const by = (rel: string) => chunksOfPath(e.db, "p1", join(root, rel));

    const [identity] = by("identity.md");
    assert.ok(identity);
    assert.equal(identity.tier, "hot");
    assert.equal(identity.kind, "identity");
    assert.deepEqual(JSON.parse(identity.tags), ["identity", "profile"]);
    assert.equal(identity.date, "2026-01-05");
    assert.equal(identity.heading, "Identity");
    assert.equal(JSON.parse(identity.metadata).title, "Who I am");
    assert.equal(identity.start_line, 6, "line numbers count the frontmatter");
    assert.equal(identity.end_line, 8);

    const [state] = by("state.md");
    assert.equal(state?.kind, "status", "frontmatter kind wins over layout, lower-cased");
    assert.equal(state?.tier, "hot");
    assert.deepEqual(JSON.parse(state!.tags), ["status", "current"]);
    assert.equal(state?.date, "2026-02-01", "`updated` stands for date");

    const ref = by("reference/x.md");
    assert.deepEqual(ref.map((c) => [c.heading, c.kind, c.tier]), [
      ["API reference", "reference", "warm"],
      ["API reference > Errors", "reference", "warm"],
    ]);
    assert.deepEqual(ref.map((c) => [c.start_line, c.end_line]), [[1, 3], [5, 7]]);

    const [session] = by("sessions/y.md");
    assert.deepEqual([session?.kind, session?.tier, session?.date], ["session", "warm", "2026-03-10"]);
    assert.deepEqual(JSON.parse(session!.tags), ["debugging"]);

    const [archive] = by("archive/z.md");
    assert.deepEqual([archive?.kind, archive?.tier, archive?.date], ["archive", "cold", null]);

    const events = by("events/log.jsonl");
    assert.deepEqual(events.map((c) => [c.kind, c.tier, c.date, c.start_line]), [
      ["decision", "warm", "2026-03-01T10:00:00Z", 1],
      ["error", "warm", "2026-03-02T11:00:00Z", 2],
    ]);
    assert.equal(events[0]?.text, "decision: Use the pelican queue for jobs\nfiles: src/q.ts");
    assert.deepEqual(JSON.parse(events[0]!.metadata), { source: "event", session: "s1", files: ["src/q.ts"], eventId: "ev-1" });
    const [note] = by("notes.events.jsonl");
    assert.deepEqual([note?.kind, note?.date, note?.text], ["note", "2026-03-03", "note: Remember the okapi flag"]);

    // FTS5 finds each file by a word only it contains, through the real query path.
    assertFtsConsistent(e.db);
    assert.deepEqual(bm25(e, "flibbertigibbet"), [ref[0]!.id]);
    assert.deepEqual(bm25(e, "throttled"), [ref[1]!.id]);
    assert.deepEqual(bm25(e, "zephyrine"), [identity.id]);
    assert.deepEqual(bm25(e, "quokka"), [state!.id]);
    assert.deepEqual(bm25(e, "marmalade"), [session!.id]);
    assert.deepEqual(bm25(e, "pelican"), [events[0]!.id]);
    assert.deepEqual(bm25(e, "okapi"), [note!.id]);
    assert.deepEqual(bm25Leg(e.db, "wombat", { projects: ["p1"], kinds: ["archive"], tier: "all" }, 5).map((h) => h.id), [archive!.id]);
    assert.deepEqual(bm25Leg(e.db, "wombat", { projects: ["p1"], kinds: ["note"], tier: "all" }, 5), []);
    assert.deepEqual(bm25Leg(e.db, "wombat", { projects: ["p1"] }, 5), [], "the default search leaves the cold tier out");
    assert.deepEqual(bm25Leg(e.db, "wombat", { projects: ["p1"], tier: "cold" }, 5).map((h) => h.id), [archive!.id]);
    assert.deepEqual(bm25Leg(e.db, "zephyrine", { projects: ["p1"], tags: ["profile"] }, 5).map((h) => h.id), [identity.id]);
    assert.deepEqual(bm25(e, "axolotl"), [], "non-sources are not indexed");
    assert.deepEqual(bm25(e, "zephyrine", ["other"]), [], "search is scoped by project");

    // Vectors: one row per chunk in the model's table, recorded in vec_rows, embedded as heading + text.
    const table = tableOf(embedder, 64);
    assert.equal(s.vector.status, "ok");
    assert.equal(s.vector.table, table);
    assert.equal(s.vector.dims, 64);
    assert.equal(s.vector.embedded, rows.length);
    assert.equal(embedder.texts, rows.length);
    const store = await e.vectors();
    assert.equal(await store.count(table), rows.length);
    assert.equal(e.state.count(table), rows.length);
    assert.equal(e.state.count(table, "p1"), rows.length);
    await assertVectorsMatch(e, table, { complete: true, projects: ["p1"] });
    const vec = (await lanceRows(store, table)).find((r) => r.id === ref[1]!.id);
    const want = hashVector(embedText({ heading: "API reference > Errors", text: ref[1]!.text }), 64);
    assert.ok(vec);
    vec.vector.forEach((x, i) => assert.ok(Math.abs(x - want[i]!) < 1e-6));

    const run = e.db.prepare("SELECT status, finished_at FROM runs ORDER BY id DESC LIMIT 1").get() as { status: string; finished_at: number | null };
    assert.equal(run.status, "ok");
    assert.ok(run.finished_at);
  });
});

describe("incremental re-indexing", () => {
  test("re-indexing unchanged files does zero embedding work and reports them unchanged; touching mtime embeds nothing", async () => {
    const e = env("unchanged");
    writeMemoryTree(e);
    const embedder = new HashEmbedder();
    const first = await e.run({ roots: ["mem"], providers: [embedder] });
    const before = { calls: embedder.calls, texts: embedder.texts, ids: idsOf(chunkRows(e.db, "p1")) };
    const table = tableOf(embedder, 64);

    const second = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.equal(embedder.calls, before.calls, "no embed call at all");
    assert.deepEqual(second.files, { seen: 7, indexed: 0, unchanged: 7, skipped: 0, deleted: 0 });
    assert.deepEqual(second.chunks, { added: 0, removed: 0, kept: 0, total: first.chunks.total });
    assert.equal(second.vector.status, "ok");
    assert.equal(second.vector.embedded, 0);
    assert.equal(second.vector.removed, 0);

    // Same bytes, new mtime: the content hash says unchanged, the stored mtime is refreshed.
    const state = join(e.dir, "mem", "state.md");
    const identity = join(e.dir, "mem", "identity.md");
    bumpMtime(state, 60);
    bumpMtime(identity, 120);
    const third = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.equal(embedder.calls, before.calls);
    assert.equal(embedder.texts, before.texts);
    assert.equal(third.files.unchanged, 7);
    assert.equal(third.files.indexed, 0);
    assert.deepEqual(idsOf(chunkRows(e.db, "p1")), before.ids);
    const src = sourceRows(e.db, "p1").find((r) => r.path === state);
    assert.equal(src?.mtime_ms, statSync(state).mtimeMs, "the new mtime is recorded so the next run takes the fast path");

    const fourth = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.equal(fourth.files.unchanged, 7);
    assert.equal(embedder.calls, before.calls);
    assert.equal((await (await e.vectors()).count(table)), before.ids.length);
  });

  test("provablyUnchanged trusts size and mtime only when that mtime was older than the last read by the racy window", () => {
    const rec = { size: 100, mtime_ms: 50_000, indexed_at: 60_000 };
    assert.equal(provablyUnchanged(rec, { size: 100, mtimeMs: 50_000 }), true);
    assert.equal(provablyUnchanged(rec, { size: 101, mtimeMs: 50_000 }), false, "size differs");
    assert.equal(provablyUnchanged(rec, { size: 100, mtimeMs: 50_001 }), false, "mtime differs");
    assert.equal(provablyUnchanged({ ...rec, indexed_at: 50_000 + RACY_MS - 1 }, { size: 100, mtimeMs: 50_000 }), false, "read within the window");
    assert.equal(provablyUnchanged({ ...rec, indexed_at: 50_000 + RACY_MS }, { size: 100, mtimeMs: 50_000 }), true);
    assert.equal(provablyUnchanged({ ...rec, indexed_at: 40_000 }, { size: 100, mtimeMs: 50_000 }), false, "an mtime in the future of the read");
  });

  test("a same-size edit that keeps the mtime is found when the file was read within the racy window of that mtime", async () => {
    const e = env("racy");
    const path = e.write("mem/notes.md", "# Notes\n\nThe heron flies north in spring.\n");
    const recent = Math.floor(Date.now() / 1000) - 1; // whole seconds: stat gives them back exactly
    utimesSync(path, recent, recent);
    const embedder = new HashEmbedder();
    await e.run({ roots: ["mem"], providers: [embedder] });
    assert.equal(bm25(e, "north").length, 1);

    writeFileSync(path, "# Notes\n\nThe heron flies south in spring.\n"); // same size
    utimesSync(path, recent, recent); // same mtime, as a coarse clock would give
    const second = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.equal(second.files.indexed, 1, "read again, the change found");
    assert.equal(bm25(e, "south").length, 1);
    assert.equal(bm25(e, "north").length, 0);

    // Once the recorded mtime is older than the last read by the window, size and mtime are
    // trusted and the file is not read at all (the fast path of a no-op run).
    const old = recent - 3_600;
    utimesSync(path, old, old);
    assert.equal((await e.run({ roots: ["mem"], providers: [embedder] })).files.unchanged, 1); // read, same hash: the new mtime recorded
    const calls = embedder.calls;
    const fast = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.deepEqual([fast.files.unchanged, fast.files.indexed, embedder.calls], [1, 0, calls]);
    assert.equal(sourceRows(e.db, "p1")[0]!.mtime_ms, old * 1000);
  });

  test("editing one paragraph re-embeds only that chunk and keeps the other chunks' ids", async () => {
    const e = env("edit");
    const path = e.write("mem/notes.md", THREE_SECTIONS);
    const embedder = new HashEmbedder();
    await e.run({ roots: ["mem"], providers: [embedder] });
    const table = tableOf(embedder, 64);
    const before = chunksOfPath(e.db, "p1", path);
    assert.equal(before.length, 3);
    const texts = embedder.texts;

    writeFileSync(path, THREE_SECTIONS.replace("ibis colony", "ibis colony and the spoonbill roost"));
    bumpMtime(path);
    const s = await e.run({ roots: ["mem"], providers: [embedder] });
    const after = chunksOfPath(e.db, "p1", path);

    assert.equal(embedder.texts - texts, 1, "exactly one text embedded");
    assert.deepEqual(s.chunks, { added: 1, removed: 1, kept: 2, total: 3 });
    assert.equal(s.files.indexed, 1);
    assert.equal(s.vector.embedded, 1);
    assert.equal(s.vector.removed, 1, "the old chunk's vector is removed");
    assert.equal(after[0]?.id, before[0]?.id);
    assert.notEqual(after[1]?.id, before[1]?.id);
    assert.equal(after[2]?.id, before[2]?.id);
    assert.deepEqual(bm25(e, "ibis"), [after[1]!.id]);
    assert.deepEqual(bm25(e, "spoonbill"), [after[1]!.id]);
    assertFtsConsistent(e.db);
    const ids = await assertVectorsMatch(e, table, { complete: true, projects: ["p1"] });
    assert.ok(!ids.includes(before[1]!.id), "LanceDB no longer holds the replaced chunk");
  });

  test("kept chunks get their new line ranges when lines shift", async () => {
    const e = env("shift");
    const path = e.write("mem/notes.md", THREE_SECTIONS);
    const embedder = new HashEmbedder();
    await e.run({ roots: ["mem"], providers: [embedder] });
    const before = chunksOfPath(e.db, "p1", path);
    assert.deepEqual(before.map((c) => [c.start_line, c.end_line]), [[1, 3], [5, 7], [9, 11]]);

    // Two more lines in Alpha: Alpha changes; Beta and Gamma move down by two lines, text unchanged.
    writeFileSync(path, THREE_SECTIONS.replace("heron migration.", "heron migration.\nIt starts in May\nand ends in June."));
    bumpMtime(path);
    const calls = embedder.texts;
    const s = await e.run({ roots: ["mem"], providers: [embedder] });
    const after = chunksOfPath(e.db, "p1", path);
    assert.equal(embedder.texts - calls, 1);
    assert.deepEqual(s.chunks, { added: 1, removed: 1, kept: 2, total: 3 });
    assert.deepEqual(after.map((c) => c.id).slice(1), before.map((c) => c.id).slice(1));
    assert.deepEqual(after.map((c) => [c.start_line, c.end_line]), [[1, 5], [7, 9], [11, 13]]);

    // Blank lines between sections only: nothing to embed, every id kept, ranges move again.
    writeFileSync(path, THREE_SECTIONS.replace("heron migration.", "heron migration.\nIt starts in May\nand ends in June.").replace("# Gamma", "\n\n\n# Gamma"));
    bumpMtime(path, 10);
    const texts2 = embedder.texts;
    const s2 = await e.run({ roots: ["mem"], providers: [embedder] });
    const moved = chunksOfPath(e.db, "p1", path);
    assert.equal(embedder.texts, texts2);
    assert.deepEqual(s2.chunks, { added: 0, removed: 0, kept: 3, total: 3 });
    assert.deepEqual(idsOf(moved), idsOf(after));
    assert.deepEqual(moved.map((c) => [c.start_line, c.end_line]), [[1, 5], [7, 9], [14, 16]]);
    assert.deepEqual(moved.map((c) => c.heading), ["Alpha", "Beta", "Gamma"]);
  });
});

describe("deletion", () => {
  test("deleting a file removes its chunks from SQLite, FTS and LanceDB", async () => {
    const e = env("delete-file");
    writeMemoryTree(e);
    const embedder = new HashEmbedder();
    await e.run({ roots: ["mem"], providers: [embedder] });
    const table = tableOf(embedder, 64);
    const ref = join(e.dir, "mem", "reference", "x.md");
    const gone = idsOf(chunksOfPath(e.db, "p1", ref));
    assert.equal(gone.length, 2);
    const total = chunkRows(e.db, "p1").length;

    rmSync(ref);
    const s = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.equal(s.files.deleted, 1);
    assert.equal(s.chunks.removed, 2);
    assert.equal(s.chunks.total, total - 2);
    assert.equal(s.vector.removed, 2);
    assert.equal(s.vector.embedded, 0);
    assert.equal(sourceRows(e.db, "p1").some((r) => r.path === ref), false);
    assert.deepEqual(chunksOfPath(e.db, "p1", ref), []);
    assert.deepEqual(bm25(e, "flibbertigibbet"), []);
    assert.deepEqual(bm25(e, "throttled"), []);
    assertFtsConsistent(e.db);
    const ids = await assertVectorsMatch(e, table, { complete: true, projects: ["p1"] });
    assert.equal(ids.length, total - 2);
    for (const id of gone) assert.ok(!ids.includes(id));
  });

  test("deleting a whole root removes its sources; other roots (even with a common prefix) and projects are untouched", async () => {
    const e = env("delete-root");
    writeMemoryTree(e, "notes");
    e.write("notes-2/keep.md", "# Keep\n\nThe capybara stays.\n");
    const embedder = new HashEmbedder();
    await e.run({ roots: ["notes"], providers: [embedder] });
    await e.run({ roots: ["notes-2"], providers: [embedder] });
    await e.run({ roots: ["notes"], project: "p2", providers: [embedder] });
    const table = tableOf(embedder, 64);
    const p2Before = idsOf(chunkRows(e.db, "p2"));
    const keep = idsOf(chunksOfPath(e.db, "p1", join(e.dir, "notes-2", "keep.md")));
    assert.equal(keep.length, 1);

    // The root is gone altogether: p1's sources under it leave; notes-2 (same prefix) stays.
    rmSync(join(e.dir, "notes"), { recursive: true });
    const s = await e.run({ roots: ["notes"], providers: [embedder] });
    assert.equal(s.files.seen, 0);
    assert.equal(s.files.deleted, 7);
    assert.ok(s.warnings.some((w) => w.includes(join(e.dir, "notes")) && /no such file/.test(w)), s.warnings.join("\n"));
    assert.deepEqual(idsOf(chunkRows(e.db, "p1")), keep);
    assert.deepEqual(sourceRows(e.db, "p1").map((r) => r.path), [join(e.dir, "notes-2", "keep.md")]);
    assert.deepEqual(bm25(e, "capybara"), keep);
    assert.deepEqual(bm25(e, "wombat"), []);
    assert.deepEqual(idsOf(chunkRows(e.db, "p2")), p2Before, "project p2 indexed the same root and keeps everything");
    assert.equal(bm25(e, "wombat", ["p2"]).length, 1);
    assertFtsConsistent(e.db);
    await assertVectorsMatch(e, table, { complete: true, projects: ["p1", "p2"] });
    assert.equal(e.state.count(table, "p2"), p2Before.length);
  });

  test("a file that becomes ignored leaves the index", async () => {
    const e = env("newly-ignored");
    e.write("mem/a.md", "# A\n\nThe gecko sleeps.\n");
    e.write("mem/b.md", "# B\n\nThe iguana basks.\n");
    const embedder = new HashEmbedder();
    await e.run({ roots: ["mem"], providers: [embedder] });
    assert.equal(bm25(e, "iguana").length, 1);
    e.write("mem/.gitignore", "b.md\n");
    const s = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.equal(s.files.deleted, 1);
    assert.deepEqual(bm25(e, "iguana"), []);
    assert.equal(bm25(e, "gecko").length, 1);
    await assertVectorsMatch(e, tableOf(embedder, 64), { complete: true, projects: ["p1"] });
  });
});

describe("walking", () => {
  test(".gitignore (nested too) and config ignore patterns are honoured; .git is skipped", async () => {
    // ".git/" is taken out of the config patterns: the walker itself must never enter .git.
    const e = env("ignore", (c) => (c.index.ignore = [...c.index.ignore.filter((p) => p !== ".git/"), "drafts/", "*.private.md"]));
    e.write("mem/.gitignore", "secret.md\nbuild-output/\n");
    e.write("mem/visible.md", "# Visible\n\nThe lynx is visible.\n");
    e.write("mem/secret.md", "# Secret\n\nThe ocelot is secret.\n");
    e.write("mem/build-output/gen.md", "# Gen\n\nThe serval is generated.\n");
    e.write("mem/sub/.gitignore", "*.tmp.md\n!keep.tmp.md\n");
    e.write("mem/sub/a.tmp.md", "# Tmp\n\nThe caracal is temporary.\n");
    e.write("mem/sub/keep.tmp.md", "# Keep\n\nThe margay is kept.\n");
    e.write("mem/sub/real.md", "# Real\n\nThe jaguarundi is real.\n");
    e.write("mem/other/a.tmp.md", "# Other tmp\n\nThe cheetah is outside sub.\n");
    e.write("mem/drafts/d.md", "# Draft\n\nThe puma is a draft.\n");
    e.write("mem/me.private.md", "# Private\n\nThe kodkod is private.\n");
    e.write("mem/node_modules/pkg/readme.md", "# Pkg\n\nThe bobcat is a dependency.\n");
    e.write("mem/.git/notes.md", "# Git internals\n\nThe leopard lives in .git.\n");
    e.write("mem/.git/info/exclude.md", "# Excl\n\nThe tiger lives in .git.\n");

    const s = await e.run({ roots: ["mem"], providers: [] });
    const rels = sourceRows(e.db, "p1").map((r) => r.path.slice(join(e.dir, "mem").length + 1));
    assert.deepEqual(rels, ["other/a.tmp.md", "sub/keep.tmp.md", "sub/real.md", "visible.md"]);
    assert.equal(s.files.seen, 4);
    for (const word of ["ocelot", "serval", "caracal", "puma", "kodkod", "bobcat", "leopard", "tiger"]) assert.deepEqual(bm25(e, word), [], word);
    for (const word of ["lynx", "margay", "jaguarundi", "cheetah"]) assert.equal(bm25(e, word).length, 1, word);
  });

  test("a symlink loop does not hang and a symlinked file is indexed once", async () => {
    const e = env("symlink");
    e.write("mem/a.md", "# A\n\nThe tapir wallows.\n");
    e.write("mem/deep/b.md", "# B\n\nThe pangolin curls.\n");
    symlinkSync(join(e.dir, "mem"), join(e.dir, "mem", "deep", "loop")); // deep/loop → mem
    symlinkSync(join(e.dir, "mem", "deep"), join(e.dir, "mem", "deep-again")); // second way into deep/
    symlinkSync(join(e.dir, "mem", "a.md"), join(e.dir, "mem", "alias.md")); // file link
    symlinkSync(join(e.dir, "mem", "nowhere.md"), join(e.dir, "mem", "dangling.md")); // broken link

    const s = await e.run({ roots: ["mem"], providers: [] });
    const paths = sourceRows(e.db, "p1").map((r) => r.path);
    assert.deepEqual(paths, [join(e.dir, "mem", "a.md"), join(e.dir, "mem", "deep", "b.md")], "real paths, each once");
    assert.equal(s.files.seen, 2);
    assert.equal(bm25(e, "tapir").length, 1);
    assert.equal(bm25(e, "pangolin").length, 1);
    assert.ok(s.warnings.some((w) => w.includes("dangling.md")), `the dangling link is named: ${s.warnings.join("\n")}`);

    // Unchanged on a second pass, and no duplicate appears through the alias.
    const again = await e.run({ roots: ["mem"], providers: [] });
    assert.equal(again.files.unchanged, 2);
    assert.equal(chunkRows(e.db, "p1").length, 2);
  });
});

describe("projects", () => {
  test("the same files under two projects have distinct chunk ids; deleting in one does not touch the other", async () => {
    const e = env("projects");
    writeMemoryTree(e);
    const embedder = new HashEmbedder();
    const a = await e.run({ roots: ["mem"], project: "alpha", providers: [embedder] });
    const b = await e.run({ roots: ["mem"], project: "beta", providers: [embedder] });
    assert.equal(a.chunks.total, b.chunks.total);
    assert.equal(b.vector.embedded, b.chunks.total, "beta's chunks are its own and get their own vectors");
    const alpha = chunkRows(e.db, "alpha");
    const beta = chunkRows(e.db, "beta");
    assert.deepEqual(alpha.map((c) => c.text), beta.map((c) => c.text));
    const overlap = idsOf(alpha).filter((id) => idsOf(beta).includes(id));
    assert.deepEqual(overlap, []);
    const table = tableOf(embedder, 64);
    await assertVectorsMatch(e, table, { complete: true, projects: ["alpha", "beta"] });
    assert.equal(e.state.count(table, "alpha"), alpha.length);
    assert.equal(e.state.count(table, "beta"), beta.length);

    // The file disappears from disk, but only alpha is re-indexed: beta keeps it until its own run.
    const state = join(e.dir, "mem", "state.md");
    rmSync(state);
    const s = await e.run({ roots: ["mem"], project: "alpha", providers: [embedder] });
    assert.equal(s.files.deleted, 1);
    assert.deepEqual(chunksOfPath(e.db, "alpha", state), []);
    assert.equal(chunksOfPath(e.db, "beta", state).length, 1);
    assert.deepEqual(bm25(e, "quokka", ["alpha"]), []);
    assert.equal(bm25(e, "quokka", ["beta"]).length, 1);
    assert.deepEqual(idsOf(chunkRows(e.db, "beta")), idsOf(beta));
    const ids = await assertVectorsMatch(e, table, { complete: true, projects: ["alpha", "beta"] });
    assert.equal(ids.length, alpha.length - 1 + beta.length);
  });

  test("--full re-chunks and re-embeds this project's vectors only", async () => {
    const { e, embedder, table, alpha, beta } = await twoProjectsOneTree("full");
    const texts = embedder.texts;

    const s = await e.run({ roots: ["mem"], project: "alpha", full: true, providers: [embedder] });
    assert.equal(embedder.texts - texts, alpha.length, "every alpha chunk and nothing else is embedded again");
    assert.deepEqual(s.files, { seen: 7, indexed: 7, unchanged: 0, skipped: 0, deleted: 0 });
    assert.deepEqual(s.chunks, { added: 0, removed: 0, kept: alpha.length, total: alpha.length }, "same content → same ids");
    assert.equal(s.vector.embedded, alpha.length);
    assert.deepEqual(idsOf(chunkRows(e.db, "alpha")), alpha);
    assert.deepEqual(idsOf(chunkRows(e.db, "beta")), beta);
    assert.equal(e.state.count(table, "beta"), beta.length);
    const ids = await assertVectorsMatch(e, table, { complete: true, projects: ["alpha", "beta"] });
    assert.equal(ids.length, alpha.length + beta.length, "no duplicates after the rebuild");
  });

  test("a chunking change (options or chunker) re-chunks every file of the project on its next normal run, once", async () => {
    const { e, embedder, table, alpha, beta } = await twoProjectsOneTree("rechunk");
    const events = idsOf(chunkRows(e.db, "alpha").filter((c) => c.path.endsWith(".jsonl")));

    e.config.index.chunkTokens = 8;
    e.config.index.overlapTokens = 0;
    e.config.index.minChunkTokens = 0;
    const texts = embedder.texts;
    const rechunked = await e.run({ roots: ["mem"], project: "alpha", providers: [embedder] });
    assert.equal(rechunked.files.indexed, 7, "unchanged files too");
    assert.ok(rechunked.warnings.some((w) => w.startsWith("chunking changed since this project was last indexed (chunker 7: 400/80/64 tokens → chunker 7: 8/0/0 tokens)")), rechunked.warnings.join("\n"));
    assert.ok(rechunked.chunks.total > alpha.length, "smaller chunks → more of them");
    const now = idsOf(chunkRows(e.db, "alpha"));
    for (const id of events) assert.ok(now.includes(id), "chunks that come out the same keep their ids");
    assert.equal(embedder.texts - texts, now.filter((id) => !alpha.includes(id)).length, "and their vectors: only new chunks are embedded");
    await assertVectorsMatch(e, table, { complete: true, projects: ["alpha", "beta"] });
    assert.deepEqual(idsOf(chunkRows(e.db, "beta")), beta, "another project is untouched until it is indexed");

    const again = await e.run({ roots: ["mem"], project: "alpha", providers: [embedder] });
    assert.deepEqual([again.files.unchanged, again.warnings], [7, []], "once");
  });
});

describe("no provider", () => {
  test("BM25 is still built; the vector step is skipped with a reason and LanceDB is never opened", async () => {
    const e = env("no-provider");
    writeMemoryTree(e);
    let opened = 0;
    const s = await e.run({
      roots: ["mem"],
      providers: [],
      vectors: async (): Promise<VectorStore> => {
        opened++;
        throw new Error("LanceDB must not be opened without a provider");
      },
    });
    assert.equal(opened, 0);
    assert.equal(s.vector.status, "skipped");
    assert.match(s.vector.reason ?? "", /no embedding provider configured/);
    assert.equal(s.vector.embedded, 0);
    assert.equal(s.files.indexed, 7);
    assert.ok(s.chunks.total > 0);
    assert.equal(bm25(e, "flibbertigibbet").length, 1);
    assertFtsConsistent(e.db);
    const run = e.db.prepare("SELECT status FROM runs ORDER BY id DESC LIMIT 1").pluck().get();
    assert.equal(run, "vector-skipped");
  });
});

describe("chunk ids", () => {
  test("are stable content hashes: same input → same ids across runs and databases", async () => {
    const e1 = env("ids-1");
    const e2 = env("ids-2");
    // Same absolute path in both: index e1's tree from e2 as well.
    writeMemoryTree(e1);
    await e1.run({ roots: ["mem"], providers: [] });
    await e2.run({ roots: [join(e1.dir, "mem")], providers: [] });
    const a = chunkRows(e1.db, "p1");
    const b = chunkRows(e2.db, "p1");
    assert.ok(a.length > 5);
    assert.deepEqual(idsOf(a), idsOf(b));
    for (const id of idsOf(a)) assert.match(id, /^[0-9a-f]{32}$/);

    // A rebuild from scratch gives the same ids again.
    await e1.run({ roots: ["mem"], providers: [], full: true });
    assert.deepEqual(idsOf(chunkRows(e1.db, "p1")), idsOf(a));

    // chunksOf itself: deterministic, sensitive to project, path and content, and repeated passages stay distinct.
    const cfg = defaultConfig();
    cfg.index.minChunkTokens = 0; // two sections, not one joined chunk
    const file = { path: "/m/a.md", rel: "a.md", kind: "markdown" as const };
    const text = "# H\n\nsame words\n\n# H\n\nsame words\n";
    const one = chunksOf(file, text, "p", cfg, () => undefined).chunks.map((c) => c.id);
    assert.equal(one.length, 2);
    assert.notEqual(one[0], one[1], "identical passages get distinct ids");
    assert.deepEqual(chunksOf(file, text, "p", cfg, () => undefined).chunks.map((c) => c.id), one);
    assert.notDeepEqual(chunksOf(file, text, "q", cfg, () => undefined).chunks.map((c) => c.id), one);
    assert.notDeepEqual(chunksOf({ ...file, path: "/m/b.md" }, text, "p", cfg, () => undefined).chunks.map((c) => c.id), one);
    const edited = chunksOf(file, text.replace(/words\n$/, "word\n"), "p", cfg, () => undefined).chunks.map((c) => c.id);
    assert.equal(edited[0], one[0], "an untouched passage keeps its id");
    assert.notEqual(edited[1], one[1]);
  });

  test("moving a file changes its chunk ids (the path is part of the identity) and cleans up the old ones", async () => {
    const e = env("move");
    const embedder = new HashEmbedder();
    e.write("mem/a.md", "# A\n\nThe dugong grazes.\n");
    await e.run({ roots: ["mem"], providers: [embedder] });
    const before = idsOf(chunkRows(e.db, "p1"));
    mkdirSync(join(e.dir, "mem", "moved"));
    renameSync(join(e.dir, "mem", "a.md"), join(e.dir, "mem", "moved", "a.md"));
    const s = await e.run({ roots: ["mem"], providers: [embedder] });
    const after = idsOf(chunkRows(e.db, "p1"));
    assert.equal(after.length, 1);
    assert.notEqual(after[0], before[0]);
    assert.equal(s.files.deleted, 1);
    assert.equal(s.vector.removed, 1);
    assert.deepEqual(await assertVectorsMatch(e, tableOf(embedder, 64), { complete: true, projects: ["p1"] }), after);
  });
});
