import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { HomePaths } from "../../config/paths.cjs";
import type { VectorStore } from "../../store/vectors.js";

/**
 * LanceDB's share of the weekly compaction, and what the stores take on disk. Each vector table is
 * compacted (small fragments merged, deleted rows dropped from the files) and every version but the
 * current one removed (`optimize({cleanupOlderThan: now})`, LanceDB 0.37's API): a version is a
 * snapshot that still holds whatever was deleted since, a purged memory's vector included.
 */
export interface TableCompaction {
  table: string;
  rows: number;
  versionsBefore: number;
  versionsAfter: number;
  fragmentsRemoved: number;
  fragmentsAdded: number;
  filesRemoved: number;
  filesAdded: number;
  oldVersionsRemoved: number;
  bytesRemoved: number;
}

export interface StoreSize {
  /** mem.sqlite with its -wal and -shm files. */
  sqlite: number;
  /** The LanceDB directory. */
  vectors: number;
  total: number;
}

/** Bytes of regular files under `path` (links not followed); 0 when absent. */
export function diskBytes(path: string): number {
  let st: ReturnType<typeof lstatSync> | undefined;
  try {
    st = lstatSync(path);
  } catch {
    return 0;
  }
  if (st.isFile()) return st.size;
  if (!st.isDirectory()) return 0;
  let n = 0;
  for (const name of readdirSync(path)) n += diskBytes(join(path, name));
  return n;
}

export function storeSize(paths: Pick<HomePaths, "sqlite" | "lance">): StoreSize {
  const sqlite = diskBytes(paths.sqlite) + diskBytes(`${paths.sqlite}-wal`) + diskBytes(`${paths.sqlite}-shm`);
  const vectors = diskBytes(paths.lance);
  return { sqlite, vectors, total: sqlite + vectors };
}

/**
 * Compacts `tables` and removes their old versions. A table that fails is retried once (another
 * writer may have committed meanwhile), then reported through `fail` and skipped.
 */
export async function compactVectors(store: VectorStore, tables: readonly string[], now: () => Date, fail: (msg: string) => void): Promise<TableCompaction[]> {
  const out: TableCompaction[] = [];
  for (const table of tables) {
    try {
      const versionsBefore = await store.versions(table);
      let stats: Awaited<ReturnType<VectorStore["optimize"]>>;
      try {
        stats = await store.optimize(table, now());
      } catch {
        await new Promise((r) => setTimeout(r, 500));
        stats = await store.optimize(table, now());
      }
      out.push({
        table,
        rows: await store.count(table),
        versionsBefore,
        versionsAfter: await store.versions(table),
        fragmentsRemoved: stats.compaction.fragmentsRemoved,
        fragmentsAdded: stats.compaction.fragmentsAdded,
        filesRemoved: stats.compaction.filesRemoved,
        filesAdded: stats.compaction.filesAdded,
        oldVersionsRemoved: stats.prune.oldVersionsRemoved,
        bytesRemoved: stats.prune.bytesRemoved,
      });
    } catch (err) {
      fail(`compacting vector table ${table} failed: ${(err as Error).message}`);
    }
  }
  return out;
}
