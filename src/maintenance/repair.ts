import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { needsScrub, scrubRewritten, scrubStore } from "../store/scrub.js";
import { join } from "node:path";
import { appWith, loadAppConfig, openApp, type AppConfig } from "../app.js";
import { stopDaemon } from "../daemon/stop.js";
import { StoreDamagedError } from "../store/damage.js";
import { openDb } from "../store/db.js";
import { readIdentity, type Identity } from "../store/identity.js";
import { listSnapshots, snapshotBefore } from "../store/snapshots.js";
import { VecState } from "../store/vec-state.js";
import { VectorStore } from "../store/vectors.js";
import { checkSqlite, scanVectorTables, type TableHealth } from "./health.js";
import { clearMarker } from "./marker.js";
import { reindex, vectorsFor } from "./rebuild.js";
import type { Salvage } from "./salvage.js";
import { replaySpool, spoolPath } from "./spool.js";
import { fallbackSpoolPath } from "./flags.js";
import { moveStraySideFiles, rebuildSqlite, snapshot } from "./repair-sqlite.js";

export interface RepairReport {
  ok: boolean;
  /** False when the stores were healthy and nothing was touched. */
  changed: boolean;
  backup?: string;
  daemon: "none" | "stopped";
  /** lost: missing, emptied, replaced or put back older (its identity says so): nothing to salvage, a snapshot to restore. */
  sqlite: { status: "ok" | "damaged" | "absent" | "lost"; reason?: string };
  /** The snapshot taken before the repair changed a store that opened fine. */
  snapshot?: string;
  /** What the store's identity recorded before the repair (null: none). */
  identity: { events: number; memories: number; tasks: number; chunks: number; generation: number } | null;
  /** The newest snapshot there is to restore, when the repair could not bring everything back. */
  restore?: { id: string; takenAt: string; events: number; memories: number; tasks: number; chunks: number; command: string };
  vectorTables: { name: string; status: "damaged"; reason: string }[];
  recovered: { events: number; sessions: number; roots: number; markdownFiles: number; chunks: number; vectors: number; spooled: number };
  lost: { events: number | null; sessions: number | null; filesMissing: number };
  vectors: { status: "ok" | "pending" | "none"; detail: string };
  notes: string[];
  durationMs: number;
}

