import { closeSync, lstatSync, openSync, readSync, statSync, type Stats } from "node:fs";
import { basename } from "node:path";

/**
 * The SQLite store cannot be used as it is: not a SQLite file, truncated to nothing, or pages
 * SQLite reports as malformed. `mem doctor --repair` salvages what it can and rebuilds the rest.
 * The reason is in plain words (no SQLite error codes needed to understand it).
 */
export class StoreDamagedError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
    /** damaged: pages SQLite cannot read (salvage them); lost: missing, emptied, replaced or put back older (restore a snapshot). */
    readonly kind: "damaged" | "lost" = "damaged",
  ) {
    super(kind === "lost" ? lostMessage(path, reason) : `the memory store ${path} is damaged: ${reason}; run \`mem doctor --repair\``);
    this.name = "StoreDamagedError";
  }
}

/** The one paragraph a lost store is refused with: what was found, that nothing was written over it, and the ways on. */
export function lostMessage(path: string, reason: string): string {
  const replaced = /another store|older copy/.test(reason) ? " If you put this file there on purpose, `mem restore --adopt` keeps it." : "";
  return `the memory store ${path} was lost: ${reason}. mem did not create a new store over it. Bring back the newest snapshot with \`mem restore latest\` (\`mem restore --list\` shows them), or salvage what is still readable with \`mem doctor --repair\`; to start over with an empty store on purpose, run \`mem restore --fresh\` (the old file is moved aside, never deleted).${replaced}`;
}

/** A 0-byte store younger than this may be one another process is creating right now. */
export const EMPTY_GRACE_MS = 5_000;

const HEADER = Buffer.from("SQLite format 3\0", "latin1");

/** SQLite's own words for a damaged file (better-sqlite3's SqliteError codes). */
export function isCorruptionCode(code: unknown): boolean {
  return typeof code === "string" && (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB");
}

/** True for a StoreDamagedError, and for SQLite's corruption errors met after the store was opened. */
export function isStoreDamage(err: unknown): boolean {
  return err instanceof StoreDamagedError || (err instanceof Error && isCorruptionCode((err as { code?: unknown }).code));
}

/** The reason in plain words for an error `isStoreDamage` accepts. */
export function damageReason(err: unknown): string {
  if (err instanceof StoreDamagedError) return err.reason;
  const e = err as { code?: unknown; message?: string };
  return e.code === "SQLITE_NOTADB" ? "it is not a SQLite database" : `SQLite reports it malformed (${e.message ?? "corrupt"})`;
}

const sizeOf = (path: string): number => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

/**
 * Why the existing file at `path` cannot be a usable store, before SQLite opens it (SQLite takes
 * a 0-byte file for a new empty database and the migrations would silently recreate the schema);
 * undefined when it looks like one, or does not exist.
 */
export function storeFileProblem(path: string, now = Date.now()): string | undefined {
  let st: Stats;
  try {
    st = statSync(path);
  } catch {
    return undefined; // a fresh data home
  }
  if (!st.isFile()) return "it is not a regular file";
  for (const side of ["-wal", "-shm"]) {
    try {
      const x = lstatSync(path + side);
      if (!x.isFile()) return `${basename(path)}${side} beside it is not a regular file (${x.isDirectory() ? "a directory" : x.isSymbolicLink() ? "a symlink" : "a special file"})`;
    } catch {
      // absent: fine
    }
  }
  if (st.size === 0) {
    // Only a WAL can hold the data of a 0-byte main file, and only for a moment after creation.
    if (sizeOf(`${path}-wal`) > 0 || now - st.mtimeMs < EMPTY_GRACE_MS) return undefined;
    return "the file is empty (0 bytes): it was truncated, and everything it held is gone unless it can be rebuilt";
  }
  const head = Buffer.alloc(HEADER.length);
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    readSync(fd, head, 0, head.length, 0);
  } catch {
    return undefined; // unreadable (permissions): SQLite says why, and that is not damage
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (st.size < 100 || !head.equals(HEADER)) return `it is not a SQLite database (its first bytes are not SQLite's header; ${st.size} bytes)`;
  return undefined;
}

/** SQLite's and the system's words for a store that is there but cannot be written just now: locked, busy, a disk error, a full disk. */
const UNAVAILABLE_SQLITE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|PROTOCOL|NOMEM)/;
const UNAVAILABLE_SYSTEM = new Set(["ENOSPC", "EDQUOT", "EIO", "EROFS", "EBUSY", "EMFILE", "ENFILE", "EAGAIN"]);

/**
 * The store needs a migration too long for a hook's deadline (a text index made again); the
 * daemon or the next command makes it. The store is fine and untouched: a capture waits in the spool.
 */
export class MigrationDeferredError extends Error {
  readonly code = "MEM_MIGRATION_DEFERRED";
  constructor(
    readonly from: number,
    readonly to: number,
  ) {
    super(`the store needs a long upgrade (schema ${from} → ${to}); left to the daemon or the next mem command`);
    this.name = "MigrationDeferredError";
  }
}

/** True for an error that leaves a capture unwritten though the store may be fine: it is kept in the spool and written later. */
export function isStoreUnavailable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && (UNAVAILABLE_SQLITE.test(code) || UNAVAILABLE_SYSTEM.has(code) || code === "MEM_MIGRATION_DEFERRED");
}
