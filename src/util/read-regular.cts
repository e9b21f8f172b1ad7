import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync, type Stats } from "node:fs";
import { systemPath, within } from "./walls.cjs";

/**
 * Reads files mem does not control (notes, ignore files, config.json, transcripts) without ever
 * blocking on what they are: a FIFO, a device (`/dev/zero`, a terminal), a socket or a directory
 * is refused with a reason instead of opened for a read that never ends. The open is
 * non-blocking (opening a FIFO with no writer would otherwise wait forever, timers included),
 * the descriptor is checked with fstat (a file swapped after a stat is caught too), and at most
 * `maxBytes + 1` bytes are ever read. With `within` (a note under an indexed root), the file's real
 * path must lie under that real path, before the open and again after it, on the same inode: a
 * link swapped in after the walk, or a folder turned into a link, cannot lead the read outside.
 * CommonJS and tiny: the hook entry bundles it.
 */

export type Refusal = {
  ok: false;
  /** absent: no such file (ENOENT, ENOTDIR); special: not a regular file; too-large: over the cap; outside: its real path leaves `within`; unreadable: any other error. */
  why: "absent" | "special" | "too-large" | "outside" | "unreadable";
  /** Says what the file is or what failed, e.g. "not a regular file (a FIFO)", "too large (3000000 bytes, limit 1048576)". */
  reason: string;
  /** For too-large: the size found (at least maxBytes + 1). */
  size?: number;
};

export type Opened = { ok: true; fd: number; size: number } | Refusal;
export type RegularRead = { ok: true; data: Buffer } | Refusal;

export interface ReadOptions {
  /** A real path the file's real path must be, or lie under (and never under /proc, /sys, /dev). */
  within?: string;
}

const O_NONBLOCK = constants.O_NONBLOCK ?? 0; // undefined on Windows, where opening never blocks on a FIFO

/** What a non-regular file is, for messages: "a FIFO", "a character device", ... */
export function fileType(st: Stats): string {
  if (st.isFIFO()) return "a FIFO";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  if (st.isDirectory()) return "a directory";
  return "not a file";
}

function failed(err: unknown): Refusal {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, why: "absent", reason: "no such file" };
  return { ok: false, why: "unreadable", reason: `unreadable (${code ?? (err as Error).message})` };
}

const special = (st: Stats): Refusal => ({ ok: false, why: "special", reason: `not a regular file (${fileType(st)})` });

/** Why the real path `real` may not be read for `within`, or undefined when it may. */
function walled(real: string, wall: string): Refusal | undefined {
  if (systemPath(real)) return { ok: false, why: "special", reason: `a link into ${real} (the system's own files); never read` };
  if (!within(real, wall)) return { ok: false, why: "outside", reason: `leads outside ${wall} (to ${real}); not read` };
  return undefined;
}

/**
 * Opens `path` for reading only if it is a regular file (symlinks to one are fine, inside
 * `opts.within` when given). The caller owns the descriptor and closes it. Never blocks, never throws.
 */
export function openRegular(path: string, opts: ReadOptions = {}): Opened {
  const wall = opts.within;
  try {
    // A stat first: a device is never opened at all (opening some has side effects).
    const st = statSync(path);
    if (!st.isFile()) return special(st);
    if (wall !== undefined) {
      const refused = walled(realpathSync(path), wall); // outside: not even opened
      if (refused) return refused;
    }
  } catch (err) {
    return failed(err);
  }
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | O_NONBLOCK);
  } catch (err) {
    return failed(err);
  }
  try {
    const st = fstatSync(fd); // what was opened, whatever the path pointed at a moment ago
    if (!st.isFile()) {
      closeSync(fd);
      return special(st);
    }
    if (wall !== undefined) {
      // What was opened is the file a real path inside the wall names now: a swap between the
      // check above and the open shows as another real path or another inode.
      const real = realpathSync(path);
      const now = statSync(real);
      const refused = walled(real, wall) ?? (now.dev !== st.dev || now.ino !== st.ino ? { ok: false, why: "outside", reason: "replaced while it was opened; not read" } as Refusal : undefined);
      if (refused) {
        closeSync(fd);
        return refused;
      }
    }
    return { ok: true, fd, size: st.size };
  } catch (err) {
    closeSync(fd);
    return failed(err);
  }
}

const tooLarge = (size: number, maxBytes: number): Refusal => ({ ok: false, why: "too-large", reason: `too large (${size} bytes, limit ${maxBytes})`, size });

/** Reads all of a regular file of at most `maxBytes` bytes; anything else is refused with a reason. Never blocks, never throws. */
export function readRegular(path: string, maxBytes: number, opts: ReadOptions = {}): RegularRead {
  const opened = openRegular(path, opts);
  if (!opened.ok) return opened;
  const { fd, size } = opened;
  try {
    if (size > maxBytes) return tooLarge(size, maxBytes);
    // Read to the end, which may be past the size fstat gave (a growing file), but never more than one byte over the cap.
    const parts: Buffer[] = [];
    let got = 0;
    for (;;) {
      const want = Math.min(Math.max(size - got + 1, 16_384), maxBytes + 1 - got);
      if (want <= 0) break;
      const buf = Buffer.allocUnsafe(want);
      const n = readSync(fd, buf, 0, want, got);
      if (n <= 0) break;
      parts.push(buf.subarray(0, n));
      got += n;
    }
    if (got > maxBytes) return tooLarge(got, maxBytes);
    return { ok: true, data: parts.length === 1 ? parts[0]! : Buffer.concat(parts, got) };
  } catch (err) {
    return failed(err);
  } finally {
    closeSync(fd);
  }
}
