/**
 * `mem reindex`, the weekly maintenance run, on a real store (SQLite, FTS5, LanceDB, files on
 * disk): a store with a forgotten memory, many LanceDB versions and warm memories unused for months
 * comes out purged, compacted to one version, with the stale memories cold and the fresh ones,
 * the used ones and every decision still warm; a second run changes nothing; a missing root or a
 * skipped vector step fails the run, and the next briefing says so until a run succeeds.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { indexPaths } from "../../indexer/pipeline.js";
import { openApp, type App } from "../../src/app.js";
import { buildBriefing } from "../../src/brief/briefing.js";
import { gatherBriefing } from "../../src/brief/gather.js";
import type { EmbeddingProvider, Health } from "../../src/embed/provider.js";
import { runReindex, type ReindexReport } from "../../src/maintenance/reindex/job.js";
import { lastActive, planTiers, tierFor, type TierSubject } from "../../src/maintenance/reindex/tiering.js";
import { resolveProject } from "../../src/project/identity.js";
import { cleanText } from "../../src/redact/clean.cjs";
import { forgetMemory } from "../../src/service/forget.js";
import { MemoryService } from "../../src/service/memory.js";
import { eventChunkId } from "../../src/store/chunk-ids.js";
import { lastFinishedJob } from "../../src/store/jobs.js";
import { reinforceChunks } from "../../src/store/salience.js";
import { HashEmbedder } from "../helpers/hash-embedder.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-reindex-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const DAY = 86_400_000;

function write(path: string, text: string, mtime?: number): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  if (mtime !== undefined) utimesSync(path, new Date(mtime), new Date(mtime));
  return path;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)]));
}

/** A provider whose health check fails: the vector step is skipped. */
class DownProvider implements EmbeddingProvider {
  readonly name = "down";
  readonly model = "none";
  async health(): Promise<Health> {
    return { ok: false, reason: "simulated outage" };
  }
  async embed(): Promise<Float32Array[]> {
    throw new Error("down");
  }
}

function reindex(app: App, providers: EmbeddingProvider[], extra: { forgetMissing?: boolean; now?: () => number } = {}): Promise<ReindexReport> {
  return runReindex({ db: app.db, config: app.config, paths: app.paths, providers: async () => providers, vectors: app.vectors, now: extra.now ?? Date.now, ...(extra.forgetMissing ? { forgetMissing: true } : {}) });
}

const tierOf0 = (app: App, path: string) => app.db.prepare("SELECT DISTINCT tier FROM chunks WHERE path = ?").pluck().all(path) as string[];

/** Everything a run could change: chunks and their tiers, events, vector bookkeeping, uses, LanceDB rows and versions, the files under the roots. */
async function snapshot(app: App, table: string, root: string) {
  const q = (sql: string) => JSON.stringify(app.db.prepare(sql).all());
  const store = await app.vectors();
  return {
    chunks: q("SELECT id, tier, kind, path, text FROM chunks ORDER BY id"),
    events: q("SELECT id, text, deleted_at, chunked FROM events ORDER BY id"),
    vecRows: q("SELECT table_name, chunk_id FROM vec_rows ORDER BY chunk_id"),
    salience: q("SELECT * FROM salience ORDER BY chunk_id"),
    sources: q("SELECT path, content_hash FROM sources ORDER BY path"),
    lanceIds: (await store.ids(table)).sort().join(","),
    lanceVersions: await store.versions(table),
    files: filesUnder(root).sort().join(","),
  };
}

