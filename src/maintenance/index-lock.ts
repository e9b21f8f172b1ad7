import { join } from "node:path";
import { acquireLock } from "../daemon/lock.js";

/** How long a run waits for another one (the daemon's re-index of a watched root, a background one) to finish. */
export const LOCK_WAIT_MS = 120_000;

/** The lock file of a data home's index runs. */
export const indexLockPath = (home: string) => join(home, "index.lock");

/**
 * One run that writes the index at a time per data home (`index.lock`): `mem index` (yours, the
 * daemon's re-index of a file you just saved, a background one), `mem reindex`, `mem rebuild`,
 * `mem rotate`, `mem sync` without a daemon and `mem doctor --repair`; the daemon's own vector
 * step tries it without waiting. Runs started together would embed the same new chunks twice, or one would
 * index into tables the other is replacing. Waits for the holder (saying so once), at most
 * `waitMs`; resolves to the release. A lock path mem cannot take over (a directory with files in
 * it, a file it may not remove) fails at once with the fix (LockPathError), never after the wait.
 */
export async function indexLock(home: string, say: (line: string) => void, waitMs = LOCK_WAIT_MS): Promise<() => void> {
  const path = indexLockPath(home);
  let told = false;
  for (const until = Date.now() + waitMs; ; await new Promise((r) => setTimeout(r, 100))) {
    const lock = acquireLock(path);
    if (lock.ok) return lock.release;
    const who = lock.pid > 0 ? `another index run (pid ${lock.pid})` : "another index run";
    if (Date.now() > until) throw new Error(`${who} has held ${path} for ${Math.round(waitMs / 1000)} s; try again when it ends`);
    if (!told) say(`waiting for ${who} to finish`);
    told = true;
  }
}
