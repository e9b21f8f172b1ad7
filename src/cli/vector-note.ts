import type { Config } from "../config/config.js";
import type { VectorReport } from "../../indexer/embed-step.js";
import { VECTOR_LEG_SKIPPED } from "../retrieve/warnings.js";

export { VECTOR_LEG_SKIPPED };

const DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434";

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

const NO_MODEL = /^(no embedding provider|every provider failed)/;

/**
 * What `mem query` and `mem why` print on stderr for one of the search's warnings: the vector
 * leg's long reason (every provider's error, 400+ characters) becomes one short line with the fix,
 * or nothing when BM25 only was the user's choice; other warnings are kept as they are (`--json`
 * keeps the full reason). Pure.
 */
export function searchWarningLine(config: Config, warning: string): string | undefined {
  if (!warning.startsWith(VECTOR_LEG_SKIPPED)) return warning;
  if (config.embedding.order.length === 0) return undefined;
  const reason = warning.slice(VECTOR_LEG_SKIPPED.length);
  if (!NO_MODEL.test(reason)) return warning;
  return `BM25 only (word matching): no embedding model answered. Fix: ${modelFix(config)}, or \`mem doctor --bm25-only\` to choose BM25; \`mem doctor\` says more`;
}

/** The command that gives this configuration its model. */
function modelFix(config: Config): string {
  const order = config.embedding.order;
  const o = config.embedding.ollama;
  const t = config.embedding.transformers;
  return order.includes("ollama") ? `ollama pull ${o.model} (Ollama must be running${o.host === DEFAULT_OLLAMA_HOST ? "" : ` at ${o.host}`})` : `put ${t.model} in ${t.cacheDir} (see models/README.md)`;
}
