/**
 * The data home and its config, as `mem doctor` and the explorer's health page check them: the
 * home writable and private to the user, MEM_HOME absolute, the config's warnings.
 */
import { accessSync, constants, rmSync, statSync, writeFileSync } from "node:fs";
import { closedFrom } from "../util/closed-dirs.cjs";
import { isAbsolute, join } from "node:path";
import type { AppConfig } from "../app.js";
import { field } from "../render/line.js";
import { ensurePrivateDir } from "../util/private-dir.cjs";
import type { Check } from "./check.js";

/** The data home: usable (made private, writable), and MEM_HOME an absolute path. */
export function homeCheck(app: AppConfig, env: NodeJS.ProcessEnv): Check {
  const c = homeUsable(app);
  const given = env.MEM_HOME?.trim() ?? "";
  // Resolved against the directory each command and hook runs in (a hook: the project's): a store per project, inside it.
  if (c.status === "ok" && given !== "" && !isAbsolute(given)) {
    return { name: "data home", status: "warn", detail: `MEM_HOME is a relative path (${field(given, 200)}): each directory mem runs in (each project, for the hooks) gets a store of its own there; here it is ${app.paths.home}`, fix: "set MEM_HOME to an absolute path" };
  }
  return c;
}

/** The data home made (private) if need be, writable, and not open to other users. */
export function homeUsable(app: AppConfig): Check {
  try {
    const before = closedFrom(app.paths.home) ?? modeOf(app.paths.home); // the app may have closed it already, on opening
    ensurePrivateDir(app.paths.home); // closes one of ours that was opened to others

    accessSync(app.paths.home, constants.W_OK);
    const probe = join(app.paths.home, `.doctor-${process.pid}`);
    writeFileSync(probe, "ok");
    rmSync(probe);
    const mode = statSync(app.paths.home).mode & 0o777;
    if (process.platform !== "win32" && (mode & 0o077) !== 0) {
      return { name: "data home", status: "warn", detail: `${app.paths.home} is open to other users (mode ${mode.toString(8)}), and it holds what was captured from your sessions`, fix: `chmod 700 ${app.paths.home}` };
    }
    if (process.platform !== "win32" && before !== undefined && (before & 0o077) !== 0) {
      return { name: "data home", status: "warn", detail: `${app.paths.home} was open to other users (mode ${before.toString(8)}), and it holds what was captured from your sessions: mem closed it (mode ${mode.toString(8)})`, fix: "nothing left to do; if it opens again, look for what changes it (a chmod, a sync tool)" };
    }
    return { name: "data home", status: "ok", detail: app.paths.home };
  } catch (err) {
    return { name: "data home", status: "error", detail: `${app.paths.home}: ${(err as Error).message}`, fix: "make it writable, or point MEM_HOME elsewhere" };
  }
}

function modeOf(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return undefined;
  }
}

/** The config's warnings (an unknown key, a value out of range), one check each. */
export function configWarningChecks(base: AppConfig): Check[] {
  return base.configWarnings.map((w): Check => ({ name: "config", status: "warn", detail: w, fix: `edit ${base.paths.config}` }));
}
