/**
 * Reading `config.json` and the environment onto the defaults (src/config/config.ts): each known
 * key's type checked, unknown keys reported, numbers kept in their ranges, a file that is no
 * regular file or too large refused.
 */
import { isAbsolute, join, dirname, resolve } from "node:path";
import { parseEntry, type ModelEntry } from "./catalogue.js";
import { readRegular } from "../util/read-regular.cjs";
import { defaultConfig, type Config, type ProviderName } from "./config.js";
import { inRange, rangeError, RANGES } from "./ranges.cjs";

export class ConfigError extends Error {
  override name = "ConfigError";
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Deep-merges a parsed JSON object onto defaults, checking each known key's type. Unknown keys are reported. */
function merge(target: Record<string, unknown>, source: Record<string, Json>, where: string, warnings: string[]): void {
  for (const [key, value] of Object.entries(source)) {
    const path = where ? `${where}.${key}` : key;
    if (!Object.hasOwn(target, key)) {
      warnings.push(`config: unknown key "${path}" ignored`);
      continue;
    }
    const current = target[key];
    if (path === "embedding.models") {
      target[key] = parseModels(value);
      continue;
    }
    if (current !== null && typeof current === "object" && !Array.isArray(current)) {
      if (value === null || typeof value !== "object" || Array.isArray(value)) throw new ConfigError(`config: "${path}" must be an object`);
      merge(current as Record<string, unknown>, value, path, warnings);
    } else if (Array.isArray(current)) {
      if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) throw new ConfigError(`config: "${path}" must be a list of strings`);
      target[key] = value;
    } else if (typeof current !== typeof value) {
      throw new ConfigError(`config: "${path}" must be a ${typeof current}, got ${JSON.stringify(value)}`);
    } else {
      target[key] = value;
    }
  }
}

/** `embedding.models`: {"model name": {catalogue entry}}; each entry validated as the catalogue's are. */
function parseModels(value: Json): ModelEntry[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new ConfigError(`config: "embedding.models" must be an object from model names to entries (see models/README.md)`);
  const names = Object.keys(value);
  if (names.length > 100) throw new ConfigError(`config: "embedding.models" holds ${names.length} models, at most 100`);
  return names.map((name) => {
    const raw = value[name];
    const entry = raw !== null && typeof raw === "object" && !Array.isArray(raw) && raw.names === undefined ? { ...raw, names: [name] } : raw;
    try {
      return parseEntry(entry, `embedding.models[${JSON.stringify(name.slice(0, 100))}]`);
    } catch (err) {
      throw new ConfigError(`config: ${(err as Error).message}`);
    }
  });
}

function parseOrder(raw: string): ProviderName[] {
  const names = raw.split(/[\s,>]+/).map((s) => s.trim()).filter((s) => s !== "" && s !== "-");
  if (names.length === 1 && names[0] === "none") return [];
  for (const n of names) {
    if (n !== "ollama" && n !== "transformers") throw new ConfigError(`MEM_EMBED_ORDER: unknown provider "${n}" (use ollama, transformers or none)`);
  }
  return names as ProviderName[];
}

/** The value at a dotted path of the config. */
function at(c: Config, key: string): unknown {
  return key.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], c);
}

