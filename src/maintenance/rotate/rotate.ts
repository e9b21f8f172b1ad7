import { constants, copyFileSync, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, statSync, unlinkSync, utimesSync } from "node:fs";
import { basename, dirname, extname, join, relative, sep } from "node:path";
import { cutoffDay, datedLog, dayIn } from "./dates.js";

/**
 * Session logs of a memory root: `sessions/current.md` is moved to `sessions/YYYY-MM-DD.md`, the
 * day it was last written in the user's time zone; dated logs older than `archiveAfterDays` move
 * to `archive/` under the same memory root, keeping their path below it (`sessions/2026-01-02.md`
 * → `archive/sessions/2026-01-02.md`). A target that exists is never written over: the file gets
 * the next free suffix (`2026-11-18-2.md`). Files are moved by hard link then unlink (a writer
 * holding current.md open goes on writing into the dated file), else copied without overwriting.
 */
export interface RotateOptions {
  now: number;
  /** IANA zone; "" or undefined: the system's. */
  timeZone?: string;
  archiveAfterDays: number;
  /** Say what would move; move nothing. */
  dryRun?: boolean;
}

export interface Move {
  from: string;
  to: string;
}

export interface RotateReport {
  /** current.md → the dated log. */
  rotated: Move[];
  /** Old dated logs → archive/. */
  archived: Move[];
  warnings: string[];
}

const CURRENT = /^current\.mdx?$/i;

const inside = (path: string, dir: string) => path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/**
 * The `sessions/` directories of an indexed root: its own `sessions/`, the root itself when it is
 * one, and the parents of indexed files that sit in a `sessions/` directory (not under archive/).
 */
export function sessionDirs(root: string, indexedPaths: readonly string[]): string[] {
  const dirs = new Set<string>();
  if (basename(root).toLowerCase() === "sessions") dirs.add(root);
  dirs.add(join(root, "sessions"));
  for (const p of indexedPaths) {
    const d = dirname(p);
    if (!inside(d, root) || basename(d).toLowerCase() !== "sessions") continue;
    if (relative(root, d).split(sep).some((s) => s.toLowerCase() === "archive")) continue;
    dirs.add(d);
  }
  return [...dirs].filter((d) => {
    try {
      return lstatSync(d).isDirectory();
    } catch {
      return false;
    }
  }).sort();
}

/** `a/2026-11-18.md` → `a/2026-11-18-2.md` for n = 2. */
function suffixed(path: string, n: number): string {
  if (n === 1) return path;
  const ext = extname(path);
  return `${path.slice(0, path.length - ext.length)}-${n}${ext}`;
}

/** The first free name for `to` (itself, or with a suffix). */
function freeName(to: string, taken: ReadonlySet<string>): string {
  for (let n = 1; n < 10_000; n++) {
    const t = suffixed(to, n);
    if (!taken.has(t) && !existsSync(t)) return t;
  }
  throw new Error(`no free name for ${to}`);
}

/** Moves `from` to `to` or the next free suffixed name, never over an existing file; returns where it went. */
export function moveNoClobber(from: string, to: string): string {
  mkdirSync(dirname(to), { recursive: true });
  for (let n = 1; n < 10_000; n++) {
    const t = suffixed(to, n);
    try {
      linkSync(from, t);
      unlinkSync(from);
      return t;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EEXIST") continue;
      if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "EXDEV" && code !== "EMLINK") throw err;
    }
    // No hard links here: an exclusive copy (fails rather than overwrite), its times kept, then the original goes.
    try {
      copyFileSync(from, t, constants.COPYFILE_EXCL);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw err;
    }
    const st = statSync(from);
    utimesSync(t, st.atime, st.mtime);
    unlinkSync(from);
    return t;
  }
  throw new Error(`no free name for ${to}`);
}

function isFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

/** Where a sessions directory's logs are archived: the memory root is its parent (or the indexed root when it is the root). */
function archiveOf(file: string, sessionsDir: string, root: string): string {
  const memRoot = sessionsDir === root ? root : dirname(sessionsDir);
  const rel = relative(memRoot, file);
  return join(memRoot, "archive", sessionsDir === root ? basename(file) : rel);
}

/** Rotates and archives the session logs of one indexed root. */
export function rotateRoot(root: string, indexedPaths: readonly string[], o: RotateOptions): RotateReport {
  const report: RotateReport = { rotated: [], archived: [], warnings: [] };
  const taken = new Set<string>(); // names a dry run has already given out
  const move = (from: string, to: string, list: Move[]) => {
    try {
      const target = o.dryRun ? freeName(to, taken) : moveNoClobber(from, to);
      taken.add(target);
      list.push({ from, to: target });
    } catch (err) {
      report.warnings.push(`${from}: could not move it to ${to} (${(err as Error).message}); left where it is`);
    }
  };
  const cutoff = cutoffDay(o.now, o.archiveAfterDays, o.timeZone);
  for (const dir of sessionDirs(root, indexedPaths)) {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (err) {
      report.warnings.push(`${dir}: cannot be read (${(err as Error).message})`);
      continue;
    }
    const today = dayIn(o.now, o.timeZone);
    for (const name of names.filter((n) => CURRENT.test(n))) {
      const path = join(dir, name);
      const st = lstatSync(path, { throwIfNoEntry: false });
      if (!st?.isFile()) {
        report.warnings.push(`${path}: not a regular file; not rotated`);
        continue;
      }
      if (st.size === 0) continue; // nothing written yet
      const day = dayIn(st.mtimeMs, o.timeZone);
      move(path, join(dir, `${day <= today ? day : today}${extname(name).toLowerCase()}`), report.rotated);
    }
    // Read again: a current.md last written long ago may be old enough to archive at once.
    const now = o.dryRun ? [...names, ...report.rotated.filter((m) => dirname(m.to) === dir).map((m) => basename(m.to))] : readdirSync(dir).sort();
    for (const name of now) {
      const day = datedLog(name);
      if (!day || day >= cutoff) continue;
      const path = join(dir, name);
      if (!report.rotated.some((m) => m.to === path) && !isFile(path)) continue;
      move(path, archiveOf(path, dir, root), report.archived);
    }
  }
  return report;
}
