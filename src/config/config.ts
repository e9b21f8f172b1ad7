import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { SalienceConfig } from "../memory/salience.js";
import type { ModelEntry } from "./catalogue.js";
import { dataHome, homePaths } from "./paths.cjs";

/**
 * The shape of mem's settings and their defaults; src/config/load.ts reads config.json and the
 * environment onto them.
 */
/** Where teams keep their decision records, relative to a repository: a markdown file directly inside one is a record. */
export const DECISION_FOLDERS: readonly string[] = ["docs/adr", "docs/adrs", "docs/decisions", "doc/adr", "doc/adrs", "doc/decisions", "docs/architecture/decisions", "architecture/decisions", "adr", "adrs", "decisions"];

/** The package's root directory (a checkout, or where npm installed it: maybe read-only). */
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
  /** The pre-tool check (src/inject/pretool-check.ts): before an Edit, MultiEdit, Write or Bash call, a warning when it brings back what a decision ruled out. */
  pretool: {
    /** Check tool calls at all (false: the PreToolUse hook answers nothing at once). */
    enabled: boolean;
    /** How long the hook waits for the daemon's check, then lets the call go on unchecked. */
    budgetMs: number;
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
    /** A vector table of this many rows or more is held as compact codes (sign codes and int8, rescored), not float32 (src/retrieve/code-index.ts); 0: always. */
    codeRows: number;
    /** `mem doctor` and the explorer's Health page warn when the running daemon's resident memory is over this (MiB). */
    rssWarnMB: number;
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
  /** Which project a folder belongs to (src/project/). */
  project: {
    /** A folder outside git belongs to the nearest enclosing folder that is a project (something stored, or a `.mem`/`memory/` marker). */
    enclosing: boolean;
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
    pretool: { enabled: true, budgetMs: 150 },
    salience: { ratePerHour: 0.995, reinforce: 1.2, floor: 0.6, weight: 0.25, stalePenalty: 0.9, inPlayBoost: 0.08, decayNotes: false },
    daemon: { idleMs: 30 * 60_000, clientBudgetMs: 250, vectorBudgetMs: 150, indexEveryMs: 5_000, vectorMemoryMB: 1024, scanWorkerRows: 20_000, codeRows: 200_000, rssWarnMB: 1536, watchMaxDirs: 2_000, watchDebounceMs: 300, watchPollMs: 60_000 },
    memory: { convergeWindowMs: 10 * 60_000 },
    project: { enclosing: true },
    brief: { staleTaskDays: 30 },
    tiers: { user: "", budgets: { identity: 1_536, state: 2_048, references: 1_024, profile: 1_024 } },
    cold: { gitTimeoutMs: 3_000, gitMaxCommits: 50, gitMaxBytes: 4 * 1024 * 1024 },
    maintenance: { coldAfterDays: 90, archiveAfterDays: 90, timeZone: "", keepSnapshots: 5 },
    mcp: { globalWrites: false },
    team: { folder: "", propose: false },
  };
}
