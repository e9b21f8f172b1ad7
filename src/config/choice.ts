import { dirname } from "node:path";
import { ensurePrivateDir } from "../util/private-dir.cjs";
import { replacePrivate } from "../util/private-file.cjs";
import { readRegular } from "../util/read-regular.cjs";
import { ConfigError, MAX_CONFIG_BYTES } from "./load.js";

/**
 * The user's choice of search, recorded in config.json: BM25 only (`embedding.order: []`, no
 * embedding model wanted) or the default order of providers back (the key removed). Every other
 * key of the file is kept as it was; a file that is no JSON object is refused, never overwritten.
 */
export type SearchChoice = "bm25-only" | "vectors";

export interface ChoiceResult {
  path: string;
  changed: boolean;
}

type JsonObject = { [key: string]: unknown };

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);

/** What config.json holds with the choice applied; `changed` false when it already said so. Pure. */
export function withChoice(current: JsonObject, choice: SearchChoice): { config: JsonObject; changed: boolean } {
  const embedding = current.embedding;
  if (embedding !== undefined && !isObject(embedding)) throw new ConfigError('config: "embedding" must be an object');
  const order = embedding?.order;
  if (choice === "bm25-only") {
    if (Array.isArray(order) && order.length === 0) return { config: current, changed: false };
    return { config: { ...current, embedding: { ...(embedding ?? {}), order: [] } }, changed: true };
  }
  if (order === undefined || (Array.isArray(order) && order.length > 0)) return { config: current, changed: false };
  const { order: _gone, ...rest } = embedding!;
  const { embedding: _e, ...others } = current;
  return { config: Object.keys(rest).length > 0 ? { ...current, embedding: rest } : others, changed: true };
}

/** Records the choice in the config file at `path` (created when absent; written whole, then renamed over it). */
export function recordChoice(path: string, choice: SearchChoice): ChoiceResult {
  const read = readRegular(path, MAX_CONFIG_BYTES);
  let current: JsonObject = {};
  if (read.ok) {
    const text = read.data.toString("utf8");
    if (text.trim() !== "") {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (err) {
        throw new ConfigError(`config: ${path} is not valid JSON (${(err as Error).message}); fix it first, nothing was written`);
      }
      if (!isObject(parsed)) throw new ConfigError(`config: ${path} must hold a JSON object; fix it first, nothing was written`);
      current = parsed;
    }
  } else if (read.why !== "absent") throw new ConfigError(`config: cannot read ${path}: ${read.reason}; nothing was written`);
  const { config, changed } = withChoice(current, choice);
  if (!changed) return { path, changed };
  ensurePrivateDir(dirname(path));
  replacePrivate(path, `${JSON.stringify(config, null, 2)}\n`);
  return { path, changed };
}
