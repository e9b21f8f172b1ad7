import type { Db } from "./db.js";
import { compactText } from "./memories.js";

/**
 * SQLite's share of the weekly compaction: the FTS5 index merged into one segment (`optimize`),
 * the file rewritten without its free pages when they are worth it (VACUUM: at least a tenth of
 * the file and 1 MiB), SQLite's own statistics refreshed, and the WAL truncated.
 */
export interface SqliteCompaction {
  /** Bytes of free pages before (what VACUUM gives back). */
  freeBytes: number;
  vacuumed: boolean;
}

const VACUUM_MIN_BYTES = 1024 * 1024;
const VACUUM_MIN_FRACTION = 0.1;

export function compactSqlite(db: Db): SqliteCompaction {
  compactText(db); // FTS5 optimize (secure_delete on), WAL truncated
  const pageSize = db.pragma("page_size", { simple: true }) as number;
  const pages = db.pragma("page_count", { simple: true }) as number;
  const free = db.pragma("freelist_count", { simple: true }) as number;
  const freeBytes = free * pageSize;
  const vacuumed = freeBytes >= VACUUM_MIN_BYTES && free >= pages * VACUUM_MIN_FRACTION;
  if (vacuumed) db.exec("VACUUM");
  db.pragma("optimize");
  db.pragma("wal_checkpoint(TRUNCATE)");
  return { freeBytes, vacuumed };
}
