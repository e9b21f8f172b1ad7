import { effectiveSalience, rankFactor, type Effective, type SalienceConfig, type SalienceSubject, type Use } from "../memory/salience.js";
import type { InPlayMark } from "./in-play.js";
import type { Fused } from "./rrf.js";

/**
 * The one ranking formula after fusion (see src/memory/salience.ts): priors are tie-breakers.
 *
 *   factor = (1 − w + w × effective salience)
 *            × (stalePenalty, 0.9, when the memory is possibly outdated)
 *            × (1 + inPlayBoost, 1.08, when it is about a file in play)
 *   score  = fused + margin × (prior − 1) / (1 − lowest prior), kept within ± margin
 *                  + 0.35 when it is about a file in play (the work at hand, not a prior)
 *   (prior: the factor without the in-play term)
 *
 * The fused score is 0 to 1 (src/retrieve/fusion.ts), so salience, kind, tier, recency, staleness
 * reorder results whose evidence is within `margin` (0.1) of each other: a
 * decision outranks a file read of about the same relevance, a memory about a file being worked on
 * one about another file; a clear margin of evidence is never overturned (a hot note that barely
 * matches stays below the decision that answers). Pure: subjects, uses, staleness, files in play
 * and the clock come in. Ties keep the fused order.
 */
export interface SalienceInputs {
  now: number;
  config: SalienceConfig;
  subject: (id: string) => SalienceSubject;
  use: (id: string) => Use | undefined;
  stale?: (id: string) => boolean;
  /** The file in play a memory is about (src/retrieve/in-play.ts), if any. */
  inPlay?: (id: string) => InPlayMark | undefined;
  /** How far apart in fused score results may be for priors to reorder them (default 0.1). */
  margin?: number;
}

/** The default `margin`: a tenth of the fused scale. */
export const PRIOR_MARGIN = 0.1;

/** What being about a file in play adds to the fused score: evidence of the work at hand, not a prior of the memory; it lifts past a gap of up to 0.35 (about a third of the best score). */
export const IN_PLAY_LIFT = 0.35;

export interface Ranked extends Fused {
  /** The fused score before the priors. */
  rrf: number;
  salience: Effective & { factor: number; stale: boolean; inPlay?: InPlayMark; source: SalienceSubject["source"]; tier?: string | null };
}

export function rankBySalience(fused: readonly Fused[], s: SalienceInputs): Ranked[] {
  const margin = s.margin ?? PRIOR_MARGIN;
  const span = Math.max(1e-9, 1 - (1 - s.config.weight) * s.config.stalePenalty);
  const out = fused.map((f, i) => {
    const subject = s.subject(f.id);
    const eff = effectiveSalience(subject, s.use(f.id), s.now, s.config);
    const stale = s.stale?.(f.id) ?? false;
    const inPlay = s.inPlay?.(f.id);
    const factor = rankFactor(eff.value, stale, s.config, inPlay !== undefined);
    const prior = rankFactor(eff.value, stale, s.config, false);
    const shift = Math.max(-margin, Math.min(margin, (margin * (prior - 1)) / span)) + (inPlay !== undefined && s.config.inPlayBoost > 0 ? IN_PLAY_LIFT : 0);
    return { r: { ...f, rrf: f.score, score: f.score + shift, salience: { ...eff, factor, stale, ...(inPlay ? { inPlay } : {}), source: subject.source, tier: subject.tier ?? null } }, i };
  });
  out.sort((a, b) => b.r.score - a.r.score || a.i - b.i);
  return out.map((x) => x.r);
}
