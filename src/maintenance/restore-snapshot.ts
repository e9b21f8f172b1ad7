import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { loadAppConfig } from "../app.js";
import { stopDaemon } from "../daemon/stop.js";
import { openDb } from "../store/db.js";
import { identityPath, readIdentity, recordIdentity, stampOf, stampStore, type Identity, type StoreCounts } from "../store/identity.js";
import type { Snapshot } from "../store/snapshots.js";
import { clearMarker } from "./marker.js";
import { replaySpool } from "./spool.js";

/**
 * `mem restore`: puts a snapshot back in place of the store (or starts an empty one, or accepts the
 * file that is there). The daemon is stopped first (the caller holds index.lock, so no index run
 * writes meanwhile); the files replaced are moved into `<home>/before-restore-<time>/`, never
 * deleted; the identity is written for the store now in place, under a new generation (an older
 * copy put back by hand later is told apart). Captures spooled while the store was lost are
 * replayed into it. The vectors (LanceDB) are left: the next index run reconciles them with the
 * restored chunks and embeds what they lack.
 */

export type RestoreWhat = { snapshot: Snapshot } | { fresh: true } | { adopt: true };

export interface RestoreReport {
  ok: boolean;
  action: "restore" | "fresh" | "adopt";
  daemon: "none" | "stopped";
  snapshot?: { id: string; takenAt: string; reason: string };
  /** Where the files that were in place went (absent: nothing was moved). */
  movedAside?: string;
  /** What the store in place holds now. */
  counts: StoreCounts;
  storeId: string;
  generation: number;
  replayed: number;
  vectors: string;
  durationMs: number;
}

const SIDE = ["", "-wal", "-shm"];
const stamp = (t: number) => new Date(t).toISOString().replace(/[:.]/g, "-");

function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Moves the store's files (and its identity) into `dir`; returns it, or undefined when there was
 * nothing to move. `keepIdentity`: the identity is copied, and stays in place until the restored
 * store is, so that a hook in between finds the store lost (and spools its capture) instead of
 * finding no store and no identity, a first run's, and making a new store whose WAL the restored
 * file would then be opened with.
 */
function moveAside(sqlite: string, dir: string, extra: string[] = [], keepIdentity = false): string | undefined {
  const identity = identityPath(sqlite);
  const files = [...SIDE.map((s) => sqlite + s), ...(keepIdentity ? [] : [identity]), ...extra].filter(present);
  const copied = keepIdentity && present(identity);
  if (files.length === 0 && !copied) return undefined;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (copied) copyFileSync(identity, join(dir, basename(identity)));
  for (const f of files) renameSync(f, join(dir, basename(f)));
  return dir;
}

/** Reads the snapshot whole before anything is moved: a damaged copy is refused, the store left as it is. */
function checkSnapshot(file: string): void {
  let problem: string;
  try {
    const db = openDb(file, { readonly: true, identity: false }); // never written to: it stays a good copy
    try {
      problem = String(db.pragma("quick_check(5)", { simple: true }));
    } finally {
      db.close();
    }
  } catch (err) {
    problem = (err as Error).message;
  }
  if (problem !== "ok") throw new Error(`the snapshot ${file} is damaged (${problem.slice(0, 300)}); nothing was changed: pick another one (\`mem restore --list\`)`);
}

function record(sqlite: string, reason: string): Identity {
  const db = openDb(sqlite, { identity: false });
  try {
    return recordIdentity(db, sqlite, reason);
  } finally {
    db.close();
  }
}

/** `beforeSwap`: runs after the files in place were moved aside, just before the snapshot's copy takes their place (tests: a hook then). */
export async function restoreStore(env: NodeJS.ProcessEnv, what: RestoreWhat, now = Date.now(), beforeSwap?: () => void): Promise<RestoreReport> {
  const started = Date.now();
  const { paths } = loadAppConfig(env, { tolerateConfigErrors: true });
  const sqlite = paths.sqlite;
  if ("snapshot" in what) checkSnapshot(what.snapshot.file);
  const daemon = await stopDaemon(paths.home);
  const prior = readIdentity(sqlite);
  const aside = join(paths.home, `before-restore-${stamp(now)}`);
  let movedAside: string | undefined;
  let vectors = "the vector tables are kept; the next `mem index` (or the daemon) reconciles them with the restored chunks and embeds what they lack";

  if ("snapshot" in what) {
    const work = `${sqlite}.restore-${process.pid}`;
    for (const s of SIDE) rmSync(work + s, { force: true });
    copyFileSync(what.snapshot.file, work);
    chmodSync(work, 0o600);
    const db = openDb(work, { identity: false }); // a snapshot of an older schema is migrated here
    try {
      const had = stampOf(db);
      // The snapshot's own id (a copy of this store, or of one before a fresh start); a new generation.
      stampStore(db, { ...(!had.storeId && prior ? { storeId: prior.storeId } : {}), generation: Math.max(had.generation, prior?.generation ?? 0) + 1 });
      db.pragma("wal_checkpoint(TRUNCATE)");
    } finally {
      db.close();
    }
    movedAside = moveAside(sqlite, aside, [], true);
    for (const s of SIDE) if (existsSync(work + s) && s !== "") rmSync(work + s, { force: true });
    beforeSwap?.();
    renameSync(work, sqlite);
  } else if ("fresh" in what) {
    // Starting over: the old vectors go aside with the old store (nothing in them belongs to the new one).
    movedAside = moveAside(sqlite, aside, [paths.lance]);
    vectors = movedAside && existsSync(join(aside, "vectors")) ? `the old vector tables were moved aside too (${join(aside, "vectors")})` : "no vectors yet";
    openDb(sqlite).close(); // no identity, no store: a first run's
  } else {
    const db = openDb(sqlite, { identity: false });
    try {
      stampStore(db, { generation: Math.max(stampOf(db).generation, prior?.generation ?? 0) + 1 }); // its own id kept (a new one if it had none)
    } finally {
      db.close();
    }
  }

  const reason = "snapshot" in what ? "restore" : "fresh" in what ? "fresh" : "adopted";
  record(sqlite, reason);
  clearMarker(paths.home);
  const replayed = await replaySpool(env, paths.home); // captures kept aside while the store was lost
  const id = record(sqlite, reason); // counted again, with what the replay wrote
  return {
    ok: true,
    action: "snapshot" in what ? "restore" : "fresh" in what ? "fresh" : "adopt",
    daemon,
    ...("snapshot" in what ? { snapshot: { id: what.snapshot.id, takenAt: what.snapshot.takenAt, reason: what.snapshot.reason } } : {}),
    ...(movedAside ? { movedAside } : {}),
    counts: id.counts,
    storeId: id.storeId,
    generation: id.generation,
    replayed,
    vectors,
    durationMs: Date.now() - started,
  };
}
