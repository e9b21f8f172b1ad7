/**
 * What a file-system event under a watched root means (for ./watch.ts): nothing, a re-index of the
 * root, or a re-index after its directories are walked again. Which names matter: sources, the
 * ignore rules, and directories made, removed or renamed.
 */
import { existsSync, statSync } from "node:fs";
import { basename, join } from "node:path";

/** Names whose change can change the index: sources, and the ignore rules. */
const SOURCE = /\.(md|mdx|jsonl)$/i;

/** A root as its events are read. */
export interface WatchedRoot {
  path: string;
  /** The root is a file (its directory is watched). */
  file: boolean;
  /** The directories watched. */
  watchers: ReadonlyMap<string, unknown>;
}

/** "index": re-index the root; "rewalk": walk its directories again, then re-index it; "none": nothing. */
export type EventEffect = "none" | "index" | "rewalk";

/** The effect of fs.watch reporting `name` (null: unknown) in `dir`; paths in `skip` are never watched. */
export function eventEffect(r: WatchedRoot, dir: string, name: string | null, skip: ReadonlySet<string>): EventEffect {
  if (r.file) return name === null || name === basename(r.path) ? "index" : "none";
  if (name === null || name === ".gitignore") return "rewalk";
  if (SOURCE.test(name)) return "index";
  const full = join(dir, name);
  if (skip.has(full)) return "none";
  // A directory made, removed or renamed changes what is watched; other files do not matter.
  let isDir = r.watchers.has(full) || (name === basename(dir) && !existsSync(dir));
  if (!isDir) {
    try {
      isDir = statSync(full).isDirectory();
    } catch {
      // gone already: a file (swap, temp) or a directory removed at once (its own watcher says so)
    }
  }
  return isDir ? "rewalk" : "none";
}
