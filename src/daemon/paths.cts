import { lstatSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { readRegular } from "../util/read-regular.cjs";

/** FNV-1a, 32 bits: a short stable tag for a path (node:crypto would cost the hook its load time). */
function tagOf(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}

/** This user's directory for sockets under the shared temp directory; the daemon makes it (0700) and checks it is ours alone. */
export const privateTmpDir = (): string => join(tmpdir(), `mem-${process.getuid?.() ?? "user"}`);

/** Is `dir` a real directory of ours that no one else may enter? ($XDG_RUNTIME_DIR is, when set up as the spec says.) */
function ownPrivateDir(dir: string): boolean {
  try {
    const s = lstatSync(dir);
    return s.isDirectory() && s.uid === process.getuid?.() && (s.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/**
 * The daemon's Unix socket (a named pipe on Windows), one per data home, always in a directory
 * only this user can write to: the data home when the path fits in a socket address (~104
 * bytes), else $XDG_RUNTIME_DIR when it is absolute and private, else this user's own directory
 * under the temp directory. Never a guessable name in a shared directory. Kept tiny: the hook
 * client computes it on every prompt (one lstat, and only for a long data home path). This is
 * the usual place: when that directory is squatted the daemon listens in one of its own instead
 * and says so in socket.path (`pointedSocket`; src/daemon/socket-place.ts).
 */
export function socketPath(home: string, env: NodeJS.ProcessEnv = process.env, platform: string = process.platform): string {
  const tag = tagOf(home);
  if (platform === "win32") return `\\\\.\\pipe\\mem-${tag}`;
  const p = join(home, "mem.sock");
  if (Buffer.byteLength(p) < 100) return p;
  const run = env.XDG_RUNTIME_DIR;
  if (run && isAbsolute(run) && ownPrivateDir(run)) return join(run, `mem-${tag}.sock`);
  return join(privateTmpDir(), `${tag}.sock`);
}

export const lockPath = (home: string) => join(home, "daemon.lock");

/**
 * Where the daemon of a data home whose path is too long for a socket says it listens: one line,
 * its main socket's path. Written whenever that socket is not in the data home (XDG_RUNTIME_DIR,
 * this user's temp directory, or the private directory of its own it makes when that one is
 * squatted, `fallbackSocketDir`), removed when it stops. The clients read it only for such a data
 * home: the Node client when the usual place is refused or empty, the curl client always.
 */
export const SOCKET_POINTER = "socket.path";
export const pointerPath = (home: string) => join(home, SOCKET_POINTER);

/** The socket path named in the data home's socket.path: absolute, short enough for a socket, a `.sock`; else undefined. Never blocks (a FIFO there is refused). */
export function pointedSocket(home: string): string | undefined {
  const read = readRegular(pointerPath(home), 1024);
  if (!read.ok) return undefined;
  const line = read.data.toString("utf8").split("\n")[0] ?? "";
  return isAbsolute(line) && line.endsWith(".sock") && !line.includes("\0") && Buffer.byteLength(hookSocketBeside(line)) < 100 ? line : undefined;
}

/** The curl client's HTTP socket beside a main socket outside the data home: `….sock` → `….hook.sock`. */
export const hookSocketBeside = (sock: string): string => sock.replace(/\.sock$/, ".hook.sock");

/** The prefix of the private socket directories the daemon makes for itself under the temp directory (mkdtemp adds six random characters). */
export const fallbackPrefix = (): string => `${privateTmpDir()}-`;

/**
 * Set in the environment of a daemon a hook starts for next time. Such a daemon does not make its
 * data home: one that is gone by the time it starts (removed just after the hook ran) stays gone,
 * instead of coming back empty with a daemon running on the defaults for its idle time.
 */
export const SERVE_FOR_HOOK = "MEM_SERVE_FOR_HOOK";
