import { IMMORTAL } from "../../memory/salience.js";
import type { TierRow } from "../../store/tiering.js";

/**
 * Which warm memories go cold. Pure: the clock and the threshold come in.
 *
 * A chunk of a file whose layout makes it warm (a note, a reference file, a session log, a
 * captured session) is cold while it has been inactive for `coldAfterDays`, warm otherwise: its
 * last activity is the latest of its file's mtime (an edit), its own date (an event's time), a
 * memory's last edit, and its last use (injected, shown by `mem query`, confirmed, converged).
 * Decisions and rejected approaches are exempt: their salience never falls below a floor, and the
 * briefing projects over every one of them, so they stay warm however old. A chunk whose age cannot be told (no date, no
 * mtime, never used) stays as it is. A cold chunk used again is warm at the next run.
 */
/** A chunk as the store reads it for the job (`TierRow`); a memory's last edit may be unknown. */
export type TierSubject = Omit<TierRow, "updated_at"> & { updated_at?: number | null };

export interface TierPlan {
  /** Chunks to move to the cold tier. */
  toCold: string[];
  /** Cold chunks used (or edited) again, back to warm; and exempt kinds found cold. */
  toWarm: string[];
  /** Stale chunks kept warm because their kind is exempt. */
  exempt: number;
  /** Chunks inactive past the threshold (whatever their tier now). */
  stale: number;
}

const DAY_MS = 86_400_000;

/** The last time anything happened to a chunk (ms), or undefined when nothing tells. */
export function lastActive(s: Pick<TierSubject, "date" | "mtime_ms" | "last_used_at" | "updated_at">): number | undefined {
  const made = s.date ? Date.parse(s.date) : Number.NaN;
  const t = Math.max(Number.isFinite(made) ? made : 0, s.mtime_ms > 0 ? s.mtime_ms : 0, s.last_used_at ?? 0, s.updated_at ?? 0);
  return t > 0 ? t : undefined;
}

export function isExempt(kind: string): boolean {
  return IMMORTAL.has(kind);
}

/** The tier a warm-layout chunk should have now. */
export function tierFor(s: TierSubject, now: number, coldAfterDays: number): "warm" | "cold" {
  if (isExempt(s.kind)) return "warm";
  const t = lastActive(s);
  if (t === undefined) return s.tier === "cold" ? "cold" : "warm";
  return now - t >= coldAfterDays * DAY_MS ? "cold" : "warm";
}

export function planTiers(rows: readonly TierSubject[], now: number, coldAfterDays: number): TierPlan {
  const plan: TierPlan = { toCold: [], toWarm: [], exempt: 0, stale: 0 };
  for (const r of rows) {
    const t = lastActive(r);
    const stale = t !== undefined && now - t >= coldAfterDays * DAY_MS;
    if (stale) plan.stale++;
    if (stale && isExempt(r.kind)) plan.exempt++;
    const want = tierFor(r, now, coldAfterDays);
    if (want === "cold" && r.tier !== "cold") plan.toCold.push(r.id);
    else if (want === "warm" && r.tier === "cold") plan.toWarm.push(r.id);
  }
  return plan;
}
