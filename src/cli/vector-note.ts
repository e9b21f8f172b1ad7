import type { Config } from "../config/config.js";
import type { VectorReport } from "../../indexer/embed-step.js";
import { modelFix, NO_MODEL } from "../retrieve/warnings.js";

export { searchWarningLine, VECTOR_LEG_SKIPPED } from "../retrieve/warnings.js";

/**
 * The one line `mem index` prints when its vector step was skipped: short, with the fix in full.
 * Nothing when the user chose BM25 only (`MEM_EMBED_ORDER=none`, or an empty `embedding.order`).
 * A skip for another cause than the providers (a vector table that cannot be written) is told
 * as it is. Pure.
 */
export function vectorSkippedNote(config: Config, v: VectorReport): string | undefined {
  if (v.status !== "skipped") return undefined;
  if (config.embedding.order.length === 0) return undefined;
  const reason = v.reason ?? "";
  if (!NO_MODEL.test(reason)) return `vector step skipped: ${reason}`;
  return `vector step skipped, BM25 only: no embedding model answered. Fix: ${modelFix(config)}; \`mem doctor\` says more`;
}

