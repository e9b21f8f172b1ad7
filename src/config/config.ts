import { dirname, isAbsolute, join, resolve } from "node:path";
import type { SalienceConfig } from "../memory/salience.js";
import { parseEntry, type ModelEntry } from "./catalogue.js";
import { fileURLToPath } from "node:url";
import { readRegular } from "../util/read-regular.cjs";
import { dataHome, homePaths } from "./paths.cjs";
import { inRange, rangeError, RANGES } from "./ranges.cjs";

/** The package's root directory (a checkout, or where npm installed it: maybe read-only). */
/** Where teams keep their decision records, relative to a repository: a markdown file directly inside one is a record. */
export const DECISION_FOLDERS: readonly string[] = ["docs/adr", "docs/adrs", "docs/decisions", "doc/adr", "doc/adrs", "doc/decisions", "docs/architecture/decisions", "architecture/decisions", "adr", "adrs", "decisions"];

export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

export type ProviderName = "ollama" | "transformers";

export interface OllamaConfig {
  host: string;
  model: string;
  /** Per-request timeout for embed calls. */
  timeoutMs: number;
  /** Timeout for the health check (version + model list). */
  healthTimeoutMs: number;
}

export interface TransformersConfig {
  model: string;
  /** Directory holding `<org>/<model>/` folders (transformers.js localModelPath and cache). */
  cacheDir: string;
  /** May the model be downloaded from the hub when it is not cached? */
  allowRemote: boolean;
  /** Give up loading (download included) after this long. */
  loadTimeoutMs: number;
}

export interface Config {
  embedding: {
    /** Providers to try in order; an empty list means BM25 only. */
    order: ProviderName[];
    batchSize: number;
    concurrency: number;
    ollama: OllamaConfig;
    transformers: TransformersConfig;
    /**
     * Models mem should know beyond models/catalogue.json, or know otherwise: in config.json an
     * object from a model name to a catalogue entry (`names` defaults to the key). Wins over the catalogue.
     */
    models: ModelEntry[];
  };
  index: {
    ignore: string[];
    maxFileBytes: number;
    chunkTokens: number;
    overlapTokens: number;
    /** Sections smaller than this join a neighbour under the same top heading (0: never). */
    minChunkTokens: number;
    /** Keep indexed roots fresh: the daemon watches them; with no daemon, queries and hooks re-index a changed root in the background. */
    watch: boolean;
    /**
     * Roots (absolute paths or `~/…`; a folder holding roots counts for each) whose symbolic links
     * to folders and files outside them are followed. Empty by default: a link that leaves its root
     * is skipped with a warning. Never into /proc, /sys or /dev, never to a special file.
     */
    followExternalLinks: string[];
    /** Folders (relative to a repository, `/`-separated) whose markdown files are decision records (indexer/decision-record.ts). */
    decisionFolders: string[];
  };
  query: {
    k: number;
    /**
     * How hybrid search combines BM25 and the vector leg: "rrf", weighted reciprocal rank fusion
     * (each leg weight × 1/(rrfK + rank)), or "calibrated", the convex combination of normalised
     * scores. Both weigh the vector leg by its calibrated weight (src/retrieve/fusion.ts).
     */
    fusion: "rrf" | "calibrated";
    /** RRF's constant k (query.fusion "rrf"); 10 by default, chosen on the benchmarks' tuning halves (docs/ranking.md). */
    rrfK: number;
    weights: { bm25: number; vector: number };
    /** How many candidates each leg contributes before fusion. */
    candidates: number;
    /** Also search the user-global project ("global"). */
    includeGlobal: boolean;
    /** Jaccard similarity above which two results count as near-duplicates. */
    dedupeThreshold: number;
  };
  /** What the UserPromptSubmit hook injects. */
  inject: {
    budgetChars: number;
    maxItems: number;
    minTermCoverage: number;
    minSimilarity: number;
  };
  /** How much a memory matters now (src/memory/salience.ts): decay, reinforcement, the floor of immortal kinds, its weight in ranking. */
  salience: Omit<SalienceConfig, "defaults">;
  daemon: {
    /** The daemon exits after this long without a request. */
    idleMs: number;
    /** The prompt hook waits at most this long for the daemon, then injects nothing. */
    clientBudgetMs: number;
    /** The daemon waits at most this long for the prompt's embedding, then answers from BM25 alone. */
    vectorBudgetMs: number;
    /** How often the daemon turns captured events into chunks and vectors. */
    indexEveryMs: number;
    /** Largest vector table the daemon copies into memory (MiB of float32); a larger one is searched in LanceDB. */
    vectorMemoryMB: number;
    /** A vector table of at least this many rows is scanned by a worker thread and the daemon's thread together (0: every table). */
    scanWorkerRows: number;
    /** At most this many directories are watched in all; a root that would pass the bound is scanned every `watchPollMs` instead. */
    watchMaxDirs: number;
    /** A watched root is re-indexed this long after the last change seen in it (a burst of saves is one re-index). */
    watchDebounceMs: number;
    /** How often roots that are not watched (over the bound, missing, unreadable) are checked. */
    watchPollMs: number;
  };
  memory: {
    /** An explicit memory and a file edit of the same session this close in time may converge (src/capture/converge.ts). */
    convergeWindowMs: number;
  };
  /** The SessionStart briefing. */
  brief: {
    /** Open tasks untouched this many days are compressed into one line. */
    staleTaskDays: number;
  };
  /** The tiered memory files (src/tiers/): whose profile is briefed, and the hot files' size budgets. */
  tiers: {
    /** The current user's id for `users/<id>/profile.md` ("": MEM_USER, else the login name). */
    user: string;
    /** Bytes each hot file should stay under (`mem status` warns past it). */
    budgets: { identity: number; state: number; references: number; profile: number };
  };
  /** Cold search (`mem query --cold`, the MCP search's `cold`): the project's git history, bounded. */
  cold: {
    /** git is killed after this long; what it printed by then is used, with a warning. */
    gitTimeoutMs: number;
    /** At most this many commits from each pass (commit messages, diffs). */
    gitMaxCommits: number;
    /** At most this many bytes of git output are read from each pass; then git is killed. */
    gitMaxBytes: number;
  };
  /** The weekly `mem reindex` job and `mem rotate` (src/maintenance/). */
  maintenance: {
    /** Warm memories unused this many days move to the cold tier (decisions and rejected approaches never do). */
    coldAfterDays: number;
    /** Dated session logs (sessions/YYYY-MM-DD.md) older than this many days move under archive/. */
    archiveAfterDays: number;
    /** The time zone session logs are dated in (an IANA name such as "Europe/Paris"); "" is the system's. */
    timeZone: string;
    /** Snapshots of the SQLite store kept in `<data home>/snapshots/` (the newest; older ones are removed). */
    keepSnapshots: number;
  };
  /** `mem mcp`: bound to its session's project; the user's global memory is read-only to it unless `globalWrites`. */
  mcp: {
    /** May the model store, edit and forget memories of the user-global project ("global") through `mem mcp`? */
    globalWrites: boolean;
  };
  /** Team memory through the repository (src/team/): where `mem share` writes, and whether mem proposes what to share. */
  team: {
    /** The team folder, relative to the repository ("": the first of `index.decisionFolders` the repository has, else docs/decisions). */
    folder: string;
    /** Say at SessionStart which decisions of the last session could be shared (never writes anything). */
    propose: boolean;
  };
}

