import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Creates the data home readable by its owner only (0700): it holds what was captured from the
 * user's sessions. Its parents are made as usual; an existing directory is left as it is (`mem
 * doctor` warns when others can read it). CommonJS and tiny: the hook entry's log uses it.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dirname(dir), { recursive: true });
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
}
