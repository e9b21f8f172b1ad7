import { existsSync } from "node:fs";
import type { Config } from "../../config/config.js";
import type { HomePaths } from "../../config/paths.cjs";
import type { EmbeddingProvider } from "../../embed/provider.js";
import { salienceConfig } from "../../memory/salience.js";
import { clean, cleanText } from "../../redact/clean.cjs";
import { dropGoneVectors } from "../../service/forget.js";
import { compactSqlite } from "../../store/compact.js";
import { pruneSnapshots, takeSnapshot } from "../../store/snapshots.js";
import { noteWrites, stampOf } from "../../store/identity.js";
import { forgottenIds, unpurgedTexts, withholdQuoted } from "../../store/purge-copy.js";
import { holdsAny, needlesOf, purgeCopies } from "../purge-copies.js";
import type { Db } from "../../store/db.js";
import { finishJob, startJob } from "../../store/jobs.js";
import { memoryProjects, purgeTombstones } from "../../store/memories.js";
import { mergeStoredTwice } from "../../capture/merge-same.js";
import { forgetRoot } from "../../store/roots.js";
import { scrubRewritten, scrubStore } from "../../store/scrub.js";
import { chunkUses, removeOrphanUses, setChunkTiers, warmLayoutChunks } from "../../store/tiering.js";
import { VecState } from "../../store/vec-state.js";
import type { VectorStore } from "../../store/vectors.js";
import { rotateRegistered } from "../rotate/registered.js";
import { registeredRoots } from "../roots.js";
import { compactVectors, storeSize } from "./compact.js";
import { decaySummary } from "./decay.js";
import { maintenanceLog } from "./log.js";
import { reindexProjects } from "./projects.js";
import { reportLine, storedSummary } from "./report.js";
import type { ReindexReport } from "./types.js";
import { planTiers } from "./tiering.js";

/**
 * `mem reindex`, the weekly maintenance run (idempotent: a second run changes nothing):
 *   1. session logs rotated and old ones archived (src/maintenance/rotate/);
 *   2. the same statement stored twice merged into one memory (src/capture/merge-same.ts), then
 *      every registered root of every project indexed again, incrementally, and captured events
 *      chunked and embedded;
 *   3. forgotten memories purged: their text out of SQLite, their vectors out of LanceDB;
 *   4. decay recomputed (reported: effective salience is derived when read) and uses of chunks
 *      that are gone removed;
 *   5. warm memories unused for `maintenance.coldAfterDays` moved to the cold tier (decisions and
 *      rejected approaches exempt), cold ones used again back to warm;
 *   6. compaction: every LanceDB table compacted with its old versions removed, the journal of
 *      removed vector rows pruned to a day (src/store/vec-state.ts pruneGone), the FTS5 index
 *      optimized, SQLite vacuumed when worth it, the WAL truncated; sizes measured around it.
 * Before any of it, a snapshot of the SQLite store (src/store/snapshots.ts); the newest
 * `maintenance.keepSnapshots` are kept.
 * The run is recorded in `maintenance_runs` and `maintenance.log`. It fails (problems listed)
 * when a root is missing, a vector step was skipped (unless vectors are turned off) or a step
 * threw; the next SessionStart briefing then says so.
 */
export interface ReindexContext {
  db: Db;
  config: Config;
  paths: HomePaths;
  providers: () => Promise<EmbeddingProvider[]>;
  vectors: () => Promise<VectorStore>;
  now: () => number;
  /** Drop roots that are gone (and what was indexed under them) instead of failing on them. */
  forgetMissing?: boolean;
  warn?: (m: string) => void;
  /** A step starts. */
  say?: (step: string) => void;
  onProgress?: (label: string, done: number, total: number) => void;
}

export type { ReindexReport };

const DAY_MS = 86_400_000;

