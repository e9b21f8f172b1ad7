import type { ModelEntry } from "../config/catalogue.js";
import { CATALOGUE_PATH, describeModel, modelInfo, shippedCatalogue } from "../embed/models.js";
import type { EmbeddingProvider } from "../embed/provider.js";
import { vectorTableName } from "../store/vector-table-name.js";
import type { Check } from "./check.js";

/**
 * What mem feeds a provider's model (models/catalogue.json, or the user's `embedding.models`):
 * a known model's prefixes, or, for a model mem does not know, that it is unknown and what mem
 * assumed. `dims` is what the provider's health check found (undefined when it is down).
 */
export function modelCheck(p: Pick<EmbeddingProvider, "name" | "model">, overrides: ModelEntry[], dims: number | undefined, chunkTokens?: number): Check {
  const info = modelInfo(p.model, overrides);
  const name = `${p.name} model`;
  const ctx = info.entry.contextTokens;
  const cut = ctx !== undefined && chunkTokens !== undefined && chunkTokens > ctx ? ` (chunks of up to ${chunkTokens} tokens, index.chunkTokens, are longer than the ${ctx} it reads: their ends are not in its vectors)` : "";
  const detail = describeModel(info, dims) + cut;
  const table = dims ? `; its vectors go to ${vectorTableName({ name: p.name, model: p.model, prefixes: info.entry.prefixes }, dims)}` : "";
  if (!info.known) {
    return { name, status: "warn", detail: `${detail}${table}`, fix: `if its model card asks for query/document prefixes, add it under embedding.models in config.json (see ${CATALOGUE_PATH.replace(/catalogue\.json$/, "README.md")})` };
  }
  if (dims !== undefined && info.entry.dims !== undefined && info.entry.dims !== dims) {
    return { name, status: "warn", detail: `${detail}; but the model returns ${dims} dims, not ${info.entry.dims}: is "${p.model}" another model under a known name?${table}`, fix: "check the model's name and card; give it its own entry under embedding.models in config.json" };
  }
  return { name, status: "ok", detail: `${detail}${table}` };
}

/** A broken shipped catalogue (a damaged install): every model is then treated as unknown. */
export function catalogueCheck(): Check[] {
  const c = shippedCatalogue();
  if (!c.problem) return [];
  return [{ name: "model catalogue", status: "warn", detail: `${c.problem}: every model is treated as unknown (no prefixes)`, fix: "reinstall mem (the catalogue ships in the package's models/ folder)" }];
}
