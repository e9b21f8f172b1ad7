import { sep } from "node:path";
import { cleanText } from "../src/redact/clean.cjs";
import type { Db } from "../src/store/db.js";
import { getMeta, setMeta } from "../src/store/meta.js";

/** Is `path` the root itself or inside it? */
export const under = (path: string, root: string): boolean => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

const key = (project: string, root: string) => cleanText(`root-indexed:${JSON.stringify([project, root])}`);

/**
 * When a root of a project was last walked whole (an index run, or a freshness check that found
 * nothing changed): its directories' mtimes are compared with this to tell, without a walk, that
 * files were added, removed or renamed since.
 */
export function markRootIndexed(db: Db, project: string, root: string, at: number): void {
  setMeta(db, key(project, root), cleanText(String(at)));
}

const dirsKey = (project: string, root: string) => cleanText(`root-dirs:${JSON.stringify([project, root])}`);

/** File systems date a change by a coarse clock (a jiffy on Linux, 2 s on FAT): a directory changed just after a run started may carry an mtime a little before it. */
export const CLOCK_SLACK_MS = 2_000;
/** A directory's mtime this much older than the run's start was read after any change that carried it (a jiffy is 1-10 ms). */
export const SETTLED_MS = 100;
const MAX_SEEN_DIRS = 256;

/**
 * The directories under `root` whose mtime, as read by the run that started at `at`, falls within
 * the clock slack before it, and can be trusted as read: settled (older than `at` by SETTLED_MS)
 * and on a file system with sub-second times (on a 2 s clock a later change may keep it). The
 * freshness check compares these exactly instead of counting them changed (notes written just
 * before `mem index` are not "changed since last indexed"). At most 256 (beyond: none, the slack
 * rules). Pure.
 */
export function settledDirs(dirs: ReadonlyMap<string, number>, root: string, at: number): Record<string, number> {
  const out: Record<string, number> = {};
  let n = 0;
  for (const [d, m] of dirs) {
    if (!under(d, root) || m < at - CLOCK_SLACK_MS || m > at - SETTLED_MS || m % 1000 === 0) continue;
    if (++n > MAX_SEEN_DIRS) return {};
    out[d] = m;
  }
  return out;
}

/** Records the directories of a root whose mtimes the last walk read (see settledDirs). */
export function markDirsSeen(db: Db, project: string, root: string, dirs: Record<string, number>): void {
  const clean = Object.fromEntries(Object.entries(dirs).map(([d, m]) => [cleanText(d), m]));
  setMeta(db, dirsKey(project, root), cleanText(JSON.stringify(clean)));
}

/** What markDirsSeen recorded for the root: directory → mtime as read (empty when nothing, or unreadable). */
export function dirsSeen(db: Db, project: string, root: string): Map<string, number> {
  const v = getMeta(db, dirsKey(project, root));
  if (v === undefined) return new Map();
  try {
    const o = JSON.parse(v) as unknown;
    if (o === null || typeof o !== "object" || Array.isArray(o)) return new Map();
    return new Map(Object.entries(o as Record<string, unknown>).filter((e): e is [string, number] => typeof e[1] === "number"));
  } catch {
    return new Map();
  }
}

export function rootIndexedAt(db: Db, project: string, root: string): number | undefined {
  const v = getMeta(db, key(project, root));
  const n = v === undefined ? Number.NaN : Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/** The sources of a project stored under `root` (a range scan on the (project, path) index). */
export function sourcesUnderSql(root: string): { sql: string; params: string[] } {
  const base = root.endsWith(sep) ? root : root + sep;
  // Every path that starts with `base` sorts between `base` and `base` with its last character bumped.
  const hi = base.slice(0, -1) + String.fromCharCode(base.charCodeAt(base.length - 1) + 1);
  return { sql: "project = ? AND path >= ? AND path < ?", params: [base, hi] };
}
