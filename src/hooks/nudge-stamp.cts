import { statSync } from "node:fs";
import { join } from "node:path";

/**
 * When the install nudge (src/hooks/install-nudge.ts) last read the settings: its own small
 * module, so that SessionStart loads the nudge and the installer's modules only when a check is due.
 */
export const NUDGE_EVERY_MS = 24 * 3600_000;

/** The stamp whose mtime is when the settings were last checked. */
export const nudgeStamp = (home: string) => join(home, "install-nudge");

/** Whether the settings were checked less than NUDGE_EVERY_MS before `now`. */
export function nudgedRecently(home: string, now: number): boolean {
  try {
    return now - statSync(nudgeStamp(home)).mtimeMs < NUDGE_EVERY_MS;
  } catch {
    return false; // never checked
  }
}
