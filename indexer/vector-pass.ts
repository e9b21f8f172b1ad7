/**
 * The vector step, then the calibration of the leg it filled (indexer/calibrate-step.ts) when the
 * project has never been calibrated for that table or changed by a fifth since: the one way every
 * indexing path (`mem index`, the daemon's background indexing, `mem reindex`, `mem rebuild`,
 * `mem sync` without a daemon) makes vectors, so a store built by any of them gets calibrated
 * fusion weights. A step cut short (`maxRows`) is calibrated by the call that finishes it.
 */
import { calibrateStep } from "./calibrate-step.js";
import { chunkCapturedEvents } from "./captured.js";
import { convergeByMeaning } from "./converge-meaning.js";
import { ChunkStore } from "../src/store/chunks.js";
import { embedStep, type EmbedStepOptions, type VectorReport } from "./embed-step.js";
import type { Clean } from "../src/redact/clean.cjs";
import type { Db } from "../src/store/db.js";

export async function vectorPass(o: EmbedStepOptions & { db: Db; project: Clean<string> }): Promise<VectorReport> {
  let report = await embedStep(o);
  if (report.status === "ok" && report.table && !report.limited) {
    // Memories that say the same in other words become one (indexer/converge-meaning.ts); the one
    // kept is chunked and embedded again at once, as it now stands for both.
    try {
      const m = await convergeByMeaning({ db: o.db, project: o.project, table: report.table, vectors: o.vectors, now: o.now() });
      if (m.merged > 0) {
        chunkCapturedEvents(o.db, new ChunkStore(o.db), o.project, o.now());
        const again = await embedStep(o);
        report = { ...again, embedded: report.embedded + again.embedded, removed: report.removed + again.removed };
      }
    } catch (err) {
      o.warn(`convergence by meaning skipped: ${(err as Error).message}`);
    }
  }
  if (report.status === "ok" && !report.limited) await calibrateStep({ db: o.db, project: o.project, providers: o.providers, vectors: o.vectors, report, now: o.now, warn: o.warn });
  return report;
}
