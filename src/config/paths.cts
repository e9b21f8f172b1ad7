import { homedir, platform } from "node:os";
import { join, resolve } from "node:path";

/**
 * The data home holds all of mem's state (SQLite, LanceDB, config, daemon socket).
 * MEM_HOME wins; otherwise the platform's user data directory.
 */
export function dataHome(env: NodeJS.ProcessEnv = process.env, os: string = platform()): string {
  if (env.MEM_HOME && env.MEM_HOME.trim() !== "") return resolve(env.MEM_HOME);
  const home = env.HOME ?? homedir();
  if (os === "darwin") return join(home, "Library", "Application Support", "mem");
  if (os === "win32") return join(env.LOCALAPPDATA ?? join(home, "AppData", "Local"), "mem");
  const xdg = env.XDG_DATA_HOME?.startsWith("/") ? env.XDG_DATA_HOME : join(home, ".local", "share");
  return join(xdg, "mem");
}

/** The explorer's opening page in the data home (src/web/open-page.ts); a purge removes it (src/maintenance/purge-copies.ts). */
export const OPEN_PAGE_FILE = "ui-open.html";

/** The folder (0700) where a long-running process keeps its vector copies' int8 rows, a file each while it runs (src/retrieve/row-file.ts). */
export const VECTOR_ROWS_DIR = "vector-rows";

export interface HomePaths {
  home: string;
  sqlite: string;
  lance: string;
  config: string;
  /** The transformers.js model cache (`<org>/<name>/` folders), unless MEM_MODELS_DIR or the config says otherwise. */
  models: string;
}

export function homePaths(home: string): HomePaths {
  return {
    home,
    sqlite: join(home, "mem.sqlite"),
    lance: join(home, "vectors"),
    config: join(home, "config.json"),
    models: join(home, "models"),
  };
}
