import { existsSync, rmSync } from "node:fs";
import { readRegular } from "../util/read-regular.cjs";
import { writePrivate } from "../util/private-file.cjs";
import { join } from "node:path";
import { cleanText } from "../redact/clean.cjs";
import { field } from "../render/line.js";
import { MARKER_FILE } from "./flags.js";

/**
 * The marker a hook leaves in the data home when it finds the store damaged: what, since when.
 * The SessionStart briefing reads it, so the user hears of it in the next session rather than
 * only in hooks.log; the first hook that uses the store again (or a repair) removes it.
 */
export interface DamageMarker {
  what: string;
  since: string;
  hook?: string;
}

export const markerPath = (home: string) => join(home, MARKER_FILE);

export function readMarker(home: string): DamageMarker | undefined {
  try {
    const r = readRegular(markerPath(home), 64 * 1024); // a FIFO or a device there is no marker
    if (!r.ok) return undefined;
    const m = JSON.parse(r.data.toString("utf8")) as Partial<DamageMarker>;
    return typeof m.what === "string" && typeof m.since === "string" ? (m as DamageMarker) : undefined;
  } catch {
    return undefined;
  }
}

/** Records the damage unless a marker is already there; true when this call created it. Private (0600), redacted. */
export function recordMarker(home: string, what: string, now: number, hook?: string): boolean {
  if (readMarker(home)) return false;
  const path = markerPath(home);
  const m: DamageMarker = { what: cleanText(what).slice(0, 500), since: new Date(now).toISOString(), ...(hook ? { hook } : {}) };
  writePrivate(path, `${JSON.stringify(m)}\n`, "replace");
  return true;
}

export function clearMarker(home: string): boolean {
  if (!existsSync(markerPath(home))) return false;
  rmSync(markerPath(home), { force: true });
  return true;
}

/** The one briefing line. `spooled`: captures are kept aside until the repair. */
export function damageLine(m: DamageMarker, spooled: boolean): string {
  const since = m.since.replace("T", " ").replace(/\.\d+Z$/, " UTC");
  const captures = spooled ? "captures are not being saved to it (they wait in a spool file until it is repaired)" : "captures are not being saved";
  return `mem: the memory store is damaged (${field(m.what, 300)}) since ${field(since, 40)}; ${captures}. Run \`mem doctor --repair\`.`;
}
