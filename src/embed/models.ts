import { join } from "node:path";
import { PACKAGE_ROOT } from "../config/config.js";
import { readRegular } from "../util/read-regular.cjs";
import { matchModel, NO_PREFIXES, parseCatalogue, UNKNOWN_PRIORS, type ModelEntry } from "../config/catalogue.js";

/** The reviewed catalogue shipped with mem (top-level `models/`, never the model cache: that lives in the data home). */
export const CATALOGUE_PATH = join(PACKAGE_ROOT, "models", "catalogue.json");

let shipped: { entries: ModelEntry[]; problem?: string } | undefined;

/** The shipped catalogue, read and validated once. A missing or broken file leaves it empty and says why (mem doctor shows it). */
export function shippedCatalogue(): { entries: ModelEntry[]; problem?: string } {
  if (shipped) return shipped;
  try {
    const read = readRegular(CATALOGUE_PATH, 1024 * 1024);
    if (!read.ok) throw new Error(`${CATALOGUE_PATH}: ${read.reason}`);
    shipped = { entries: parseCatalogue(JSON.parse(read.data.toString("utf8")), CATALOGUE_PATH) };
  } catch (err) {
    shipped = { entries: [], problem: (err as Error).message };
  }
  return shipped;
}

export interface ModelInfo {
  /** The model name as configured. */
  model: string;
  /** Is it in the catalogue (or the user's config)? Unknown models get no prefixes and the model's own dims. */
  known: boolean;
  from: "config" | "catalogue" | "assumed";
  entry: ModelEntry;
}

/** What mem applies for `model`: the user's `embedding.models` first, then the shipped catalogue, else assumptions. */
export function modelInfo(model: string, overrides: ModelEntry[] = []): ModelInfo {
  const own = matchModel(model, overrides);
  if (own) return { model, known: true, from: "config", entry: own };
  const hit = matchModel(model, shippedCatalogue().entries);
  if (hit) return { model, known: true, from: "catalogue", entry: hit };
  return { model, known: false, from: "assumed", entry: { id: model, names: [model], prefixes: NO_PREFIXES, pooling: "mean", normalized: true, priors: { ...UNKNOWN_PRIORS } } };
}

/** One line for `mem doctor`: what mem applies to this model and why. */
export function describeModel(info: ModelInfo, dims?: number): string {
  const e = info.entry;
  const q = (s: string) => (s === "" ? "nothing" : JSON.stringify(s));
  if (!info.known) {
    return `"${info.model}" is not in mem's model catalogue: mem assumed no query or document prefix, ${dims ? `${dims} dims (what the model returns)` : "the dims the model returns"}, mean pooling`;
  }
  const where = info.from === "config" ? "your config (embedding.models)" : `the catalogue (${e.id})`;
  const size = [e.dims ? `${e.dims} dims` : "dims from the model", e.contextTokens ? `${e.contextTokens} tokens of context` : ""].filter(Boolean).join(", ");
  return `${info.model} per ${where}: queries get ${q(e.prefixes.query)}, documents get ${q(e.prefixes.document)}; ${size}`;
}
