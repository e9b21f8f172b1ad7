import type { Config } from "../config/config.js";
import type { VectorReport } from "../../indexer/embed-step.js";

const DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434";

/**
 * The one line `mem index` prints when its vector step was skipped: short, with the fix in full.
 * Nothing when the user chose BM25 only (`MEM_EMBED_ORDER=none`, or an empty `embedding.order`).
 * A skip for another cause than the providers (a vector table that cannot be written) is told
 * as it is. Pure.
 */
export function vectorSkippedNote(config: Config, v: VectorReport): string | undefined {
  if (v.status !== "skipped") return undefined;
  const order = config.embedding.order;
  if (order.length === 0) return undefined;
  const reason = v.reason ?? "";
  if (!/^(no embedding provider|every provider failed)/.test(reason)) return `vector step skipped: ${reason}`;
  const o = config.embedding.ollama;
  const t = config.embedding.transformers;
  const fix = order.includes("ollama")
    ? `ollama pull ${o.model} (Ollama must be running${o.host === DEFAULT_OLLAMA_HOST ? "" : ` at ${o.host}`})`
    : `put ${t.model} in ${t.cacheDir} (see models/README.md)`;
  return `vector step skipped, BM25 only: no embedding model answered. Fix: ${fix}; \`mem doctor\` says more`;
}
