/**
 * The stores' measures at a glance (the explorer's health page): file sizes, what a project and
 * the whole store hold, each vector table's count, and a project's vector coverage. Cheap on a
 * large store: counts come from the counts the triggers keep (chunk_counts, vec_counts) or from
 * partial indexes, never from reading LanceDB; the vector folder's size is a bounded walk of its
 * files, kept a minute.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Db } from "../store/db.js";
import { EXPLICIT_KINDS } from "../service/types.js";

/** A number for one project and for the whole store. */
export interface Both {
  project: number;
  all: number;
}

export interface StoreCounts {
  chunks: Both;
  /** Live events: everything captured or remembered (tool events too), not forgotten. */
  events: Both;
  /** Live memories of the explicit kinds (decision, rejected, learned, preference, task, note). */
  memories: Both;
  sources: Both;
}

const KINDS_SQL = EXPLICIT_KINDS.map(() => "?").join(", ");

export function storeCounts(db: Db, project: string): StoreCounts {
  const one = (sql: string, ...args: unknown[]) => (db.prepare(sql).pluck().get(...args) as number | null) ?? 0;
  return {
    chunks: { project: one("SELECT n FROM chunk_counts WHERE project = ?", project), all: one("SELECT sum(n) FROM chunk_counts") },
    events: {
      project: one("SELECT count(*) FROM events INDEXED BY events_live WHERE project = ? AND deleted_at IS NULL", project),
      all: one("SELECT count(*) FROM events INDEXED BY events_live WHERE deleted_at IS NULL"),
    },
    memories: {
      project: one(`SELECT count(*) FROM events INDEXED BY events_live WHERE project = ? AND type IN (${KINDS_SQL}) AND deleted_at IS NULL`, project, ...EXPLICIT_KINDS),
      all: one(`SELECT count(*) FROM events INDEXED BY events_live WHERE type IN (${KINDS_SQL}) AND deleted_at IS NULL`, ...EXPLICIT_KINDS),
    },
    sources: { project: one("SELECT count(*) FROM sources WHERE project = ?", project), all: one("SELECT count(*) FROM sources") },
  };
}

/** A file's size in bytes; 0 when it is not there. */
export function fileBytes(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** SQLite's files: the database and its write-ahead log. */
export const sqliteBytes = (sqlite: string): { db: number; wal: number } => ({ db: fileBytes(sqlite), wal: fileBytes(`${sqlite}-wal`) });

/** Files a folder walk looks at, at most: past it, the size is a lower bound. */
export const MAX_WALK_FILES = 20_000;
const WALK_TTL_MS = 60_000;
const walked = new Map<string, { at: number; size: FolderSize }>();

export interface FolderSize {
  bytes: number;
  files: number;
  /** The walk stopped at MAX_WALK_FILES: `bytes` is at least this. */
  partial: boolean;
  /** The folder is not there. */
  absent: boolean;
}

/** A folder's size (its files, recursively, links not followed), walked at most once a minute. */
export function folderBytes(dir: string, now: number): FolderSize {
  const kept = walked.get(dir);
  if (kept && now - kept.at < WALK_TTL_MS) return kept.size;
  const size: FolderSize = { bytes: 0, files: 0, partial: false, absent: false };
  const stack = [dir];
  while (stack.length > 0 && !size.partial) {
    const d = stack.pop()!;
    let names: import("node:fs").Dirent[];
    try {
      names = readdirSync(d, { withFileTypes: true });
    } catch {
      if (d === dir) size.absent = true;
      continue;
    }
    for (const e of names) {
      const p = join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.isFile()) {
        size.bytes += fileBytes(p);
        if (++size.files >= MAX_WALK_FILES) {
          size.partial = true;
          break;
        }
      }
    }
  }
  walked.set(dir, { at: now, size });
  return size;
}

/** Each vector table SQLite records, with the vectors it holds in all and in `project`. */
export function vectorTables(db: Db, project: string): { name: string; provider: string; model: string; dims: number; vectors: Both }[] {
  const rows = db.prepare("SELECT name, provider, model, dims FROM vec_tables ORDER BY created_at, name").all() as { name: string; provider: string; model: string; dims: number }[];
  const all = db.prepare("SELECT coalesce(sum(n), 0) FROM vec_counts WHERE table_name = ?").pluck();
  const one = db.prepare("SELECT n FROM vec_counts WHERE table_name = ? AND project = ?").pluck();
  return rows.map((r) => ({ ...r, vectors: { all: all.get(r.name) as number, project: (one.get(r.name, project) as number | undefined) ?? 0 } }));
}

/** Nearest-rank percentile (`p` from 0 to 1) of numbers sorted ascending; undefined for none. */
export function percentile(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[i];
}
