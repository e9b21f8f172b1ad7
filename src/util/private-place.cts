import { chmodSync, closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readSync, type Stats } from "node:fs";
import { noteClosed } from "./closed-dirs.cjs";

/**
 * The private places mem keeps outside its data home's own checks (the fallback spool under the
 * temp directory, snapshots, the explorer's files): another account may have made the path first,
 * or the user may have loosened it. A directory is made 0700; one that exists must be a real
 * directory (never a link) of this user's: a loosened one of ours is closed again (0700), anyone
 * else's is refused. A file is read without following a link, and only when the descriptor opened
 * is a regular file of this user's that no one else may write. Pure but for the file system;
 * CommonJS and tiny: the hook entry bundles it.
 */

const octal = (mode: number) => (mode & 0o777).toString(8);
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** This process's uid; undefined on Windows (ACLs, not modes: nothing is checked there). */
const myUid = (): number | undefined => process.getuid?.();

export type PlaceVerdict = { ok: true; tightened?: string } | { ok: false; why: string };

/** Why what `lstat` found may not be used as a private directory of `uid`'s; undefined when it may (maybe after closing it). */
export function dirRefusal(path: string, st: Stats, uid: number): string | undefined {
  if (st.isSymbolicLink()) return `${path} is a symlink (uid ${st.uid}), not a directory of yours`;
  if (!st.isDirectory()) return `${path} is not a directory`;
  if (st.uid !== uid) return `${path} belongs to another user (uid ${st.uid}, you are ${uid}), mode ${octal(st.mode)}`;
  return undefined;
}

/** Why what `fstat`/`lstat` found may not be read as a private file of `uid`'s; undefined when it may. */
export function fileRefusal(path: string, st: Stats, uid: number): string | undefined {
  if (st.isSymbolicLink()) return `${path} is a symlink, not a file of yours`;
  if (!st.isFile()) return `${path} is not a regular file`;
  if (st.uid !== uid) return `${path} belongs to another user (uid ${st.uid}, you are ${uid})`;
  if ((st.mode & 0o022) !== 0) return `${path} is writable by other users (mode ${octal(st.mode)})`;
  return undefined;
}

/**
 * Makes `dir` a private directory (0700; its parent must exist), or checks the one there: never a
 * link, never another user's; a loosened one of ours is closed (`tightened` says from what mode).
 * Never throws.
 */
export function privateDir(dir: string): PlaceVerdict {
  const uid = myUid();
  try {
    mkdirSync(dir, { mode: 0o700 });
    return { ok: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") return { ok: false, why: `${dir}: ${(err as Error).message}` };
  }
  if (uid === undefined) return { ok: true };
  try {
    const st = lstatSync(dir);
    const why = dirRefusal(dir, st, uid);
    if (why) return { ok: false, why };
    if ((st.mode & 0o077) === 0) return { ok: true };
    chmodSync(dir, 0o700);
    noteClosed(dir, st.mode);
    return { ok: true, tightened: `${dir} was open to other users (mode ${octal(st.mode)}); closed to 700` };
  } catch (err) {
    return { ok: false, why: `${dir}: ${(err as Error).message}` };
  }
}

/** What is at a private directory's place, for `mem doctor`, without changing it: absent, ours (private or `loose`), or refused (why). */
export function inspectDir(dir: string): { state: "absent" } | { state: "ours"; loose: boolean } | { state: "refused"; why: string } {
  const uid = myUid();
  let st: Stats;
  try {
    st = lstatSync(dir);
  } catch {
    return { state: "absent" };
  }
  if (uid === undefined) return { state: "ours", loose: false };
  const why = dirRefusal(dir, st, uid);
  return why ? { state: "refused", why } : { state: "ours", loose: (st.mode & 0o077) !== 0 };
}

/** Whether a file of this user's (not a link, owned by us) is at `path`: cheap (one lstat), for checks on every hook. */
export function ownFileThere(path: string): boolean {
  try {
    const st = lstatSync(path);
    const uid = myUid();
    return st.isFile() && (uid === undefined || st.uid === uid);
  } catch {
    return false;
  }
}

export type PrivateRead = { ok: true; data: Buffer } | { ok: false; absent: boolean; why: string };

/**
 * Reads a private file of this user's, of at most `maxBytes`: opened without following a link and
 * without blocking, then judged on what was opened (a regular file, ours, writable by no one
 * else). Anything else is refused with why. Never throws.
 */
export function readPrivate(path: string, maxBytes: number): PrivateRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, absent: true, why: `${path}: no such file` };
    if (code === "ELOOP") return { ok: false, absent: false, why: `${path} is a symlink, not a file of yours` };
    return { ok: false, absent: false, why: `${path}: ${(err as Error).message}` };
  }
  try {
    const st = fstatSync(fd);
    const uid = myUid();
    const why = uid === undefined ? (st.isFile() ? undefined : `${path} is not a regular file`) : fileRefusal(path, st, uid);
    if (why) return { ok: false, absent: false, why };
    if (st.size > maxBytes) return { ok: false, absent: false, why: `${path} is too large (${st.size} bytes, limit ${maxBytes})` };
    const buf = Buffer.alloc(st.size);
    let got = 0;
    while (got < st.size) {
      const n = readSync(fd, buf, got, st.size - got, got);
      if (n <= 0) break;
      got += n;
    }
    return { ok: true, data: buf.subarray(0, got) };
  } catch (err) {
    return { ok: false, absent: false, why: `${path}: ${(err as Error).message}` };
  } finally {
    closeSync(fd);
  }
}
