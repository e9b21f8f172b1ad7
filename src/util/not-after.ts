/**
 * Times that come from outside (an imported line, a transcript, a hook's payload) are never later
 * than now, and are stored in one form: a memory dated in the future would rank as the newest for
 * years (recency, salience), and stored times are compared and sorted as text, so a time in
 * another form ("Sep 1 2020", an offset like +14:00) would sort among the wrong ones.
 * Pure: the clock comes in.
 */

/**
 * `iso` as a UTC ISO time (`2026-11-27T12:00:00.000Z`) when it is a time up to `now`; else `now`
 * (a future or unreadable time), and says so.
 */
export function notAfter(iso: string, now: number): { iso: string; clamped: boolean } {
  const t = Date.parse(iso);
  if (Number.isNaN(t) || t > now) return { iso: new Date(now).toISOString(), clamped: true };
  return { iso: new Date(t).toISOString(), clamped: false };
}
