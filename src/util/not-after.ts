/**
 * Times that come from outside (an imported line, a transcript, a hook's payload) are never later
 * than now: a memory dated in the future would rank as the newest for years (recency, salience).
 * Pure: the clock comes in.
 */

/** `iso` as it is when it is a time up to `now`; else `now` (a future or unreadable time), and says so. */
export function notAfter(iso: string, now: number): { iso: string; clamped: boolean } {
  const t = Date.parse(iso);
  if (Number.isNaN(t) || t > now) return { iso: new Date(now).toISOString(), clamped: true };
  return { iso, clamped: false };
}
