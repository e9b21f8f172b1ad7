import { existsSync } from "node:fs";
import { basename } from "node:path";
import type { Clean } from "../src/redact/clean.cjs";
import { forgetRoot, listRoots } from "../src/store/roots.js";
import { indexPaths, type IndexContext, type IndexSummary } from "./pipeline.js";
import { markRootIndexed } from "./root-state.js";
import { chunkingKey } from "./chunking-key.js";
import { removedRecordFolder } from "./removed-folder.js";
import { recordFolderGone, rootChanged, type RootRef, type StaleRoot } from "./stale.js";
import { recordFolders } from "../src/config/team-folder.js";

export interface StaleReport {
  /** Recorded roots looked at. */
  checked: number;
  /** Those found changed, re-indexed by project. */
  stale: StaleRoot[];
  /** Recorded roots that are gone or unreadable: left as they are (their notes stay searchable). */
  missing: RootRef[];
  runs: IndexSummary[];
}

/**
 * `mem index --stale`: walks each recorded root (of `projects`, else every project; only those
 * equal to one of `paths` when given), compares it with what is stored, and re-indexes, project by
 * project, the roots where a file is new, gone or changed. A root found unchanged records the
 * check's time, so the cheap check no longer counts its directories' older changes (a swap file
 * come and gone). A root that is missing is reported and left alone: a re-index would empty it;
 * except a record folder git removed with its last record, whose records are forgotten.
 */
export async function reindexStale(ctx: IndexContext, filter: { projects?: string[]; paths?: string[] }): Promise<StaleReport> {
  const now = ctx.now ?? Date.now;
  const projects = filter.projects ? new Set(filter.projects) : undefined;
  const paths = filter.paths ? new Set(filter.paths) : undefined;
  const roots = listRoots(ctx.db).filter((r) => (!projects || projects.has(r.project)) && (!paths || paths.has(r.path)));
  const report: StaleReport = { checked: roots.length, stale: [], missing: [], runs: [] };
  const byProject = new Map<Clean<string>, string[]>();
  for (const r of roots) {
    const ref = { project: r.project, path: r.path };
    if (!existsSync(r.path)) {
      const folders = recordFolders(ctx.config);
      const gone = recordFolderGone(ctx.db, ref, folders);
      if (gone !== undefined) {
        report.stale.push({ ...ref, why: gone });
        byProject.set(r.project, [...(byProject.get(r.project) ?? []), r.path]);
      } else if (removedRecordFolder(r.path, folders)) {
        forgetRoot(ctx.db, r.project, r.path); // removed from its repository, its records already forgotten: nothing of it is left
      } else {
        report.missing.push(ref);
      }
      continue;
    }
    const started = now();
    const why = rootChanged(ctx.db, ref, ctx.config.index.ignore, ctx.config.index.maxFileBytes, chunkingKey(ctx.config.index), { followExternalLinks: ctx.config.index.followExternalLinks });
    if (why === undefined) {
      markRootIndexed(ctx.db, r.project, r.path, started);
      continue;
    }
    report.stale.push({ ...ref, why });
    byProject.set(r.project, [...(byProject.get(r.project) ?? []), r.path]);
  }
  for (const [id, rs] of byProject) {
    const project = { id, name: basename(id) || id, root: id.startsWith("/") ? id : undefined };
    report.runs.push(await indexPaths(ctx, { roots: rs, project, full: false }));
  }
  return report;
}
