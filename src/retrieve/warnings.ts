import type { Config } from "../config/config.js";

/** How a search says its vector leg did not run; the reason follows. `searchWarningLine` shortens it for people. */
export const VECTOR_LEG_SKIPPED = "vector leg skipped, answering from BM25 only: ";

/** A reason of the vector leg's that means no model answered (rather than, say, a table that cannot be read). */
export const NO_MODEL = /^(no embedding provider|every provider failed)/;

/**
 * The one line every surface says when no embedding model answered (`mem index`, `mem query` and
 * `mem why` on stderr, at most once a day per data home; `--json` warnings; the explorer's Legs
 * and search pages; `mem doctor`'s summary). `mem doctor` explains the options.
 */
export const NO_MODEL_LINE = "no embedding model: search is BM25 only (`mem doctor` for vector search)";

/** Whether a warning of the search (or a vector step's reason) means no model answered. */
export function isNoModel(warning: string): boolean {
  return NO_MODEL.test(warning.startsWith(VECTOR_LEG_SKIPPED) ? warning.slice(VECTOR_LEG_SKIPPED.length) : warning);
}

/** What ran, as `--json`'s `mode` says it: "hybrid" only when both legs ran. Pure. */
export function modeRan(legs: readonly ("bm25" | "vector")[]): "hybrid" | "bm25" | "vector" | "none" {
  return legs.includes("bm25") && legs.includes("vector") ? "hybrid" : legs.includes("vector") ? "vector" : legs.includes("bm25") ? "bm25" : "none";
}

const DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434";

/**
 * One of the search's warnings as every surface says it (`mem query`, `mem why`, `--json`, the
 * explorer): the vector leg's long reason (every provider's error, 400+ characters) becomes
 * `NO_MODEL_LINE`, or nothing when BM25 only was the user's choice; other warnings are kept as
 * they are. Pure.
 */
export function searchWarningLine(config: Config, warning: string): string | undefined {
  if (!warning.startsWith(VECTOR_LEG_SKIPPED)) return warning;
  if (config.embedding.order.length === 0) return undefined;
  const reason = warning.slice(VECTOR_LEG_SKIPPED.length);
  if (!NO_MODEL.test(reason)) return warning;
  return NO_MODEL_LINE;
}

/** The command that gives this configuration its model. */
export function modelFix(config: Config): string {
  const order = config.embedding.order;
  const o = config.embedding.ollama;
  const t = config.embedding.transformers;
  return order.includes("ollama") ? `ollama pull ${o.model} (Ollama must be running${o.host === DEFAULT_OLLAMA_HOST ? "" : ` at ${o.host}`})` : `put ${t.model} in ${t.cacheDir} (see models/README.md)`;
}
