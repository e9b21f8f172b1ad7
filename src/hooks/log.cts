import { closeSync, constants, fstatSync, openSync, renameSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { dataHome } from "../config/paths.cjs";
import { ensurePrivateDir } from "../util/private-dir.cjs";

/** Opening for append without waiting: a FIFO with no reader fails (ENXIO) instead of blocking the hook. */
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NONBLOCK ?? 0);

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
    const { cleanText } = require("../redact/clean.cjs") as typeof import("../redact/clean.cjs");
    const fd = openSync(file, APPEND, 0o600);
    try {
      if (fstatSync(fd).isFile()) writeSync(fd, `${new Date().toISOString()} ${cleanText(line.replace(/\s+/g, " ").slice(0, 4000)).slice(0, 2000)}\n`);
    } finally {
      closeSync(fd);
    }
  } catch {
    // nowhere to log to
  }
}
