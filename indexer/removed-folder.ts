import { existsSync } from "node:fs";
import { dirname, join, sep } from "node:path";

/**
 * A recorded root that is gone is normally left as it was indexed (an unmounted disk, a folder
 * moved for a moment: a re-index would empty it). One case is a removal for real: a record folder
 * (docs/decisions, the team folder) that git removed from a repository that is still there: the
 * pull that deleted its last record took the folder with it. Its records are then forgotten like
 * any deleted record. This says whether `path` (absolute, missing) is such a folder: its path ends
 * with one of `folders`, and its nearest existing ancestor lies in a git work tree (a `.git` in it
 * or above it). `exists` is injected for tests.
 */
export function removedRecordFolder(path: string, folders: readonly string[], exists: (p: string) => boolean = existsSync): boolean {
  const p = path.split(sep).join("/").replace(/\/+$/, "").toLowerCase();
  const named = folders.some((f) => {
    const want = f.replace(/^\/+|\/+$/g, "").toLowerCase();
    return want !== "" && p.endsWith(`/${want}`);
  });
  if (!named || exists(path)) return false;
  let dir = dirname(path);
  while (!exists(dir)) {
    const up = dirname(dir);
    if (up === dir) return false;
    dir = up;
  }
  for (;;) {
    if (exists(join(dir, ".git"))) return true;
    const up = dirname(dir);
    if (up === dir) return false;
    dir = up;
  }
}
