/**
 * The real assistant CLIs the live tests drive (test/live/): `MEM_<NAME>_BIN` when set (a path
 * that does not exist means "none here"), else the command on PATH, else undefined (the test skips).
 * `.ci/run` installs Claude Code, Codex and Gemini CLI under .ci/ and sets the variables.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

export function findBin(variable: string, command: string): string | undefined {
  const set = process.env[variable];
  if (set) return existsSync(set) ? set : undefined;
  try {
    return execFileSync("which", [command], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}
