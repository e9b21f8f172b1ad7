/**
 * What `mem doctor` and the explorer's health page say of the embedding providers: the user's
 * BM25-only choice, each provider's health and the model it feeds, and whether any is usable.
 * Pure: the caller asks the providers (doctor every one, the explorer the chain it searches with).
 */
import type { AppConfig } from "../app.js";
import type { Health } from "../embed/provider.js";
import { field } from "../render/line.js";
import type { Check } from "./check.js";
import { catalogueCheck, modelCheck } from "./model.js";
import { NO_MODEL_LINE } from "../retrieve/warnings.js";

/**
 * No provider configured: BM25 only is the user's choice, a valid state, not a problem; one line
 * saying how to undo it where the choice was made (MEM_EMBED_ORDER wins over config.json).
 */
export function bm25OnlyCheck(env: NodeJS.ProcessEnv): Check {
  const byEnv = env.MEM_EMBED_ORDER !== undefined && env.MEM_EMBED_ORDER.trim() !== "";
  const where = byEnv ? `MEM_EMBED_ORDER=${field(env.MEM_EMBED_ORDER!, 40)}` : "embedding.order is empty in config.json";
  const undo = byEnv ? "unset MEM_EMBED_ORDER (or set it to ollama,transformers)" : "`mem doctor --use-vectors`";
  return { name: "embedding", status: "ok", detail: `BM25 only, by your choice (${where}): search matches words, no embedding model is used; to add one: ${undo}` };
}

/**
 * The ways out of the no-model state, for `mem doctor`: each provider the config names with what
 * gives it its model, and the BM25-only choice that silences the line. Pure.
 */
export function noModelOptions(config: AppConfig["config"]): string {
  const e = config.embedding;
  const ways = e.order.map((p) =>
    p === "ollama"
      ? `Ollama: install it, run \`ollama serve\`${e.ollama.host === "http://127.0.0.1:11434" ? "" : ` at ${e.ollama.host}`} and \`ollama pull ${e.ollama.model}\``
      : `transformers.js: run mem once where huggingface.co is reachable (it downloads ${e.transformers.model} into ${e.transformers.cacheDir}), or copy the model folder there (models/README.md)`,
  );
  return `${ways.map((w, i) => `(${i + 1}) ${w}`).join("; ")}; or keep BM25 only and silence this: \`mem doctor --bm25-only\``;
}

/** A provider as asked: its name and model, and what its health check said. */
export interface ProviderHealth {
  provider: { name: string; model: string };
  health: Health;
}

/**
 * The checks of the providers asked (`configured`: how many the config names; none is the
 * BM25-only choice): each one's health and its model, the catalogue, and a warning when none is
 * usable.
 */
export function providerChecks(asked: readonly ProviderHealth[], configured: number, env: NodeJS.ProcessEnv, config: AppConfig["config"]): Check[] {
  if (configured === 0) return [bm25OnlyCheck(env)];
  const checks: Check[] = [];
  let usable = false;
  for (const { provider: p, health: h } of asked) {
    usable ||= h.ok;
    checks.push(h.ok ? { name: `${p.name}`, status: "ok", detail: `${p.model}, ${h.dims} dims${h.detail ? ` (${h.detail})` : ""}` } : { name: p.name, status: "warn", detail: h.reason, ...(h.fix ? { fix: h.fix } : {}) });
    checks.push(modelCheck(p, config.embedding.models, h.ok ? h.dims : undefined, config.index.chunkTokens));
  }
  checks.push(...catalogueCheck());
  if (!usable) checks.push({ name: "embedding", status: "warn", detail: NO_MODEL_LINE, fix: noModelOptions(config) });
  return checks;
}