function validate(c: Config): void {
  for (const [key, range] of Object.entries(RANGES)) {
    const v = at(c, key) as number;
    if (!inRange(v, range)) throw new ConfigError(`config: ${rangeError(key, v, range)}`);
  }
  if (c.index.overlapTokens >= c.index.chunkTokens) {
    throw new ConfigError(`config: "index.overlapTokens" must be ≥ 0 and below index.chunkTokens (${c.index.chunkTokens}), got ${c.index.overlapTokens}`);
  }
  if (c.index.minChunkTokens >= c.index.chunkTokens) {
    throw new ConfigError(`config: "index.minChunkTokens" must be ≥ 0 and below index.chunkTokens (${c.index.chunkTokens}), got ${c.index.minChunkTokens}`);
  }
  for (const p of c.index.followExternalLinks) {
    if (p.trim() === "" || !(isAbsolute(p) || p === "~" || p.startsWith("~/"))) throw new ConfigError(`config: "index.followExternalLinks" takes absolute paths of roots (or ~/…), got ${JSON.stringify(p.slice(0, 200))}`);
  }
  if (c.query.fusion !== "rrf" && c.query.fusion !== "calibrated") {
    throw new ConfigError(`config: "query.fusion" must be "rrf" or "calibrated", got ${JSON.stringify(String(c.query.fusion).slice(0, 100))}`);
  }
  const tf = c.team.folder.trim();
  if (tf !== "" && (isAbsolute(tf) || tf.split(/[\\/]/).includes("..") || tf.length > 200)) {
    throw new ConfigError(`config: "team.folder" must be a folder inside the repository, relative and without "..", got ${JSON.stringify(tf.slice(0, 100))}`);
  }
  for (const p of c.embedding.order) {
    if (p !== "ollama" && p !== "transformers") throw new ConfigError(`config: unknown provider "${p}" in embedding.order`);
  }
  if (c.maintenance.timeZone !== "" && !validTimeZone(c.maintenance.timeZone)) {
    throw new ConfigError(`config: "maintenance.timeZone" must be an IANA time zone such as "Europe/Paris" (or "" for the system's), got ${JSON.stringify(c.maintenance.timeZone.slice(0, 100))}`);
  }
}

/** Whether Intl knows the time zone (an IANA name like "America/New_York", or "UTC"). */
export function validTimeZone(tz: string): boolean {
  if (tz.length > 100) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** A config.json larger than this is refused (a real one is a few hundred bytes). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

export interface LoadedConfig {
  config: Config;
  warnings: string[];
}

/**
 * Loads `config.json` from the data home (absent is fine; the model cache defaults to `models/`
 * beside it), then applies environment overrides:
 * MEM_EMBED_ORDER ("ollama,transformers" | "none"), MEM_OLLAMA_HOST (or OLLAMA_HOST),
 * MEM_OLLAMA_MODEL, MEM_TRANSFORMERS_MODEL, MEM_MODELS_DIR, MEM_ALLOW_REMOTE_MODELS=0,
 * MEM_WATCH=0|1 (index.watch).
 */
export function loadConfig(configPath: string, env: NodeJS.ProcessEnv = process.env, modelsDir = join(dirname(configPath), "models")): LoadedConfig {
  const config = defaultConfig(modelsDir);
  const warnings: string[] = [];
  let text: string | undefined;
  const read = readRegular(configPath, MAX_CONFIG_BYTES); // a FIFO or a device is refused, never waited on
  if (read.ok) text = read.data.toString("utf8");
  else if (read.why !== "absent") throw new ConfigError(`config: cannot read ${configPath}: ${read.reason}`);
  if (text !== undefined) {
    let parsed: Json;
    try {
      parsed = JSON.parse(text) as Json;
    } catch (err) {
      throw new ConfigError(`config: ${configPath} is not valid JSON: ${(err as Error).message}`);
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new ConfigError(`config: ${configPath} must hold a JSON object`);
    merge(config as unknown as Record<string, unknown>, parsed, "", warnings);
  }
  if (env.MEM_EMBED_ORDER !== undefined) config.embedding.order = parseOrder(env.MEM_EMBED_ORDER);
  const host = env.MEM_OLLAMA_HOST ?? env.OLLAMA_HOST;
  if (host) config.embedding.ollama.host = /^https?:\/\//.test(host) ? host : `http://${host}`;
  if (env.MEM_OLLAMA_MODEL) config.embedding.ollama.model = env.MEM_OLLAMA_MODEL;
  if (env.MEM_TRANSFORMERS_MODEL) config.embedding.transformers.model = env.MEM_TRANSFORMERS_MODEL;
  if (env.MEM_MODELS_DIR) config.embedding.transformers.cacheDir = resolve(env.MEM_MODELS_DIR);
  if (env.MEM_ALLOW_REMOTE_MODELS === "0") config.embedding.transformers.allowRemote = false;
  if (env.MEM_WATCH === "0" || env.MEM_WATCH === "1") config.index.watch = env.MEM_WATCH === "1";
  validate(config);
  return { config, warnings };
}
