import { lstatSync, rmdirSync, unlinkSync, writeFileSync } from "node:fs";
import { readRegular } from "../util/read-regular.cjs";
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

/** A small file's text; undefined when absent, unreadable or not a regular file (a FIFO lock never blocks). */
const read = (path: string): string | undefined => {
  const r = readRegular(path, 64 * 1024);
  return r.ok ? r.data.toString("utf8") : undefined;
};

/** Linux: when the process started (clock ticks since boot, field 22 of /proc/<pid>/stat); undefined without /proc. */
export function procStart(pid: number): string | undefined {
  const stat = read(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]; // after "(comm) ": field 3 is index 0
}

/** Does pid `pid` run `mem serve` (bin/mem.cjs serve, `mem serve`)? Undefined where /proc cannot tell. */
function runsMemServe(pid: number): boolean | undefined {
  const cmdline = read(`/proc/${pid}/cmdline`);
  if (cmdline === undefined) return undefined;
  const args = cmdline.split("\0");
  return args.includes("serve") && args.some((a) => /(^|[/\\])mem(\.c?js)?$/.test(a));
}

/** Who holds the lock: its pid and, where /proc has it, its start time (an older mem wrote a bare pid). */
export interface LockHolder {
  pid: number;
  start?: string;
}

export function readLock(path: string): LockHolder | undefined {
  const text = read(path)?.trim();
  if (!text) return undefined;
  let pid: unknown = Number(text);
  let start: unknown;
  if (text.startsWith("{")) {
    try {
      ({ pid, start } = JSON.parse(text) as { pid?: unknown; start?: unknown });
    } catch {
      return undefined;
    }
  }
  if (typeof pid !== "number" || !Number.isInteger(pid) || pid <= 0) return undefined;
  return typeof start === "string" ? { pid, start } : { pid };
}

/**
 * Is the lock's holder the daemon that wrote it? Its pid must be alive and, where /proc tells,
 * be the same process (same start time) or, for a lock without one, run `mem serve`: after a
 * crash and a reboot the pid may name any process (pid 1), which must not keep the daemon out.
 * Without /proc (macOS) a live pid is all there is to check.
 */
export function holderAlive(h: LockHolder): boolean {
  if (!alive(h.pid)) return false;
  if (read("/proc/self/stat") === undefined) return true;
  if (h.start !== undefined) return procStart(h.pid) === h.start;
  return runsMemServe(h.pid) === true;
}

/**
 * One daemon per data home: the lock file holds its pid and start time (JSON), created
 * exclusively and readable by its owner only. A lock whose process is gone (kill -9, a crash) or
 * is another process by now is stale and is taken over.
 */
export function acquireLock(path: string): { ok: true; release: () => void } | { ok: false; pid: number } {
  ensurePrivateDir(dirname(path));
  const start = procStart(process.pid);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(path, `${JSON.stringify({ pid: process.pid, ...(start !== undefined ? { start } : {}) })}\n`, { flag: "wx", mode: 0o600 });
      return {
        ok: true,
        release: () => {
          if (readLock(path)?.pid === process.pid) {
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
      const holder = readLock(path);
      if (holder !== undefined && holder.pid !== process.pid && holderAlive(holder)) return { ok: false, pid: holder.pid };
      clearStale(path);
    }
  }
  return { ok: false, pid: readLock(path)?.pid ?? -1 };
}

/** A lock path that mem cannot take over by itself (a directory with something in it, a file it may not remove): says what to do. */
export class LockPathError extends Error {
  override name = "LockPathError";
}

/**
 * Removes a stale lock: a file (or a FIFO, a socket, a link: nothing to read there), or an empty
 * directory (nothing lost). Gone meanwhile (another process took it over first) is fine: the
 * caller tries again. A directory with entries, or a lock mem may not remove, throws at once
 * with the fix, rather than being retried until a wait runs out.
 */
function clearStale(path: string): void {
  let dir: boolean;
  try {
    dir = lstatSync(path).isDirectory();
  } catch {
    return; // gone already
  }
  try {
    if (dir) rmdirSync(path);
    else unlinkSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return;
    if (dir) throw new LockPathError(`${path} is a directory${code === "ENOTEMPTY" || code === "EEXIST" ? " with files in it" : ` (${code})`}, not a lock file: mem cannot take the lock there. Move it away or remove it (rm -r '${path}') and try again`);
    throw new LockPathError(`${path} is left from a process that has ended, and mem cannot remove it (${code}): check its owner and permissions, or remove it (rm '${path}'), and try again`);
  }
}
