import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { realOr, systemPath, within } from "../src/util/walls.cjs";

/**
 * Where a walk of a root may go (the indexer's walk and the daemon's watch alike): inside the
 * root's real path. A symbolic link that leads out of it is not followed, unless the root is
 * listed in `index.followExternalLinks`; even then never into /proc, /sys or /dev, nor to a folder
 * that holds the root (`/`, the home folder above it). Pure but for `followsLinks`'s realpath.
 */
export interface Walls {
  /** The root's real path. */
  root: string;
  /** The real path of what is being walked now: the root, or a folder outside it an allowed link led to. */
  wall: string;
  /** The root is listed in index.followExternalLinks. */
  follow: boolean;
}

export type LinkVerdict = { follow: true; wall: string } | { follow: false; why: string };

/** Whether a link whose target's real path is `real`, met while walking inside `w`, is followed, and the wall beyond it. */
export function judgeLink(real: string, w: Walls): LinkVerdict {
  if (within(real, w.root) || within(real, w.wall)) return { follow: true, wall: w.wall };
  if (systemPath(real)) return { follow: false, why: `a link to ${real} (the system's own files); never followed` };
  if (within(w.root, real)) return { follow: false, why: `a link to ${real}, which holds the root ${w.root}; never followed` };
  if (!w.follow) return { follow: false, why: `a link to ${real}, outside the root ${w.root}; not followed (list the root in index.followExternalLinks to follow links out of it)` };
  return { follow: true, wall: real };
}

/** `~/x` as the user's home folder joined with `x`; other paths as they are. */
export function expandHome(p: string, home: string = homedir()): string {
  return p === "~" ? home : p.startsWith("~/") ? join(home, p.slice(2)) : p;
}

/** Does the root (a real path) follow links out of it: is it, or a folder holding it, listed in `entries`? */
export function followsLinks(realRoot: string, entries: readonly string[]): boolean {
  return entries.some((e) => {
    return within(realRoot, realOr(resolve(expandHome(e)))); // not there: compared as written
  });
}