/** Runs `fn` on the store at `path`, closed afterwards. */
function withDb<T>(path: string, fn: (db: ReturnType<typeof openDb>) => T): T {
  const db = openDb(path);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const stamp = (t: number) => new Date(t).toISOString().replace(/[:.]/g, "-");

/**
 * `mem doctor --repair`: with the daemon stopped, diagnoses both stores; a healthy pair is left as
 * it is. Otherwise keeps the damaged files in `<home>/backup-<time>/`, salvages, rebuilds, and
 * reports in counts what came back and what did not.
 */
export async function repair(env: NodeJS.ProcessEnv): Promise<RepairReport> {
  const started = Date.now();
  const base = loadAppConfig(env, { tolerateConfigErrors: true });
  const daemon = await stopDaemon(base.paths.home);
  // The files as they are now, before anything opens them: the backup, should they be damaged.
  const pristine = join(base.paths.home, `.repair-${process.pid}`);
  try {
    const stray = moveStraySideFiles(base.paths.sqlite, join(base.paths.home, `backup-${stamp(started)}-side-files`));
    snapshot(base.paths.sqlite, pristine);
    const report = await diagnoseAndRepair(env, base, daemon, pristine, started);
    if (stray.length > 0) {
      report.changed = true;
      report.notes.unshift(...stray);
    }
    return report;
  } finally {
    rmSync(pristine, { recursive: true, force: true });
  }
}

async function diagnoseAndRepair(env: NodeJS.ProcessEnv, base: AppConfig, daemon: RepairReport["daemon"], pristine: string, started: number): Promise<RepairReport> {
  const { paths } = base;
  const notes: string[] = [];

  // Diagnose both stores.
  const prior = readIdentity(paths.sqlite);
  let sqlite: RepairReport["sqlite"] = { status: existsSync(paths.sqlite) || prior ? "ok" : "absent" };
  let tables: TableHealth[] = [];
  let recordedApp: ReturnType<typeof appWith> | undefined;
  let snapshot: string | undefined;
  try {
    recordedApp = sqlite.status === "ok" ? appWith(base, openDb(paths.sqlite)) : undefined;
    const h = recordedApp ? checkSqlite(recordedApp.db) : undefined;
    if (h?.status === "damaged") sqlite = { status: "damaged", reason: h.reason! };
    else if (h?.ftsProblem) sqlite = { status: "damaged", reason: `the text index is inconsistent: ${h.ftsProblem}` };
  } catch (err) {
    if (!(err instanceof StoreDamagedError)) throw err;
    sqlite = { status: err.kind === "lost" ? "lost" : "damaged", reason: err.reason };
  }
  const store = existsSync(paths.lance) ? await VectorStore.open(paths.lance) : undefined;
  if (store) {
    const state = sqlite.status === "ok" && recordedApp ? new VecState(recordedApp.db) : undefined;
    tables = (await scanVectorTables(store, state?.tables(), (t) => state?.count(t) ?? 0)).filter((t) => t.status === "damaged");
    store.close();
  }
  // Before a repair changes a store that opens: a snapshot of it as it was.
  if (recordedApp && sqlite.status === "ok" && (tables.length > 0 || existsSync(spoolPath(paths.home)) || existsSync(fallbackSpoolPath(paths.home)) || needsScrub(recordedApp.db))) {
    const s = snapshotBefore(recordedApp.db, paths.sqlite, "repair", base.config.maintenance.keepSnapshots);
    if ("id" in s) snapshot = s.id;
    else notes.push(`no snapshot could be taken before the repair: ${s.error}`);
  }
  await recordedApp?.close();

  const report: RepairReport = {
    ok: true, changed: false, daemon, sqlite, ...(snapshot ? { snapshot } : {}),
    identity: prior ? { ...pick(prior.counts), generation: prior.generation } : null,
    vectorTables: tables.map((t) => ({ name: t.name, status: "damaged", reason: t.reason ?? "unreadable" })),
    recovered: { events: 0, sessions: 0, roots: 0, markdownFiles: 0, chunks: 0, vectors: 0, spooled: 0 },
    lost: { events: 0, sessions: 0, filesMissing: 0 },
    vectors: { status: "none", detail: "no vectors needed rebuilding" },
    notes, durationMs: 0,
  };
  if (sqlite.status === "lost") {
    // Nothing of it to salvage: a repair would only make an empty store. The way back is a snapshot.
    report.ok = false;
    offerRestore(report, paths.sqlite);
    report.durationMs = Date.now() - started;
    return report;
  }
  if (sqlite.status !== "damaged" && tables.length === 0) {
    report.recovered.spooled = await replaySpool(env, paths.home);
    if (report.recovered.spooled > 0) report.changed = true;
    const scrubbed = existsSync(paths.sqlite) ? withDb(paths.sqlite, (db) => scrubStore(db)) : undefined;
    if (scrubbed) {
      report.changed = true;
      notes.push(`redacted again what was stored under older rules (version ${scrubbed.from} → ${scrubbed.to}): ${scrubRewritten(scrubbed)} row(s) changed of ${scrubbed.scanned}`);
    }
    if (clearMarker(paths.home)) notes.push("a damage marker left by a hook was removed: the store opens and reads fine");
    report.durationMs = Date.now() - started;
    return report;
  }

  report.changed = true;
  const backup = join(paths.home, `backup-${stamp(started)}`);
  if (sqlite.status === "damaged") renameSync(pristine, backup);
  else mkdirSync(backup, { recursive: true, mode: 0o700 });
  report.backup = backup;
  let found: Salvage | undefined;
  if (sqlite.status === "damaged") {
    found = rebuildSqlite(base, backup, prior);
    notes.push(...found.notes);
  }
  for (const t of tables) {
    mkdirSync(join(backup, "vectors"), { recursive: true, mode: 0o700 });
    renameSync(join(paths.lance, `${t.name}.lance`), join(backup, "vectors", `${t.name}.lance`));
  }

  const app = openApp(env, { tolerateConfigErrors: true });
  try {
    const state = new VecState(app.db);
    for (const t of tables) state.forget(t.name);
    const reports = [];
    report.recovered.spooled = await replaySpool(env, paths.home); // captures made while the store was damaged
    if (found) {
      const eventProjects = app.db.prepare("SELECT DISTINCT project FROM events WHERE chunked = 0").pluck().all() as string[];
      const r = await reindex(app, found.roots, found.sources, eventProjects);
      report.recovered.markdownFiles = r.filesIndexed;
      report.lost.filesMissing = r.filesMissing;
      reports.push(...r.vectorReports);
      notes.push(...r.warnings);
      report.recovered.events = found.events.length;
      report.recovered.sessions = found.sessions.length;
      report.recovered.roots = found.roots.length;
      const lost = (counted: number | undefined, got: number) => (counted === undefined ? null : Math.max(0, counted - got));
      report.lost.events = lost(found.counted.events, found.events.length);
      report.lost.sessions = lost(found.counted.sessions, found.sessions.length);
    } else {
      const projects = app.db.prepare("SELECT DISTINCT project FROM chunks ORDER BY project").pluck().all() as string[];
      for (const p of projects) reports.push(await vectorsFor(app, p, (m) => notes.push(m)));
    }
    const skipped = reports.find((r) => r.status === "skipped");
    report.vectors = skipped
      ? { status: "pending", detail: `vectors will be rebuilt by the next \`mem index\` (${skipped.reason})` }
      : { status: "ok", detail: `${reports.reduce((n, r) => n + r.embedded, 0)} vector(s) embedded again${reports[0]?.table ? ` into ${reports[0].table}` : ""}` };
    report.recovered.chunks = app.db.prepare("SELECT count(*) FROM chunks").pluck().get() as number;
    report.recovered.vectors = app.db.prepare("SELECT count(*) FROM vec_rows").pluck().get() as number;
    const embedded = reports.reduce((n, r) => n + r.embedded, 0);
    if (!skipped && report.recovered.vectors > embedded) report.vectors.detail += `; ${report.recovered.vectors - embedded} kept from the vector table (same chunks)`;
  } finally {
    await app.close();
  }
  clearMarker(paths.home);
  // Fewer events than the identity recorded: the salvage did not bring everything back; a snapshot may.
  if (prior && found && report.recovered.events < prior.counts.events) {
    notes.push(`the store held ${prior.counts.events} events when last written; ${report.recovered.events} were salvaged`);
    offerRestore(report, paths.sqlite);
  }
  report.durationMs = Date.now() - started;
  return report;
}

const pick = (c: Identity["counts"]) => ({ events: c.events, memories: c.memories, tasks: c.tasks, chunks: c.chunks });

/** Points the report at the newest snapshot, if there is one. */
function offerRestore(report: RepairReport, sqlite: string): void {
  const s = listSnapshots(sqlite)[0];
  if (!s) return void report.notes.push("there is no snapshot to restore; `mem restore --fresh` starts an empty store (the old file is kept aside)");
  report.restore = { id: s.id, takenAt: s.takenAt, ...pick(s.counts), command: "mem restore latest" };
}
