/**
 * Salience: how much a memory matters now. Pure; the clock and the configuration come in.
 *
 * - Each kind has a default salience: decisions and rejected approaches highest, file reads and
 *   explored paths lowest (`SALIENCE_DEFAULTS`, overridable per kind in config).
 * - A memory's stored salience starts at its kind's default. Being used (injected into a prompt,
 *   shown by `mem query`, confirmed by a later capture, converging with an explicit memory)
 *   reinforces it: × `reinforce` (1.2), capped at 1, and its clock restarts.
 * - Effective salience = stored × rate^(hours since last use), rate 0.995 an hour: a day unused
 *   costs 11%, a week 57%, a month 97%. Decisions and rejected approaches are immortal: they never
 *   go below `floor` (0.6).
 * - Markdown notes the user wrote do not decay by default (`decayNotes`): their tier decides
 *   (hot 1.0, warm 0.8, cold 0.5).
 *
 * Retrieval multiplies the fused score (src/retrieve/fusion.ts) by `rankFactor` = (1 − w + w × effective) × the
 * staleness penalty (0.9 for a memory about a file that changed since): w = `weight` (0.25), so
 * salience moves a result by at most a quarter, enough to put a decision before a file read of
 * about the same relevance, never enough to bury a much better match.
 */
export interface SalienceConfig {
  ratePerHour: number;
  reinforce: number;
  floor: number;
  weight: number;
  stalePenalty: number;
  /** What a memory about a file in play gains in ranking: × (1 + inPlayBoost). */
  inPlayBoost: number;
  decayNotes: boolean;
  /** Default salience by memory kind; kinds not listed get `other`. */
  defaults: Record<string, number>;
}

export const SALIENCE_DEFAULTS: Record<string, number> = {
  decision: 1,
  rejected: 1,
  preference: 0.9,
  learned: 0.85,
  task: 0.8,
  note: 0.7,
  snapshot: 0.6,
  error: 0.55,
  file_modified: 0.45,
  command_run: 0.4,
  tool: 0.3,
  file_explored: 0.2,
  session_end: 0.1,
  notification: 0.05,
  other: 0.5,
};

export const DEFAULT_SALIENCE: SalienceConfig = {
  ratePerHour: 0.995,
  reinforce: 1.2,
  floor: 0.6,
  weight: 0.25,
  stalePenalty: 0.9,
  inPlayBoost: 0.08,
  decayNotes: false,
  defaults: SALIENCE_DEFAULTS,
};

/** The model's configuration from config.json's `salience` section (kind defaults as shipped). */
export function salienceConfig(c: Omit<SalienceConfig, "defaults">): SalienceConfig {
  return { ...c, defaults: SALIENCE_DEFAULTS };
}

/** Kinds that never decay below the floor. */
export const IMMORTAL: ReadonlySet<string> = new Set(["decision", "rejected"]);

/** Salience of a markdown note by its tier (hot notes are what the user keeps in front of the model). */
const TIER_SALIENCE: Record<string, number> = { hot: 1, warm: 0.8, cold: 0.5 };

/** A memory as salience sees it. */
export interface SalienceSubject {
  kind: string;
  /** markdown: a note the user wrote (its tier decides); captured: an event. */
  source: "markdown" | "captured";
  tier?: string | null;
  /** When it was made (ms): the clock of a memory never used. */
  createdAt: number;
}

/** What the store keeps of a memory's use. */
export interface Use {
  salience: number;
  lastUsedAt: number;
  uses: number;
}

export interface Effective {
  /** The effective salience, 0..1. */
  value: number;
  /** The kind's (or tier's) default. */
  base: number;
  /** The stored salience (base when never used). */
  stored: number;
  /** Hours since last use (or since it was made). */
  hours: number;
  /** rate^hours (1 when it does not decay). */
  decay: number;
  /** True when the floor held it up. */
  floored: boolean;
  uses: number;
}

export function baseSalience(m: SalienceSubject, cfg: SalienceConfig = DEFAULT_SALIENCE): number {
  if (m.source === "markdown") return TIER_SALIENCE[m.tier ?? "warm"] ?? TIER_SALIENCE.warm!;
  return cfg.defaults[m.kind] ?? cfg.defaults.other ?? SALIENCE_DEFAULTS.other!;
}

export function effectiveSalience(m: SalienceSubject, use: Use | undefined, now: number, cfg: SalienceConfig = DEFAULT_SALIENCE): Effective {
  const base = baseSalience(m, cfg);
  const stored = use?.salience ?? base;
  const since = use?.lastUsedAt ?? m.createdAt;
  const hours = Number.isFinite(since) ? Math.max(0, (now - since) / 3_600_000) : 0;
  const decays = m.source === "captured" || cfg.decayNotes;
  const decay = decays ? cfg.ratePerHour ** hours : 1;
  let value = stored * decay;
  let floored = false;
  if (IMMORTAL.has(m.kind) && value < cfg.floor) {
    value = Math.min(cfg.floor, stored);
    floored = true;
  }
  return { value, base, stored, hours, decay, floored, uses: use?.uses ?? 0 };
}

/** The use after one more: salience × reinforce (at most 1), clock restarted. */
export function reinforced(m: SalienceSubject, use: Use | undefined, now: number, cfg: SalienceConfig = DEFAULT_SALIENCE): Use {
  const stored = use?.salience ?? baseSalience(m, cfg);
  return { salience: Math.min(1, stored * cfg.reinforce), lastUsedAt: now, uses: (use?.uses ?? 0) + 1 };
}

/**
 * What the fused score is multiplied by (the one ranking formula, see src/retrieve/salience-rank.ts):
 * (1 − weight + weight × effective salience) × (stalePenalty when possibly outdated) × (1 + inPlayBoost
 * when about a file in play).
 */
export function rankFactor(effective: number, stale: boolean, cfg: SalienceConfig = DEFAULT_SALIENCE, inPlay = false): number {
  return (1 - cfg.weight + cfg.weight * effective) * (stale ? cfg.stalePenalty : 1) * (inPlay ? 1 + cfg.inPlayBoost : 1);
}