describe("the weekly reindex job", () => {
  const proj = join(tmp, "proj");
  const mem = join(proj, "memory");
  mkdirSync(join(proj, ".git"), { recursive: true });
  const env = { ...process.env, MEM_HOME: join(tmp, "home"), MEM_EMBED_ORDER: "ollama" };
  const embedder = new HashEmbedder("hash-test", 32);
  const longAgo = Date.now() - 200 * DAY;
  const project = resolveProject(proj);
  let app: App;
  let table: string;
  const ids: Record<string, string> = {};

  test("a store with a tombstone, old LanceDB versions and stale warm memories comes out purged, compacted and tiered", async () => {
    app = openApp(env);
    write(join(mem, "identity.md"), "# Identity\n\nThe assistant of the okapi project.\n", longAgo);
    write(join(mem, "reference", "stale.md"), "# Stale reference\n\nThe wombat gateway was configured once and never looked at again.\n", longAgo);
    write(join(mem, "reference", "fresh.md"), "# Fresh reference\n\nThe pelican gateway is being tuned this week.\n");
    write(join(mem, "archive", "old.md"), "# Archived\n\nThe retired narwhal service.\n", longAgo);
    write(join(mem, "sessions", "current.md"), "# Yesterday\n\nTuned the pelican gateway.\n", Date.now() - DAY);
    const oldLog = new Date(longAgo).toISOString().slice(0, 10);
    write(join(mem, "sessions", `${oldLog}.md`), "# An old session\n\nThe gecko incident.\n", longAgo);
    const ctx = { db: app.db, config: app.config, providers: [embedder], vectors: app.vectors };
    await indexPaths(ctx, { roots: [mem], project, full: false });

    const old = new MemoryService({ db: app.db, config: app.config, projectRoot: () => proj, now: () => longAgo });
    const fresh = new MemoryService({ db: app.db, config: app.config, projectRoot: () => proj });
    ids.decision = old.put({ project: project.id, text: "Decided the jobs run on the quokka queue", kind: "decision" }).memory.id;
    ids.rejected = old.put({ project: project.id, text: "Rejected polling the marmot endpoint every second", kind: "rejected" }).memory.id;
    ids.staleLesson = old.put({ project: project.id, text: "Learned that the axolotl build needs two passes", kind: "learned" }).memory.id;
    ids.usedLesson = old.put({ project: project.id, text: "Learned that the capybara cache must be warmed first", kind: "learned" }).memory.id;
    ids.freshNote = fresh.put({ project: project.id, text: "Note: the ibex deploy is on Friday", kind: "note" }).memory.id;
    ids.forgotten = fresh.put({ project: project.id, text: "Note: the zebraquokka password rotates monthly", kind: "note" }).memory.id;
    // Each index run writes the vectors it lacks: more LanceDB versions.
    await indexPaths(ctx, { roots: [mem], project, full: false });
    reinforceChunks(app.db, [eventChunkId(project.id, ids.usedLesson)], Date.now() - DAY);
    forgetMemory(app.db, fresh, ids.forgotten, Date.now());
    await indexPaths(ctx, { roots: [mem], project, full: false }); // the tombstone's vector leaves: one more version

    table = app.db.prepare("SELECT name FROM vec_tables").pluck().get() as string;
    const store = await app.vectors();
    const versionsBefore = await store.versions(table);
    assert.ok(versionsBefore >= 3, `several LanceDB versions before (${versionsBefore})`);
    assert.ok((app.db.prepare("SELECT text FROM events WHERE id = ?").pluck().get(ids.forgotten) as string).includes("zebraquokka"), "the tombstone still holds its text");

    // The tombstone's vector row left SQLite's record: journaled (vec_gone); made two days old here.
    assert.ok((app.db.prepare("SELECT count(*) FROM vec_gone").pluck().get() as number) >= 1, "the removal is journaled");
    app.db.prepare("UPDATE vec_gone SET at = at - 2 * 86400").run();

    const r = await reindex(app, [embedder]);
    assert.equal(r.ok, true, r.problems.join("\n"));
    assert.deepEqual(r.problems, []);
    assert.equal(app.db.prepare("SELECT count(*) FROM vec_gone WHERE at < CAST(strftime('%s', 'now') AS INTEGER) - 86400").pluck().get(), 0, "the journal is pruned to a day");

    // Tombstones purged: from SQLite, the text index and every LanceDB table (old versions too).
    assert.equal(r.purge.memories, 1);
    assert.equal(app.db.prepare("SELECT text FROM events WHERE id = ?").pluck().get(ids.forgotten), "");
    assert.equal(app.db.prepare("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'zebraquokka'").pluck().get(), 0);
    assert.ok(!(await store.ids(table)).includes(eventChunkId(project.id, ids.forgotten)));
    const sqliteFiles = [app.paths.sqlite, `${app.paths.sqlite}-wal`].filter((f) => { try { return statSync(f).isFile(); } catch { return false; } });
    for (const f of sqliteFiles) assert.ok(!readFileSync(f).includes("zebraquokka"), `${f} no longer holds the forgotten text`);

    // Old versions cleaned: one left; the report says how many there were and the store's size around it.
    assert.equal(await store.versions(table), 1);
    const c = r.compaction.tables.find((t) => t.table === table)!;
    assert.ok(c.versionsBefore >= versionsBefore && c.versionsAfter === 1 && c.oldVersionsRemoved >= versionsBefore - 1, JSON.stringify(c));
    assert.ok(r.size.before.vectors > 0 && r.size.after.vectors > 0 && r.size.after.vectors < r.size.before.vectors, `vectors shrink: ${JSON.stringify(r.size)}`);
    assert.ok(r.size.before.sqlite > 0 && r.size.after.total === r.size.after.sqlite + r.size.after.vectors);
    assert.equal(r.compaction.sqlite?.vacuumed !== undefined, true);

    // Session logs: yesterday's current.md dated, the old log archived (and indexed there, cold).
    assert.equal(r.rotate.rotated.length, 1);
    assert.match(r.rotate.rotated[0]!.to, /sessions\/\d{4}-\d{2}-\d{2}\.md$/);
    assert.deepEqual(r.rotate.archived, [{ from: join(mem, "sessions", `${oldLog}.md`), to: join(mem, "archive", "sessions", `${oldLog}.md`) }]);
    assert.deepEqual(tierOf0(app, join(mem, "archive", "sessions", `${oldLog}.md`)), ["cold"]);
    assert.deepEqual(tierOf0(app, r.rotate.rotated[0]!.to), ["warm"]);
    assert.equal(app.db.prepare("SELECT count(*) FROM sources WHERE path = ?").pluck().get(join(mem, "sessions", "current.md")), 0);

    // Tiers: stale warm memories cold; fresh, used, decisions and rejected approaches warm; hot and archive as laid out.
    const tierOf = (where: string, ...args: string[]) => app.db.prepare(`SELECT DISTINCT tier FROM chunks WHERE ${where}`).pluck().all(...args) as string[];
    const ofMemory = (id: string) => tierOf("id = ?", eventChunkId(project.id, id));
    assert.deepEqual(tierOf("path = ?", join(mem, "reference", "stale.md")), ["cold"]);
    assert.deepEqual(tierOf("path = ?", join(mem, "reference", "fresh.md")), ["warm"]);
    assert.deepEqual(ofMemory(ids.staleLesson), ["cold"]);
    assert.deepEqual(ofMemory(ids.usedLesson), ["warm"], "used yesterday: warm");
    assert.deepEqual(ofMemory(ids.freshNote), ["warm"]);
    assert.deepEqual(ofMemory(ids.decision), ["warm"], "decisions are exempt");
    assert.deepEqual(ofMemory(ids.rejected), ["warm"], "rejected approaches are exempt");
    assert.deepEqual(tierOf("path = ?", join(mem, "identity.md")), ["hot"]);
    assert.deepEqual(tierOf("path = ?", join(mem, "archive", "old.md")), ["cold"]);
    assert.equal(r.tiers.toCold, 2);
    assert.equal(r.tiers.exempt, 2);
    assert.equal(r.salience.floored, 2, "the two old decision-like memories are held at the floor");

    const job = lastFinishedJob(app.db, "reindex");
    assert.equal(job?.status, "ok");
    assert.ok(readFileSync(join(app.paths.home, "maintenance.log"), "utf8").includes("reindex ok"));
  });

  test("a second run changes nothing", async () => {
    const before = await snapshot(app, table, mem);
    const r = await reindex(app, [embedder]);
    assert.equal(r.ok, true, r.problems.join("\n"));
    assert.deepEqual(await snapshot(app, table, mem), before);
    assert.deepEqual(
      [r.purge.memories, r.purge.vectors, r.tiers.toCold, r.tiers.toWarm, r.rotate.rotated.length, r.rotate.archived.length, r.projects[0]?.files?.indexed, r.projects[0]?.vector.embedded],
      [0, 0, 0, 0, 0, 0, 0, 0],
    );
    assert.deepEqual(r.compaction.tables.map((t) => [t.versionsBefore, t.versionsAfter, t.oldVersionsRemoved, t.fragmentsRemoved]), [[1, 1, 0, 0]]);
  });

  test("a cold memory used again is warm at the next run", async () => {
    reinforceChunks(app.db, [eventChunkId(project.id, ids.staleLesson!)], Date.now());
    const r = await reindex(app, [embedder]);
    assert.equal(r.tiers.toWarm, 1);
    assert.deepEqual(app.db.prepare("SELECT tier FROM chunks WHERE id = ?").pluck().all(eventChunkId(project.id, ids.staleLesson!)), ["warm"]);
  });

  test("an old memory edited now is warm again", async () => {
    const old = new MemoryService({ db: app.db, config: app.config, projectRoot: () => proj, now: () => longAgo });
    const id = old.put({ project: project.id, text: "Prefer the tapir formatter", kind: "preference" }).memory.id;
    await reindex(app, [embedder]);
    const tier = () => app.db.prepare("SELECT tier FROM chunks WHERE id = ?").pluck().get(eventChunkId(project.id, id));
    assert.equal(tier(), "cold");
    new MemoryService({ db: app.db, config: app.config, projectRoot: () => proj }).patch(id, { text: "Prefer the tapir formatter, with tabs" });
    const r = await reindex(app, [embedder]);
    assert.equal(r.ok, true, r.problems.join("\n"));
    assert.equal(tier(), "warm");
  });

  test("a missing root fails the run, and the next briefing says so in one line until a run succeeds", async () => {
    const gone = join(proj, "notes-on-usb");
    write(join(gone, "a.md"), "# Mounted notes\n\nThe lemur runbook.\n");
    await indexPaths({ db: app.db, config: app.config, providers: [embedder], vectors: app.vectors }, { roots: [gone], project, full: false });
    rmSync(gone, { recursive: true });
    const r = await reindex(app, [embedder]);
    assert.equal(r.ok, false);
    assert.equal(r.failed.rootsMissing, 1);
    assert.match(r.problems[0]!, /root .*notes-on-usb of project .* is missing/);
    assert.equal(app.db.prepare("SELECT count(*) FROM chunks WHERE path LIKE ?").pluck().get(`${gone}%`), 1, "its files stay indexed");
    assert.equal(lastFinishedJob(app.db, "reindex")?.status, "failed");

    const brief = () => buildBriefing(gatherBriefing(app.db, app.config, { project: project.id, root: proj, session: cleanText("s-brief"), source: "startup", now: Date.now(), budgetTokens: 2500 }))!;
    const lines = brief().split("\n").filter((l) => l.includes("mem reindex"));
    assert.equal(lines.length, 1, brief());
    assert.match(lines[0]!, /^- the last `mem reindex` \((?:just now|\d+ min ago)\) failed: root .*notes-on-usb .* is missing/);
    assert.ok(brief().indexOf("## Maintenance") < brief().indexOf("## Decisions"), "it comes first");
    assert.ok(brief().indexOf("<mem-briefing>") < brief().indexOf("## Maintenance"), "inside the frame");

    // --forget-missing drops the root and what was indexed under it; the run succeeds and the line goes.
    const ok = await reindex(app, [embedder], { forgetMissing: true });
    assert.equal(ok.ok, true, ok.problems.join("\n"));
    assert.deepEqual(ok.forgottenRoots.map((f) => [f.path, f.sources]), [[gone, 1]]);
    assert.equal(app.db.prepare("SELECT count(*) FROM chunks WHERE path LIKE ?").pluck().get(`${gone}%`), 0);
    assert.ok(!brief().includes("mem reindex"), "no failure line after a good run");
  });

  test("a skipped vector step fails the run; with vectors turned off it does not", async () => {
    const r = await reindex(app, [new DownProvider()]);
    assert.equal(r.ok, false);
    assert.equal(r.failed.vectorSkipped, true);
    assert.deepEqual(r.failed.rootsMissing, 0);
    assert.match(r.problems.join("\n"), /vector step skipped \(project .*\): .*simulated outage/);
    const off = openApp({ ...env, MEM_EMBED_ORDER: "none" });
    try {
      const r2 = await reindex(off, []);
      assert.equal(r2.ok, true, r2.problems.join("\n"));
      assert.equal(r2.vectors, "off");
    } finally {
      await off.close();
    }
    await app.close();
  });
});

