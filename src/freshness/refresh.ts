import { spawn } from "node:child_process";
import { renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ChunkOptions } from "../../indexer/chunk-size.js";
import { chunkingKey } from "../../indexer/chunking-key.js";
import { quickStale, type StaleRoot } from "../../indexer/stale.js";
import { holderAlive, procStart, readLock } from "../daemon/lock.js";
import { withCaCertsBack } from "../hooks/ca-env.js";
import { lockPath } from "../daemon/paths.cjs";
import type { Db } from "../store/db.js";
import { listRoots } from "../store/roots.js";
import { readRegular } from "../util/read-regular.cjs";
import { unindexedDecisionFolders } from "../team/decision-folders.js";

const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));

/** At most one background re-index starts per data home in this long (editors that churn swap files cannot make a storm). */
export const REFRESH_COOLDOWN_MS = 5_000;
/** The stat calls the check may make in all, whatever the number and size of the roots. */
export const CHECK_BUDGET = 256;

export const refreshLockPath = (home: string): string => join(home, "refresh.lock");

/** Is a daemon running for this data home (it watches the roots itself)? */
export function daemonRunning(home: string): boolean {
  const h = readLock(lockPath(home));
  return h !== undefined && holderAlive(h);
}

interface Marker {
  pid: number;
  start?: string;
  at: number;
}

function readMarker(path: string): Marker | undefined {
  const r = readRegular(path, 4096);
  if (!r.ok) return undefined;
  try {
    const m = JSON.parse(r.data.toString("utf8")) as Partial<Marker>;
    if (typeof m.pid !== "number" || !Number.isInteger(m.pid) || m.pid <= 0 || typeof m.at !== "number") return undefined;
    return { pid: m.pid, at: m.at, ...(typeof m.start === "string" ? { start: m.start } : {}) };
  } catch {
    return undefined;
  }
}

const markerText = (pid: number, at: number) => {
  const start = procStart(pid);
  return `${JSON.stringify({ pid, ...(start !== undefined ? { start } : {}), at })}\n`;
};

export type Busy = "running" | "recent";

/** Why no re-index may start now: one is running, or one started less than the cooldown ago. */
export function refreshBusy(home: string, now: number): Busy | undefined {
  const m = readMarker(refreshLockPath(home));
  if (!m) return undefined;
  if (holderAlive(m)) return "running";
  return now - m.at < REFRESH_COOLDOWN_MS ? "recent" : undefined;
}

export type RefreshOutcome = "started" | Busy;

/**
 * A marker that does not read as one yet but was made within the cooldown: another caller created
 * it (exclusively) and is writing it now, so it is theirs, not a stale one to take over.
 */
function beingWritten(path: string): boolean {
  try {
    return readMarker(path) === undefined && Date.now() - statSync(path).mtimeMs < REFRESH_COOLDOWN_MS;
  } catch {
    return false;
  }
}

/**
 * Starts `mem index --stale -q` for these projects (or, with `add`, `mem index PATHS --project P -q`), detached, unless one is running or started
 * within the cooldown. The marker (`refresh.lock`, created exclusively, so of concurrent callers
 * exactly one wins) names the process doing the work; it stays after that process ends, as the
 * time of the last start.
 */
