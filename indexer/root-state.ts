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
