/**
 * The int8 rows of a code copy (./code-rows.ts) kept in a private file, not in the process's
 * memory: the copy reads back only the few hundred rows it rescores last (positioned reads), so the
 * rows' pages sit in the kernel's page cache, shared and reclaimable, not in the daemon's resident
 * set. The file is the process's own: made new at each load (0600, in a 0700 folder of the data
 * home, never opened through a link, never one that exists), changed in place with the copy, and
 * removed when the copy is let go. One left by a process that died is removed by the next one.
 */
import { closeSync, constants, fstatSync, ftruncateSync, lstatSync, openSync, readdirSync, readSync, rmSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { privateDir } from "../util/private-place.cjs";

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
/** `rows-<pid>-<n>.i8`: the process's pid and its count of files made. */
const NAME = /^rows-(\d+)-\d+\.i8$/;
let made = 0;
/** This process's open row files: each is removed when the process exits, however it exits (but a kill). */
const open = new Set<RowFile>();
let exitHook = false;

/** Whether process `pid` is alive (signal 0: nothing sent). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the row files of processes no longer running (regular files only: a link is left alone),
 * and those named with this process's pid that are not its own (a dead process's, whose pid came back).
 */
function sweep(dir: string): void {
  const ours = new Set([...open].map((f) => f.path));
  for (const name of readdirSync(dir)) {
    const m = NAME.exec(name);
    const pid = Number(m?.[1]);
    if (!m || ours.has(join(dir, name)) || (pid !== process.pid && alive(pid))) continue;
    const path = join(dir, name);
    try {
      if (lstatSync(path).isFile()) unlinkSync(path);
    } catch {
      // gone meanwhile
    }
  }
}

export class RowFile {
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly fd: number,
    /** Bytes a row. */
    readonly rowBytes: number,
  ) {}

  /**
   * A new empty file in `dir` (made 0700 if absent; refused when it is a link or another user's).
   * Throws with why when it cannot be made: the caller keeps the rows in memory instead.
   */
  static create(dir: string, rowBytes: number): RowFile {
    const place = privateDir(dir);
    if (!place.ok) throw new Error(place.why);
    sweep(dir);
    const path = join(dir, `rows-${process.pid}-${++made}.i8`);
    // O_EXCL: never a file (or a link) that is there already; O_NOFOLLOW for good measure.
    const fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) throw new Error(`${path} is not a regular file`);
      // Where modes are not POSIX ones (Windows reports 0666 for any writable file) the folder's check above is what holds.
      if (typeof process.getuid === "function" && (st.mode & 0o077) !== 0) throw new Error(`${path} was made open to others (mode ${(st.mode & 0o777).toString(8)})`);
    } catch (err) {
      closeSync(fd);
      rmSync(path, { force: true });
      throw err;
    }
    const file = new RowFile(path, fd, rowBytes);
    open.add(file);
    if (!exitHook) {
      exitHook = true;
      process.on("exit", () => {
        for (const f of open) f.close();
      });
    }
    return file;
  }

  /** Throws once the file is closed: its descriptor's number may be another file's by now. */
  private live(): void {
    if (this.closed) throw new Error(`${this.path}: the row file is closed`);
  }

  /** Writes `count` rows from `bytes` at row `row`. */
  write(row: number, bytes: Uint8Array | Int8Array, count: number): void {
    this.live();
    const len = count * this.rowBytes;
    let done = 0;
    while (done < len) done += writeSync(this.fd, bytes, done, len - done, row * this.rowBytes + done);
  }

  /** Reads `count` rows from row `row` into `into` at byte `at`. */
  read(row: number, into: Uint8Array | Int8Array, at: number, count = 1): void {
    this.live();
    const len = count * this.rowBytes;
    let done = 0;
    while (done < len) {
      const n = readSync(this.fd, into, at + done, len - done, row * this.rowBytes + done);
      if (n <= 0) throw new Error(`${this.path}: row ${row} is past the end`);
      done += n;
    }
  }

  /** Moves rows [from, from + count) down to `to` (< from), a block at a time. */
  move(from: number, to: number, count: number, scratch: Uint8Array): void {
    const per = Math.max(1, Math.floor(scratch.length / this.rowBytes));
    for (let k = 0; k < count; k += per) {
      const n = Math.min(per, count - k);
      this.read(from + k, scratch, 0, n);
      this.write(to + k, scratch, n);
    }
  }

  /** Cuts the file to `rows` rows (after a compaction: the rows past them are gone). */
  truncate(rows: number): void {
    this.live();
    ftruncateSync(this.fd, rows * this.rowBytes);
  }

  /** Closes and removes the file. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    open.delete(this);
    try {
      closeSync(this.fd);
    } finally {
      rmSync(this.path, { force: true });
    }
  }
}