export async function runReindex(ctx: ReindexContext): Promise<ReindexReport> {
  const t0 = Date.now();
  const started = ctx.now();
  const job = startJob(ctx.db, cleanText("reindex"), started);
  const warnings: string[] = [];
  const warn = (m: string) => {
    warnings.push(m);
    ctx.warn?.(m);
  };
  const problems: string[] = [];
  const failed = { rootsMissing: 0, vectorSkipped: false, errors: 0 };
  const cfg = ctx.config.maintenance;
  const r: ReindexReport = {
    ok: false,
    problems,
    failed,
    startedAt: new Date(started).toISOString(),
    durationMs: 0,
    rescrubbed: 0,
    rotate: { rotated: [], archived: [] },
    forgottenRoots: [],
    projects: [],
    vectors: ctx.config.embedding.order.length > 0 ? "on" : "off",
    purge: { memories: 0, vectors: 0, copies: [] },
    merged: 0,
    salience: { memories: 0, decaying: 0, faded: 0, floored: 0, used: 0, orphansRemoved: 0 },
    tiers: { coldAfterDays: cfg.coldAfterDays, toCold: 0, toWarm: 0, exempt: 0, stale: 0 },
    compaction: { tables: [], sqlite: null },
    snapshot: null,
    size: { before: storeSize(ctx.paths), after: storeSize(ctx.paths) },
    warnings,
  };
  const step = async (name: string, fn: () => unknown) => {
    ctx.say?.(name);
    try {
      await fn();
    } catch (err) {
      failed.errors++;
      problems.push(`${name} failed: ${(err as Error).message}`);
    }
  };

  await step("taking a snapshot of the store", () => {
    const snap = takeSnapshot(ctx.db, ctx.paths.sqlite, "reindex", ctx.now());
    r.snapshot = { id: snap.id, bytes: snap.bytes, durationMs: snap.durationMs, pruned: pruneSnapshots(ctx.paths.sqlite, cfg.keepSnapshots) };
    noteWrites(ctx.db, ctx.paths.sqlite, Date.now(), { force: true }); // the counts the next open checks against, as of this snapshot
  });
  try {
    const s = scrubStore(ctx.db); // what an older mem stored under older redaction rules, once
    if (s) r.rescrubbed = scrubRewritten(s);
  } catch (err) {
    failed.errors++;
    problems.push(`redacting again what older rules stored failed: ${(err as Error).message}`);
  }
  if (ctx.forgetMissing) {
    await step("dropping roots that are gone", () => {
      for (const [project, g] of registeredRoots(ctx.db)) {
        for (const path of g.missing) r.forgottenRoots.push({ project, path, sources: forgetRoot(ctx.db, project, path) });
      }
    });
  }
  await step("rotating session logs", () => {
    const done = rotateRegistered(ctx.db, { now: ctx.now(), timeZone: cfg.timeZone, archiveAfterDays: cfg.archiveAfterDays });
    r.rotate = { rotated: done.rotated, archived: done.archived };
    done.warnings.forEach(warn);
  });
  // Before indexing: what stays is chunked and embedded again in this run.
  await step("merging statements stored twice", () => {
    r.merged = mergeStoredTwice(ctx.db, memoryProjects(ctx.db), ctx.now());
  });
  await step("indexing every root again", async () => {
    const providers = await ctx.providers();
    const { runs, problems: found, bm25Only } = await reindexProjects({ db: ctx.db, config: ctx.config, providers, vectors: ctx.vectors, now: ctx.now, warn, ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}) });
    r.projects = runs;
    failed.rootsMissing = runs.reduce((n, p) => n + p.missingRoots.length, 0);
    failed.vectorSkipped = found.some((p) => p.startsWith("vector step skipped"));
    if (bm25Only) r.vectors = "bm25-only";
    problems.push(...found);
  });
  await step("purging forgotten memories", async () => {
    const needles = needlesOf(unpurgedTexts(ctx.db));
    const holds = (text: string) => holdsAny(text, needles);
    if (needles.size > 0) withholdQuoted(ctx.db, holds);
    r.purge.memories = purgeTombstones(ctx.db);
    r.purge.vectors = (await dropGoneVectors(ctx.db, ctx.vectors)).removed;
    // The snapshot this run took, and older ones, forget what the store forgot (src/maintenance/purge.ts).
    const copies = purgeCopies(ctx.paths, { events: forgottenIds(ctx.db), projects: [], sessions: [], ...(needles.size > 0 ? { holds } : {}) }, needles, stampOf(ctx.db).storeId, r.purge.memories + r.purge.vectors > 0, ctx.now());
    r.purge.copies = copies.filter((c) => c.action !== "unchanged");
  });
  await step("recomputing decay", () => {
    const now = ctx.now();
    r.salience = { ...decaySummary(chunkUses(ctx.db), now, salienceConfig(ctx.config.salience)), orphansRemoved: removeOrphanUses(ctx.db, now - DAY_MS) };
  });
  await step("moving unused memories to the cold tier", () => {
    const plan = planTiers(warmLayoutChunks(ctx.db), ctx.now(), cfg.coldAfterDays);
    r.tiers = { coldAfterDays: cfg.coldAfterDays, toCold: setChunkTiers(ctx.db, plan.toCold, "cold"), toWarm: setChunkTiers(ctx.db, plan.toWarm, "warm"), exempt: plan.exempt, stale: plan.stale };
  });
  await step("compacting the stores", async () => {
    r.size.before = storeSize(ctx.paths);
    if (existsSync(ctx.paths.lance)) {
      const store = await ctx.vectors();
      const tables = (await store.list()).sort();
      // LanceDB dates its versions by the wall clock, whatever clock the job runs on.
      r.compaction.tables = await compactVectors(store, tables, () => new Date(), (m) => {
        failed.errors++;
        problems.push(m);
      });
    }
    // The journal of removed vector rows (a daemon's copy reads what left since its version there):
    // a day of it kept, by the wall clock its trigger stamps with; an older copy is read whole.
    new VecState(ctx.db).pruneGone(Math.floor(Date.now() / 1000) - 86_400);
    r.compaction.sqlite = compactSqlite(ctx.db);
    r.size.after = storeSize(ctx.paths);
  });

  r.ok = problems.length === 0;
  r.durationMs = Date.now() - t0;
  const end = ctx.now();
  finishJob(ctx.db, job, r.ok ? "ok" : "failed", clean(problems), clean(storedSummary(r)), end);
  maintenanceLog(ctx.paths.home, reportLine(r), end);
  return r;
}

/** A run that could not start (a daemon that holds the store and will not stop): recorded as failed, so the briefing says so too. */
export function recordFailedStart(db: Db, home: string, problem: string, now: number): void {
  const job = startJob(db, cleanText("reindex"), now);
  finishJob(db, job, "failed", clean([problem]), clean({}), now);
  maintenanceLog(home, `reindex FAILED: ${problem}`, now);
}
