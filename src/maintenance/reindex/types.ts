import type { CopyFate } from "../purge-copies.js";
import type { SqliteCompaction } from "../../store/compact.js";
import type { Move } from "../rotate/rotate.js";
import type { StoreSize, TableCompaction } from "./compact.js";
import type { DecaySummary } from "./decay.js";
import type { ProjectRun } from "./projects.js";

/** What one `mem reindex` run did (its `--json` output). */
export interface ReindexReport {
  ok: boolean;
  problems: string[];
  /** Kinds of problem, for the exit status. */
  failed: { rootsMissing: number; vectorSkipped: boolean; errors: number };
  startedAt: string;
  durationMs: number;
  rescrubbed: number;
  rotate: { rotated: Move[]; archived: Move[] };
  forgottenRoots: { project: string; path: string; sources: number }[];
  projects: ProjectRun[];
  /** off: turned off (embedding.order empty); bm25-only: no model has ever answered here, and none did now. */
  vectors: "on" | "off" | "bm25-only";
  /** `copies`: the snapshots and other copies in the data home the purge changed or dropped (src/maintenance/purge-copies.ts). */
  purge: { memories: number; vectors: number; copies: CopyFate[] };
  /** Rows merged into a memory that says the same (src/capture/merge-same.ts mergeStoredTwice). */
  merged: number;
  salience: DecaySummary & { orphansRemoved: number };
  tiers: { coldAfterDays: number; toCold: number; toWarm: number; exempt: number; stale: number };
  compaction: { tables: TableCompaction[]; sqlite: SqliteCompaction | null };
  /** The snapshot of the SQLite store taken first (null: it failed, see problems), and those pruned. */
  snapshot: { id: string; bytes: number; durationMs: number; pruned: string[] } | null;
  size: { before: StoreSize; after: StoreSize };
  warnings: string[];
}
