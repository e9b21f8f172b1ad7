/**
 * Times as people read them: how long ago ("just now", "5 min ago", "3 h ago", "2 d ago"), or
 * absolute (UTC, to the second: 2026-11-29T04:44:05Z, what `--absolute` and every `--json` give).
 * Pure: the clock comes in. An unknown time is "".
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const msOf = (time: string | number): number => (typeof time === "number" ? time : Date.parse(time));

/** "just now" (under a minute, or a time a little ahead of this clock), "5 min ago", "5 h ago" (under 48 h), "3 d ago". */
export function relativeTime(time: string | number, now: number): string {
  const t = msOf(time);
  if (!Number.isFinite(t)) return "";
  const ms = Math.max(0, now - t);
  if (ms < MINUTE) return "just now";
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min ago`;
  const h = ms / HOUR;
  return h < 48 ? `${Math.round(h)} h ago` : `${Math.round(h / 24)} d ago`;
}

/** The time in UTC to the second, ISO 8601: `2026-11-29T04:44:05Z`. */
export function absoluteTime(time: string | number): string {
  const t = msOf(time);
  if (!Number.isFinite(t)) return "";
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? "" : d.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** A time as a command prints it: absolute when asked (`--absolute`), else how long ago. */
export const shownTime = (time: string | number, now: number, absolute: boolean): string => (absolute ? absoluteTime(time) : relativeTime(time, now));