export const GLOBAL_PROJECT = "global";

/**
 * The defaults. Model files live in the data home's `models/` (`modelsDir`), never in the package:
 * a global install may be read-only and is replaced on every update.
 */
export function defaultConfig(modelsDir: string = homePaths(dataHome()).models): Config {
  return {
    embedding: {
      order: ["ollama", "transformers"],
      batchSize: 32,
      concurrency: 2,
      ollama: { host: "http://127.0.0.1:11434", model: "nomic-embed-text", timeoutMs: 30_000, healthTimeoutMs: 1_500 },
      transformers: { model: "Xenova/all-MiniLM-L6-v2", cacheDir: modelsDir, allowRemote: true, loadTimeoutMs: 60_000 },
      models: [],
    },
    index: {
      ignore: ["node_modules/", ".git/", "dist/", "build/", ".venv/", "target/"],
      maxFileBytes: 2 * 1024 * 1024,
      chunkTokens: 400,
      overlapTokens: 80,
      minChunkTokens: 64,
      watch: true,
      followExternalLinks: [],
      decisionFolders: [...DECISION_FOLDERS],
    },
    query: { k: 10, fusion: "calibrated", rrfK: 10, weights: { bm25: 1, vector: 1 }, candidates: 50, includeGlobal: true, dedupeThreshold: 0.9 },
    inject: { budgetChars: 2_000, maxItems: 20, minTermCoverage: 0.35, minSimilarity: 0.45 },
    salience: { ratePerHour: 0.995, reinforce: 1.2, floor: 0.6, weight: 0.25, stalePenalty: 0.9, inPlayBoost: 0.08, decayNotes: false },
    daemon: { idleMs: 30 * 60_000, clientBudgetMs: 250, vectorBudgetMs: 150, indexEveryMs: 5_000, vectorMemoryMB: 512, scanWorkerRows: 20_000, watchMaxDirs: 2_000, watchDebounceMs: 300, watchPollMs: 60_000 },
    memory: { convergeWindowMs: 10 * 60_000 },
    brief: { staleTaskDays: 30 },
    tiers: { user: "", budgets: { identity: 1_536, state: 2_048, references: 1_024, profile: 1_024 } },
    cold: { gitTimeoutMs: 3_000, gitMaxCommits: 50, gitMaxBytes: 4 * 1024 * 1024 },
    maintenance: { coldAfterDays: 90, archiveAfterDays: 90, timeZone: "", keepSnapshots: 5 },
    mcp: { globalWrites: false },
    team: { folder: "", propose: false },
  };
}

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
