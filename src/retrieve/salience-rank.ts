import { effectiveSalience, rankFactor, type Effective, type SalienceConfig, type SalienceSubject, type Use } from "../memory/salience.js";
import type { InPlayMark } from "./in-play.js";
import type { Fused } from "./rrf.js";

/**
 * The one ranking formula after fusion (see src/memory/salience.ts):
 *
 *   score = rrf × (1 − w + w × effective salience)
 *               × (stalePenalty, 0.9, when the memory is possibly outdated)
 *               × (1 + inPlayBoost, 1.08, when it is about a file in play)
 *
 * rrf = Σ over the legs (BM25, vectors) of weight / (rrfK + rank). So a decision outranks a file
 * read of about the same relevance, a memory about a file being worked on outranks one about
 * another file, and a much better match is never buried (with rrfK 60, × 1.08 lifts a result by
 * about five places). Pure: subjects, uses, staleness, files in play and the clock come in. Ties keep
 * the fused order.
 */
export interface SalienceInputs {
  now: number;
  config: SalienceConfig;
  subject: (id: string) => SalienceSubject;
  use: (id: string) => Use | undefined;
  stale?: (id: string) => boolean;
  /** The file in play a memory is about (src/retrieve/in-play.ts), if any. */
  inPlay?: (id: string) => InPlayMark | undefined;
}

export interface Ranked extends Fused {
  /** The fused (RRF) score before salience. */
  rrf: number;
  salience: Effective & { factor: number; stale: boolean; inPlay?: InPlayMark; source: SalienceSubject["source"]; tier?: string | null };
}

export function rankBySalience(fused: readonly Fused[], s: SalienceInputs): Ranked[] {
  const out = fused.map((f, i) => {
    const subject = s.subject(f.id);
    const eff = effectiveSalience(subject, s.use(f.id), s.now, s.config);
    const stale = s.stale?.(f.id) ?? false;
    const inPlay = s.inPlay?.(f.id);
    const factor = rankFactor(eff.value, stale, s.config, inPlay !== undefined);
    return { r: { ...f, rrf: f.score, score: f.score * factor, salience: { ...eff, factor, stale, ...(inPlay ? { inPlay } : {}), source: subject.source, tier: subject.tier ?? null } }, i };
  });
  out.sort((a, b) => b.r.score - a.r.score || a.i - b.i);
  return out.map((x) => x.r);
}
