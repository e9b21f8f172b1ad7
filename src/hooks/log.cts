import { appendFileSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { dataHome } from "../config/paths.cjs";
import { ensurePrivateDir } from "../util/private-dir.cjs";

/** Appends one line to `<data home>/hooks.log` (rotated at 1 MiB). Never throws: logging must never break a hook. */
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
    appendFileSync(file, `${new Date().toISOString()} ${line.replace(/\s+/g, " ").slice(0, 2000)}\n`, { mode: 0o600 });
  } catch {
    // nowhere to log to
  }
}
