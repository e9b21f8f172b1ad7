/**
 * The allowed range of every numeric setting in config.json. CommonJS with no imports: the hook
 * entry checks `daemon.clientBudgetMs` against it without loading the config module.
 */

/** Node's timers fire at once (after a warning) when given more than this. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export interface Range {
  min: number;
  max: number;
  /** Whole numbers only. */
  integer: boolean;
  /** `min` itself is excluded: (min, max]. */
  above?: boolean;
}

const int = (min: number, max: number): Range => ({ min, max, integer: true });
const num = (min: number, max: number, above = false): Range => ({ min, max, integer: false, ...(above ? { above } : {}) });
/** Timers that repeat or end the daemon: a floor so that none can spin. */
const timer = (min = 100): Range => int(min, MAX_TIMER_MS);

export const RANGES: Readonly<Record<string, Range>> = {
  "embedding.batchSize": int(1, 4096),
  "embedding.concurrency": int(1, 64),
  "embedding.ollama.timeoutMs": timer(1),
  "embedding.ollama.healthTimeoutMs": timer(1),
  "embedding.transformers.loadTimeoutMs": timer(1),
  "index.maxFileBytes": int(1, 2 ** 30),
  "index.chunkTokens": int(8, 8192),
  // overlapTokens and minChunkTokens must also be below chunkTokens
  "index.overlapTokens": int(0, 8191),
  "index.minChunkTokens": int(0, 8191),
  "query.k": int(1, 1000),
  "query.rrfK": num(0, 1e6, true),
  "query.weights.bm25": num(0, 1000),
  "query.weights.vector": num(0, 1000),
  "query.candidates": int(1, 10_000),
  "query.dedupeThreshold": num(0, 1, true),
  // a hook prints at most 9,000 characters of context
  "inject.budgetChars": int(1, 9000),
  "inject.maxItems": int(1, 100),
  "inject.minTermCoverage": num(0, 1),
  "inject.minSimilarity": num(0, 1),
  "salience.ratePerHour": num(0, 1, true),
  "salience.reinforce": num(1, 10),
  "salience.floor": num(0, 1),
  "salience.weight": num(0, 1),
  "salience.stalePenalty": num(0, 1, true),
  "salience.inPlayBoost": num(0, 1),
  "pretool.budgetMs": int(10, 1_400),
  "daemon.idleMs": timer(),
  "daemon.clientBudgetMs": timer(),
  "daemon.vectorBudgetMs": timer(),
  "daemon.indexEveryMs": timer(),
  "daemon.vectorMemoryMB": num(0, 2 ** 20, true),
  "daemon.scanWorkerRows": int(0, 2 ** 31 - 1),
  "daemon.codeRows": int(0, 2 ** 31 - 1),
  "daemon.rssWarnMB": num(0, 2 ** 20, true),
  "daemon.watchMaxDirs": int(0, 1_000_000),
  "daemon.watchDebounceMs": int(10, 60_000),
  "daemon.watchPollMs": timer(1_000),
  "memory.convergeWindowMs": int(0, 7 * 24 * 3_600_000),
  "brief.staleTaskDays": int(1, 36_500),
  "tiers.budgets.identity": int(1, 2 ** 30),
  "tiers.budgets.state": int(1, 2 ** 30),
  "tiers.budgets.references": int(1, 2 ** 30),
  "tiers.budgets.profile": int(1, 2 ** 30),
  "cold.gitTimeoutMs": timer(1),
  "cold.gitMaxCommits": int(1, 1000),
  "cold.gitMaxBytes": int(1024, 2 ** 28),
  "maintenance.coldAfterDays": int(1, 36_500),
  "maintenance.archiveAfterDays": int(1, 36_500),
  "maintenance.keepSnapshots": int(1, 1_000),
};

export function inRange(v: number, r: Range): boolean {
  return Number.isFinite(v) && (r.above ? v > r.min : v >= r.min) && v <= r.max && (!r.integer || Number.isInteger(v));
}

/** `"key" must be an integer in [100, 2147483647], got 1000000000000` */
export function rangeError(key: string, v: number, r: Range): string {
  return `"${key}" must be ${r.integer ? "an integer" : "a number"} in ${r.above ? "(" : "["}${r.min}, ${r.max}], got ${v}`;
}
