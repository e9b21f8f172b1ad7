import { dataHome, homePaths } from "../config/paths.cjs";
import type { Payload } from "../contract/hook.cjs";
import { hookLog } from "../hooks/log.cjs";
import { damageReason, isStoreDamage, StoreDamagedError } from "../store/damage.js";
import { openDb } from "../store/db.js";
import { clearMarker, damageLine, readMarker, recordMarker } from "./marker.js";
import { CaptureNotKept, replaySpool, SPOOLED_HOOKS, spoolCapture } from "./spool.js";

/**
 * The capture spooled, or not because the spool is full, or lost: no spool could take it (the
 * data home cannot be written and the fallback is not a private place of ours). A lost one says so
 * where the user will see it: hooks.log when that can still be written, else the hook's stderr
 * (hookLog falls back to it; Claude Code shows it in its debug output).
 */
function keep(name: string, home: string, payload: Payload, now: number, env: NodeJS.ProcessEnv): "spooled" | "full" | "lost" {
  try {
    return spoolCapture(home, name, payload, now) ? "spooled" : "full";
  } catch (err) {
    if (!(err instanceof CaptureNotKept)) throw err;
    hookLog(env, `${name}: this capture is lost: the store could not take it and no private spool could keep it (${err.message})`);
    return "lost";
  }
}

/**
 * What a hook does when the store turns out damaged: a marker (logged once), the capture kept in
 * the spool, and for SessionStart the one line the briefing carries. And when a hook finds the
 * store working again: the marker goes, the spool is replayed (within the hook's time).
 */
export function storeDamaged(name: string, err: unknown, payload: Payload | undefined, env: NodeJS.ProcessEnv, now: number): string | undefined {
  const home = dataHome(env);
  const reason = damageReason(err);
  const kept = payload !== undefined && SPOOLED_HOOKS.has(name) ? keep(name, home, payload, now, env) : undefined;
  if (recordMarker(home, reason, now, name)) {
    const fix = err instanceof StoreDamagedError && err.kind === "lost" ? "`mem restore latest` (or `mem doctor --repair`)" : "`mem doctor --repair`";
    hookLog(env, `${name}: the memory store is ${err instanceof StoreDamagedError && err.kind === "lost" ? "lost" : "damaged"} (${reason}); captures wait in the spool until ${fix}`);
  }
  if (kept === "full") hookLog(env, `${name}: the spool is full; this capture is lost`);
  const marker = readMarker(home);
  return name === "session-start" && marker ? damageLine(marker, true) : undefined;
}

/**
 * What a capture hook does when the store is there but cannot take the write now (locked by
 * another process past the busy timeout, a disk error, a full disk): the capture goes to the spool,
 * which the next hook that finds the store working replays. No damage marker: nothing is damaged.
 */
export function storeUnavailable(name: string, err: unknown, payload: Payload | undefined, env: NodeJS.ProcessEnv, now: number): boolean {
  if (payload === undefined || !SPOOLED_HOOKS.has(name)) return false;
  const why = `${(err as { code?: string }).code ?? "error"}: ${(err as Error).message ?? String(err)}`.slice(0, 300);
  const kept = keep(name, dataHome(env), payload, now, env);
  if (kept === "spooled") {
    hookLog(env, `${name}: the memory store could not be written (${why}); the capture waits in the spool and is written by the next capture that can`);
    return true;
  }
  if (kept === "lost") return true; // said already, by keep
  hookLog(env, `${name}: the memory store could not be written (${why}) and the spool is full; this capture is lost`);
  return false;
}

export async function storeWorks(name: string, env: NodeJS.ProcessEnv, until: number): Promise<void> {
  const home = dataHome(env);
  // The hook may have finished without opening the store (a Stop that had nothing to do): check it.
  try {
    openDb(homePaths(home).sqlite).close();
  } catch (err) {
    if (isStoreDamage(err)) return;
    throw err;
  }
  if (clearMarker(home)) hookLog(env, `${name}: the memory store works again; damage marker cleared`);
  const n = await replaySpool(env, home, until);
  if (n > 0) hookLog(env, `${name}: replayed ${n} capture(s) kept in the spool while the store was damaged`);
}
