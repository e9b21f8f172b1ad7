import { chmodSync, lstatSync, mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { noteClosed } from "./closed-dirs.cjs";

/**
 * Creates the data home readable by its owner only (0700): it holds what was captured from the
 * user's sessions. Its parents are made as usual. An existing directory must be the user's own
 * (a data home another user made, in a shared place, would let them read what is captured and
 * plant files for mem to write through): it is refused otherwise, and one of ours that was opened to
 * others (`chmod 755`, a loose umask) is closed again (0700): it holds what was captured. CommonJS
 * and tiny: the hook entry's log uses it.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dirname(dir), { recursive: true });
  try {
    mkdirSync(dir, { mode: 0o700 });
    return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  checkOwnDir(dir);
}

/** Throws unless `dir` is a directory of this user's (a symlink to one is fine when the link is this user's or root's); removes all group and other permission. */
export function checkOwnDir(dir: string): void {
  const uid = process.getuid?.();
  if (uid === undefined) return; // Windows: ACLs, not modes
  const st = statSync(dir);
  if (!st.isDirectory()) throw new Error(`${dir} is not a directory`);
  const link = lstatSync(dir);
  const owner = st.uid !== uid ? st.uid : link.isSymbolicLink() && link.uid !== uid && link.uid !== 0 ? link.uid : undefined;
  if (owner !== undefined) {
    throw new Error(`${dir} belongs to another user (uid ${owner}, you are ${uid}): mem keeps what it captures only in a directory of your own; remove it or set MEM_HOME`);
  }
  if ((st.mode & 0o077) !== 0) {
    chmodSync(dir, st.mode & 0o700);
    noteClosed(dir, st.mode);
  }
}
