import type { Config } from "../config/config.js";

/** How a search says its vector leg did not run; the reason follows. `searchWarningLine` shortens it for people. */
export const VECTOR_LEG_SKIPPED = "vector leg skipped, answering from BM25 only: ";

/** A reason of the vector leg's that means no model answered (rather than, say, a table that cannot be read). */
export const NO_MODEL = /^(no embedding provider|every provider failed)/;

const DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434";

/**
 * What `mem query` and `mem why` print on stderr (and the explorer shows) for one of the search's warnings: the vector
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
export function modelFix(config: Config): string {
  const order = config.embedding.order;
  const o = config.embedding.ollama;
  const t = config.embedding.transformers;
  return order.includes("ollama") ? `ollama pull ${o.model} (Ollama must be running${o.host === DEFAULT_OLLAMA_HOST ? "" : ` at ${o.host}`})` : `put ${t.model} in ${t.cacheDir} (see models/README.md)`;
}