describe("which warm memories go cold (pure)", () => {
  const NOW = Date.parse("2026-06-01T00:00:00Z");
  const at = (days: number) => NOW - days * DAY;
  const row = (over: Partial<TierSubject>): TierSubject => ({ id: "c", kind: "note", tier: "warm", date: null, mtime_ms: 0, last_used_at: null, ...over });

  test("the latest of mtime, date, last edit and last use decides; the threshold is inclusive", () => {
    assert.equal(tierFor(row({ mtime_ms: at(90) }), NOW, 90), "cold");
    assert.equal(tierFor(row({ mtime_ms: at(89) }), NOW, 90), "warm");
    assert.equal(tierFor(row({ date: new Date(at(200)).toISOString(), last_used_at: at(10) }), NOW, 90), "warm");
    assert.equal(tierFor(row({ date: new Date(at(200)).toISOString(), updated_at: at(3) }), NOW, 90), "warm", "edited three days ago");
    assert.equal(tierFor(row({ date: "not a date", mtime_ms: at(120) }), NOW, 90), "cold");
  });

  test("decisions and rejected approaches never go cold, and come back if found cold", () => {
    for (const kind of ["decision", "rejected"]) {
      assert.equal(tierFor(row({ kind, mtime_ms: at(5000) }), NOW, 90), "warm");
      assert.deepEqual(planTiers([row({ id: "d", kind, tier: "cold", mtime_ms: at(5000) })], NOW, 90), { toCold: [], toWarm: ["d"], exempt: 1, stale: 1 });
    }
    assert.equal(tierFor(row({ kind: "learned", mtime_ms: at(5000) }), NOW, 90), "cold", "lessons and preferences decay: they may go cold");
  });

  test("an age nothing tells leaves the tier as it is", () => {
    assert.equal(lastActive(row({})), undefined);
    assert.equal(tierFor(row({ tier: "cold" }), NOW, 90), "cold");
    assert.equal(tierFor(row({ tier: "warm" }), NOW, 90), "warm");
  });

  test("the plan moves only what changes", () => {
    const plan = planTiers([row({ id: "a", mtime_ms: at(100) }), row({ id: "b", tier: "cold", mtime_ms: at(100) }), row({ id: "c", tier: "cold", last_used_at: at(1) }), row({ id: "d", mtime_ms: at(1) })], NOW, 90);
    assert.deepEqual(plan, { toCold: ["a"], toWarm: ["c"], exempt: 0, stale: 2 });
  });
});
