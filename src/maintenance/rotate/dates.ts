/**
 * Calendar days in the user's time zone, for naming and ageing session logs. Pure: the instant
 * and the zone come in ("" or undefined: the system's zone).
 */
const formats = new Map<string, Intl.DateTimeFormat>();

function format(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? "";
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { ...(key ? { timeZone: key } : {}), year: "numeric", month: "2-digit", day: "2-digit" });
    formats.set(key, f);
  }
  return f;
}

/** The calendar day (YYYY-MM-DD) of instant `ms` in `timeZone`. */
export function dayIn(ms: number, timeZone?: string): string {
  const parts = Object.fromEntries(format(timeZone).formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** The day `days` before the day of `now` in `timeZone`: logs dated before it are old enough to archive. */
export function cutoffDay(now: number, days: number, timeZone?: string): string {
  const [y, m, d] = dayIn(now, timeZone).split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d - days)).toISOString().slice(0, 10);
}

/** The date a session log's file name starts with (`2026-11-18.md`, `2026-11-18-2.md`), if it is a real day. */
export function datedLog(name: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[-_. ][^/]*)?\.mdx?$/i.exec(name);
  if (!m) return undefined;
  const day = `${m[1]}-${m[2]}-${m[3]}`;
  const t = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === day ? day : undefined;
}
