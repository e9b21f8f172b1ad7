import { renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { dataHome } from "../config/paths.cjs";
import { ensurePrivateDir } from "../util/private-dir.cjs";
import { writePrivate } from "../util/private-file.cjs";

/**
 * Appends one line to `<data home>/hooks.log` (rotated at 1 MiB), redacted like everything else mem keeps
 * (an error can quote its input) and on one line. Never throws: logging must never break a hook.
 */
export function hookLog(env: NodeJS.ProcessEnv, line: string): void {
  try {
    const home = dataHome(env);
    ensurePrivateDir(home);
    const file = join(home, "hooks.log");
    try {
      if (statSync(file).size > 1024 * 1024) renameSync(file, `${file}.1`);
    } catch {
      // no log yet
    }
    // Loaded here, not at the top: a hook that logs nothing never pays for the redaction rules.
    const { cleanClip } = require("../redact/clean.cjs") as typeof import("../redact/clean.cjs");
    // Private, never through a symlink, never blocking on a FIFO (src/util/private-file.cts).
    writePrivate(file, `${new Date().toISOString()} ${cleanClip(line, 2000).replace(/\s+/g, " ")}\n`, "append");
  } catch {
    // nowhere to log to
  }
}
