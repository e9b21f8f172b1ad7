import { readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { ensurePrivateDir } from "../util/private-dir.cjs";
import { dirname } from "node:path";

/** Is a process with this pid running? (EPERM: it exists but belongs to someone else.) */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function readLock(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, "utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One daemon per data home: the lock file holds its pid, created exclusively. A lock whose
 * process is gone (kill -9, a crash) is stale and is taken over.
 */
export function acquireLock(path: string): { ok: true; release: () => void } | { ok: false; pid: number } {
  ensurePrivateDir(dirname(path));
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: "wx" });
      return {
        ok: true,
        release: () => {
          if (readLock(path) === process.pid) {
            try {
              unlinkSync(path);
            } catch {
              // already gone
            }
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = readLock(path);
      if (pid !== undefined && pid !== process.pid && alive(pid)) return { ok: false, pid };
      try {
        unlinkSync(path); // stale
      } catch {
        // another process took it over first; try again
      }
    }
  }
  const pid = readLock(path);
  return { ok: false, pid: pid ?? -1 };
}
