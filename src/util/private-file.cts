import { closeSync, constants, fchmodSync, fstatSync, openSync, renameSync, rmSync, writeSync } from "node:fs";

/**
 * Writes a file of the data home (log, marker, spool) readable by its owner only, never through
 * a symlink (O_NOFOLLOW: a link planted where the file should be is refused, not written through)
 * and only into a regular file of this user's (a FIFO there fails instead of blocking; another
 * user's file planted there is refused, never written into). Throws what open throws.
 */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

export function writePrivate(path: string, text: string, how: "append" | "replace"): void {
  const flags = constants.O_WRONLY | constants.O_CREAT | NOFOLLOW | NONBLOCK | (how === "append" ? constants.O_APPEND : constants.O_TRUNC);
  const fd = openSync(path, flags, 0o600);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error(`${path} is not a regular file`);
    const uid = process.getuid?.();
    if (uid !== undefined && st.uid !== uid) throw new Error(`${path} belongs to another user (uid ${st.uid}, you are ${uid}); not written`);
    if (process.platform !== "win32" && (st.mode & 0o077) !== 0) fchmodSync(fd, 0o600);
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/** Replaces a file whole or not at all (a private temporary file renamed over it). Throws what the write or the rename throws. */
export function replacePrivate(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writePrivate(tmp, text, "replace");
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
