import { lstatSync } from "node:fs";
import { join } from "node:path";

/**
 * Whether `dir` holds a `.git` (a directory, or a file for a worktree or submodule) that makes it a
 * repository of this user's: one owned by this user or by root. A `.git` another account planted
 * above the user's folders (`/tmp/.git`) would make that account's folder the project, feed its
 * decision records into the user's briefing and let its git config run commands as the user: it
 * does not count. Not a link: a `.git` is never followed out. Windows (no uids): any `.git`.
 */
export function ownGitAt(dir: string, uid: number | undefined = process.getuid?.()): boolean {
  try {
    const st = lstatSync(join(dir, ".git"));
    if (!st.isDirectory() && !st.isFile()) return false;
    return uid === undefined || st.uid === uid || st.uid === 0;
  } catch {
    return false;
  }
}

/** The git options every git run of mem passes: no filesystem monitor a repository's config names is ever started. */
export const SAFE_GIT_CONFIG: readonly string[] = ["-c", "core.fsmonitor=false"];
