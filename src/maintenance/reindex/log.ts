import { renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { cleanClip } from "../../redact/clean.cjs";
import { ensurePrivateDir } from "../../util/private-dir.cjs";
import { writePrivate } from "../../util/private-file.cjs";

/** The maintenance log in the data home: one line per `mem reindex` run (scheduled runs have no terminal). */
export const MAINTENANCE_LOG = "maintenance.log";

/**
 * Appends one line to `<data home>/maintenance.log` (rotated at 1 MiB), redacted and on one line,
 * private and never through a link. Never throws: a log that cannot be written must not turn a
 * good run into a failed one.
 */
export function maintenanceLog(home: string, line: string, now: number): void {
  try {
    ensurePrivateDir(home);
    const file = join(home, MAINTENANCE_LOG);
    try {
      if (statSync(file).size > 1024 * 1024) renameSync(file, `${file}.1`);
    } catch {
      // no log yet
    }
    writePrivate(file, `${new Date(now).toISOString()} ${cleanClip(line, 4000).replace(/\s+/g, " ")}\n`, "append");
  } catch {
    // nowhere to log to
  }
}