export function startRefresh(home: string, env: NodeJS.ProcessEnv, projects: string[] | undefined, now: number, add?: { project: string; paths: string[] }): RefreshOutcome {
  const path = refreshLockPath(home);
  let claimed = false;
  for (let attempt = 0; attempt < 3 && !claimed; attempt++) {
    try {
      writeFileSync(path, markerText(process.pid, now), { flag: "wx", mode: 0o600 });
      claimed = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const busy = refreshBusy(home, now) ?? (beingWritten(path) ? "running" : undefined);
      if (busy) return busy;
      try {
        unlinkSync(path); // stale: its process ended more than the cooldown ago (or the marker is garbage)
      } catch {
        // another caller took it over first; try again
      }
    }
  }
  if (!claimed) return "running";
  // New roots (a project's decision folders) are indexed into their project; else the recorded roots that changed.
  const args = add ? [BIN, "index", ...add.paths, "--project", add.project, "-q"] : [BIN, "index", "--stale", "-q", ...(projects ?? []).flatMap((p) => ["--project", p])];
  const child = spawn(process.execPath, args, { detached: true, stdio: "ignore", env: withCaCertsBack(env) });
  child.on("error", () => undefined);
  child.unref();
  if (child.pid !== undefined) {
    // Replaced whole (rename), never written through: the marker now names the re-index.
    const tmp = `${path}.${process.pid}`;
    try {
      writeFileSync(tmp, markerText(child.pid, now), { flag: "wx", mode: 0o600 });
      renameSync(tmp, path);
    } catch {
      try {
        unlinkSync(tmp);
      } catch {
        // never written
      }
    }
  }
  return "started";
}

export interface Freshness {
  /** Roots found changed since they were last indexed. */
  stale: StaleRoot[];
  /** What became of the background re-index; undefined when nothing was found changed. */
  reindex?: RefreshOutcome;
}

/**
 * For `mem query` and the hooks when no daemon watches: a cheap check (bounded stat calls, no
 * walk) of the roots of these projects (undefined: every project), and a background re-index
 * when one changed. Nothing when a daemon runs, or a re-index is running or started within the
 * cooldown (no stat work then either).
 */
export function refreshIfStale(db: Db, o: { home: string; env: NodeJS.ProcessEnv; projects: string[] | undefined; now: number; chunks: ChunkOptions; folders?: readonly string[] }): Freshness {
  if (daemonRunning(o.home) || refreshBusy(o.home, o.now)) return { stale: [] };
  const wanted = o.projects ? new Set(o.projects) : undefined;
  const roots = listRoots(db).filter((r) => !wanted || wanted.has(r.project));
  if (roots.length === 0) return { stale: [] };
  // A project chunked by another chunker (an upgrade) counts as changed.
  const { stale } = quickStale(db, roots, { budget: CHECK_BUDGET, now: o.now, chunking: chunkingKey(o.chunks), ...(o.folders ? { folders: o.folders } : {}) });
  if (stale.length === 0) return { stale };
  return { stale, reindex: startRefresh(o.home, o.env, [...new Set(stale.map((s) => s.project))], o.now) };
}

/**
 * SessionStart's use: a project's decision folders that no root covers yet (a fresh clone's
 * docs/adr) are indexed in the background, once a cooldown like any re-index. Logged; never throws.
 */
export function indexDecisionFolders(db: Db, o: { home: string; env: NodeJS.ProcessEnv; project: string; root: string | undefined; folders: readonly string[]; now: number; log: (line: string) => void }): void {
  try {
    if (o.root === undefined || o.folders.length === 0 || refreshBusy(o.home, o.now)) return;
    const recorded = listRoots(db).filter((r) => r.project === o.project).map((r) => r.path as string);
    const paths = unindexedDecisionFolders(o.root, o.folders, recorded);
    if (paths.length === 0) return;
    if (startRefresh(o.home, o.env, undefined, o.now, { project: o.project, paths }) === "started") o.log(`decision records found in ${paths.join(", ")}: indexing them in the background`);
  } catch (err) {
    o.log(`looking for decision records failed: ${(err as Error).message}`);
  }
}

/** The hooks' use: the check and the background re-index, logged; never throws (a hook never breaks the session). */
export function refreshForHook(db: Db, o: { home: string; env: NodeJS.ProcessEnv; projects: string[]; now: number; chunks: ChunkOptions; folders?: readonly string[]; log: (line: string) => void }): void {
  try {
    const f = refreshIfStale(db, o);
    if (f.reindex === "started") o.log(`${f.stale.map((s) => s.why).join("; ")}: re-indexing in the background`);
  } catch (err) {
    o.log(`checking whether the notes changed failed: ${(err as Error).message}`);
  }
}
