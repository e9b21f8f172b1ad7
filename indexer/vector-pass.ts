/**
 * The vector step, then the calibration of the leg it filled (indexer/calibrate-step.ts) when the
 * project has never been calibrated for that table or changed by a fifth since: the one way every
 * indexing path (`mem index`, the daemon's background indexing, `mem reindex`, `mem rebuild`,
 * `mem sync` without a daemon) makes vectors, so a store built by any of them gets calibrated
 * fusion weights. A step cut short (`maxRows`) is calibrated by the call that finishes it.
 */
import { calibrateStep } from "./calibrate-step.js";
import { embedStep, type EmbedStepOptions, type VectorReport } from "./embed-step.js";
import type { Clean } from "../src/redact/clean.cjs";
import type { Db } from "../src/store/db.js";

export async function vectorPass(o: EmbedStepOptions & { db: Db; project: Clean<string> }): Promise<VectorReport> {
  const report = await embedStep(o);
  if (report.status === "ok" && !report.limited) await calibrateStep({ db: o.db, project: o.project, providers: o.providers, vectors: o.vectors, report, now: o.now, warn: o.warn });
  return report;
}
