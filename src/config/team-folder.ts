import { statSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.js";

/**
 * The team folder: where `mem share` writes a memory as a MADR file, inside the repository, so
 * teammates review it as code and every clone's mem reads it as a record of the team tier. It is
 * `team.folder` when set, else the first of `index.decisionFolders` the repository already has
 * (a team that keeps `docs/adr` gets its shared memories there), else `docs/decisions`.
 */
export const DEFAULT_TEAM_FOLDER = "docs/decisions";

/** `/`-separated, no leading or trailing slashes. Pure. */
export function normalFolder(f: string): string {
  return f.trim().split(/[\\/]+/).filter((p) => p !== "" && p !== ".").join("/");
}

/** The folders whose markdown files are records: the decision folders and the team folder. Pure. */
export function recordFolders(config: Pick<Config, "index" | "team">): string[] {
  const out = config.index.decisionFolders.map(normalFolder).filter((f) => f !== "");
  const team = normalFolder(config.team.folder);
  if (team !== "" && !out.some((f) => f.toLowerCase() === team.toLowerCase())) out.push(team);
  return out;
}

/**
 * The team folder of the repository at `root`, relative to it: `team.folder`, else the first
 * decision folder `isDir` finds there, else docs/decisions. `isDir` is injected for tests.
 */
export function teamFolder(root: string, config: Pick<Config, "index" | "team">, isDir: (path: string) => boolean = dirExists): string {
  const set = normalFolder(config.team.folder);
  if (set !== "") return set;
  for (const f of config.index.decisionFolders.map(normalFolder)) {
    if (f !== "" && !f.split("/").includes("..") && isDir(join(root, f))) return f;
  }
  return DEFAULT_TEAM_FOLDER;
}

function dirExists(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
