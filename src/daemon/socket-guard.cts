import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmdirSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fallbackPrefix, hookSocketBeside, pointedSocket, privateTmpDir } from "./paths.cjs";

/**
 * Who may hold the daemon's socket: the user, in a directory no one else can write to (anyone
 * who may write there may put their own socket in its place, and would receive every prompt and
 * tool payload). The client checks before it sends anything, the daemon before it listens.
 * CommonJS and cheap (two lstat calls): the hook client runs it on every prompt.
 */

const octal = (mode: number) => (mode & 0o777).toString(8);
const codeOf = (err: unknown) => (err as NodeJS.ErrnoException).code;

/** Why a socket in `dir` might not be ours; undefined when it is safe. Throws what lstat throws (ENOENT: no daemon). */
function dirRefusal(dir: string, uid: number): string | undefined {
  const l = lstatSync(dir);
  if (l.isSymbolicLink() && l.uid !== uid) return `${dir} is a symlink of uid ${l.uid}, not ${uid}`;
  const s = l.isSymbolicLink() ? statSync(dir) : l;
  if (!s.isDirectory()) return `${dir} is not a directory`;
  if (s.uid !== uid) return `${dir} belongs to uid ${s.uid}, not ${uid}`;
  if ((s.mode & 0o022) !== 0) return `${dir} is writable by others (mode ${octal(s.mode)})`;
  return undefined;
}

/**
 * A data home of ours that others may write to (made under umask 002 by an older mem, or by hand)
 * is closed (0700) rather than refused: it is ours, it holds what was captured, and the daemon
 * could not start in it otherwise.
 */
function tighten(dir: string, uid: number): void {
  const s = lstatSync(dir);
  if (s.isDirectory() && s.uid === uid && (s.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

export type SocketCheck = { ok: true } | { ok: false; failure: NodeJS.ErrnoException } | { ok: false; refused: string };

/** Before a client connects: is the socket at `path` a socket of ours, in a directory only we can write to? */
export function checkSocket(path: string): SocketCheck {
  const uid = process.getuid?.();
  if (uid === undefined) return { ok: true }; // Windows: named pipes
  try {
    const why = dirRefusal(dirname(path), uid);
    if (why) return { ok: false, refused: why };
    const s = lstatSync(path);
    if (!s.isSocket()) return { ok: false, refused: `${path} is not a socket` };
    if (s.uid !== uid) return { ok: false, refused: `${path} belongs to uid ${s.uid}, not ${uid}` };
    return { ok: true };
  } catch (err) {
    return { ok: false, failure: err as NodeJS.ErrnoException }; // ENOENT: nothing listens
  }
}

/**
 * Before the daemon listens on `sock`: makes this user's directory under the temp directory when
 * the socket goes there (mode 0700; one that already exists must be a real directory of ours with
 * no permission for group or other, else it is refused, never reused), then checks the socket's
 * directory as the client will. Returns why it must not be used; undefined when it is safe.
 */
export function prepareSocketDir(sock: string): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const dir = dirname(sock);
  try {
    if (dir === privateTmpDir()) {
      try {
        mkdirSync(dir, { mode: 0o700 });
      } catch (err) {
        if (codeOf(err) !== "EEXIST") throw err;
      }
      const s = lstatSync(dir);
      if (s.isSymbolicLink()) return `${dir} is a symlink, not a directory of ours`;
      if (!s.isDirectory()) return `${dir} is not a directory`;
      if (s.uid !== uid) return `${dir} belongs to uid ${s.uid}, not ${uid}`;
      if ((s.mode & 0o077) !== 0) return `${dir} is open to others (mode ${octal(s.mode)}); remove it, or chmod 700 it if it is yours`;
    }
    else tighten(dir, uid);
    return dirRefusal(dir, uid);
  } catch (err) {
    return `${dir}: ${(err as Error).message}`;
  }
}

/** The main socket's name in a private directory of the daemon's own. */
export const FALLBACK_SOCKET = "mem.sock";

/**
 * When this user's directory under the temp directory is squatted (another user's, open to
 * others, a symlink, a file): a private directory of the daemon's own instead. The one an earlier
 * daemon made (named in the data home's socket.path) when it is still a directory of ours that no
 * one else may enter, else a new one from mkdtemp: `mem-<uid>-` and six random characters, made
 * 0700 and atomically, so no one can have made it first. Call only while holding the data home's
 * lock (the pointer is the running daemon's).
 */
export function fallbackSocket(home: string): { sock: string } | { error: string } {
  const uid = process.getuid?.();
  const prefix = fallbackPrefix();
  const previous = pointedSocket(home);
  if (previous && basename(previous) === FALLBACK_SOCKET && dirname(dirname(previous)) === dirname(prefix) && basename(dirname(previous)).startsWith(basename(prefix))) {
    try {
      const st = lstatSync(dirname(previous));
      if (st.isDirectory() && st.uid === uid && (st.mode & 0o077) === 0) return { sock: previous };
    } catch {
      // gone (a temp cleaner): make another
    }
  }
  let dir: string;
  try {
    dir = mkdtempSync(prefix);
  } catch (err) {
    return { error: `could not make a private directory ${prefix}XXXXXX: ${(err as Error).message}` };
  }
  const sock = join(dir, FALLBACK_SOCKET);
  if (Buffer.byteLength(hookSocketBeside(sock)) >= 100) {
    rmdirSync(dir);
    return { error: `${dir} is too long a path for a socket address (set TMPDIR to a shorter one)` };
  }
  const why = dirRefusal(dir, uid ?? -1);
  return why ? { error: why } : { sock };
}

/** What is at a socket directory's place, for `mem doctor`: nothing, a private directory of ours, or what squats it (owner, mode, kind). */
export function inspectSocketDir(dir: string): { state: "absent" } | { state: "ours" } | { state: "squatted"; uid: number; mode: string; kind: string } {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(dir);
  } catch {
    return { state: "absent" };
  }
  const uid = process.getuid?.();
  if (st.isDirectory() && st.uid === uid && (st.mode & 0o077) === 0) return { state: "ours" };
  const kind = st.isSymbolicLink() ? "a symlink" : st.isDirectory() ? "a directory" : "not a directory";
  return { state: "squatted", uid: st.uid, mode: octal(st.mode), kind };
}
