import { effectiveSalience, type SalienceConfig } from "../../memory/salience.js";
import { subjectOfChunk } from "../../memory/subject.js";
import type { UseRow } from "../../store/tiering.js";

/**
 * Decay, recomputed for every memory at the job's clock. Nothing is written back: the store keeps
 * each memory's reinforced salience and when it was last used, and effective salience is always
 * derived from those and the clock when it is read (src/memory/salience.ts), so folding the decay
 * into the stored value would count it twice. The job reports where the memories stand. Pure.
 */
export interface DecaySummary {
  /** Chunks looked at. */
  memories: number;
  /** Those whose salience decays (captured memories; notes too with salience.decayNotes). */
  decaying: number;
  /** Decaying memories whose effective salience is now below 0.1. */
  faded: number;
  /** Decisions and rejected approaches held up by the floor. */
  floored: number;
  /** Memories used at least once. */
  used: number;
}

/** A chunk with its recorded use, as the store reads it for the job. */
export type DecayRow = UseRow;

export const FADED = 0.1;

export function decaySummary(rows: readonly DecayRow[], now: number, cfg: SalienceConfig): DecaySummary {
  const out: DecaySummary = { memories: rows.length, decaying: 0, faded: 0, floored: 0, used: 0 };
  for (const r of rows) {
    const subject = subjectOfChunk(r);
    const use = r.salience !== null && r.last_used_at !== null ? { salience: r.salience, lastUsedAt: r.last_used_at, uses: r.uses ?? 0 } : undefined;
    const e = effectiveSalience(subject, use, now, cfg);
    if (use && use.uses > 0) out.used++;
    if (subject.source === "captured" || cfg.decayNotes) {
      out.decaying++;
      if (e.value < FADED) out.faded++;
    }
    if (e.floored) out.floored++;
  }
  return out;
}
