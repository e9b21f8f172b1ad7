import { statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config/config.js";
import type { VectorReport } from "../../indexer/embed-step.js";
import { NO_MODEL, NO_MODEL_LINE } from "../retrieve/warnings.js";

export { searchWarningLine, VECTOR_LEG_SKIPPED } from "../retrieve/warnings.js";

/**
 * The one line `mem index` prints when its vector step was skipped. No model answered: the same
 * line as every other surface (`NO_MODEL_LINE`). Nothing when the user chose BM25 only
 * (`MEM_EMBED_ORDER=none`, or an empty `embedding.order`). A skip for another cause than the
 * providers (a vector table that cannot be written) is told as it is. Pure.
 */
export function vectorSkippedNote(config: Config, v: VectorReport): string | undefined {
  if (v.status !== "skipped") return undefined;
  if (config.embedding.order.length === 0) return undefined;
  const reason = v.reason ?? "";
  if (!NO_MODEL.test(reason)) return `vector step skipped: ${reason}`;
  return NO_MODEL_LINE;
}

/** How often the no-model line is said on a terminal, per data home. */
export const NO_MODEL_EVERY_MS = 24 * 3_600_000;

/** The stamp file in the data home whose time says when the no-model line was last said. */
export const NO_MODEL_STAMP = "no-model-said";

/** Whether a line last said at `last` (ms, undefined: never) is due again at `now`. Pure. */
export function noModelDue(last: number | undefined, now: number): boolean {
  return last === undefined || !(now - last < NO_MODEL_EVERY_MS) || now < last;
}

/**
 * Whether to say the no-model line now in data home `home`: at most once a day. Saying it is
 * recorded in the stamp; a stamp that cannot be read or written never silences it for good nor
 * fails the command (the line is said, as before).
 */
export function sayNoModelNow(home: string, now = Date.now()): boolean {
  const stamp = join(home, NO_MODEL_STAMP);
  let last: number | undefined;
  try {
    const st = statSync(stamp);
    if (st.isFile()) last = st.mtimeMs;
  } catch {
    // never said
  }
  if (!noModelDue(last, now)) return false;
  try {
    writeFileSync(stamp, "", { mode: 0o600 });
    utimesSync(stamp, now / 1000, now / 1000);
  } catch {
    // a read-only home: say it each time rather than never
  }
  return true;
}
