import { renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { dataHome } from "../config/paths.cjs";
import { ensurePrivateDir } from "../util/private-dir.cjs";
import { writePrivate } from "../util/private-file.cjs";

/**
 * Appends one line to `<data home>/hooks.log` (rotated at 1 MiB), redacted like everything else mem keeps
 * (an error can quote its input) and on one line. When the log cannot be written (the data home is
 * read-only, full, or not the user's), the line goes to the hook's stderr instead, which Claude
 * Code shows in its debug output: a capture that is lost is never lost in silence. Never throws:
 * logging must never break a hook.
 */
export function hookLog(env: NodeJS.ProcessEnv, line: string): void {
  let text = "";
  try {
    // Loaded here, not at the top: a hook that logs nothing never pays for the redaction rules.
    const { cleanClip } = require("../redact/clean.cjs") as typeof import("../redact/clean.cjs");
    text = cleanClip(line, 2000).replace(/\s+/g, " ");
    const home = dataHome(env);
    ensurePrivateDir(home);
    const file = join(home, "hooks.log");
    try {
      if (statSync(file).size > 1024 * 1024) renameSync(file, `${file}.1`);
    } catch {
      // no log yet
    }
    // Private, never through a symlink, never blocking on a FIFO (src/util/private-file.cts).
    writePrivate(file, `${new Date().toISOString()} ${text}\n`, "append");
  } catch {
    try {
      if (text !== "") process.stderr.write(`mem: ${text}\n`);
    } catch {
      // nowhere to log to
    }
  }
}
