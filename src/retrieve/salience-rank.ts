import { effectiveSalience, rankFactor, type Effective, type SalienceConfig, type SalienceSubject, type Use } from "../memory/salience.js";
import type { Fused } from "./rrf.js";

/**
 * The one ranking formula after fusion (see src/memory/salience.ts):
 *
 *   score = rrf × (1 − w + w × effective salience) × (0.9 when the memory is possibly outdated)
 *
 * so a decision outranks a file read of about the same relevance, and a much better match is never
 * buried. Pure: subjects, uses, staleness and the clock come in. Ties keep the fused order.
 */
export interface SalienceInputs {
  now: number;
  config: SalienceConfig;
  subject: (id: string) => SalienceSubject;
  use: (id: string) => Use | undefined;
  stale?: (id: string) => boolean;
}

export interface Ranked extends Fused {
  /** The fused (RRF) score before salience. */
  rrf: number;
  salience: Effective & { factor: number; stale: boolean; source: SalienceSubject["source"]; tier?: string | null };
}

export function rankBySalience(fused: readonly Fused[], s: SalienceInputs): Ranked[] {
  const out = fused.map((f, i) => {
    const subject = s.subject(f.id);
    const eff = effectiveSalience(subject, s.use(f.id), s.now, s.config);
    const stale = s.stale?.(f.id) ?? false;
    const factor = rankFactor(eff.value, stale, s.config);
    return { r: { ...f, rrf: f.score, score: f.score * factor, salience: { ...eff, factor, stale, source: subject.source, tier: subject.tier ?? null } }, i };
  });
  out.sort((a, b) => b.r.score - a.r.score || a.i - b.i);
  return out.map((x) => x.r);
}
