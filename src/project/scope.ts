import { resolve } from "node:path";
import { GLOBAL_PROJECT } from "../config/config.js";
import { storedProjects } from "../store/chunks.js";
import type { Db } from "../store/db.js";
import { resolveProject, type Project } from "./identity.js";

export { storedProjects };

/**
 * Interprets `--project VALUE` for reading commands: a path (contains a slash, or is "." or "..")
 * is resolved like any other path; a stored project id is taken as is; a name matching the base
 * name of exactly one stored path-based project means that project.
 */
export function projectFromArg(db: Db, value: string | undefined, cwd: string): Project {
  if (value === undefined) return resolveProject(cwd);
  if (value.includes("/") || value.includes("\\") || value === "." || value === "..") return resolveProject(resolve(cwd, value));
  const stored = storedProjects(db);
  if (new Set<string>(stored).has(value)) return resolveProject(cwd, value);
  const byName = stored.filter((p) => p.split(/[\\/]/).pop() === value);
  if (byName.length === 1) return { id: byName[0]!, name: value, root: byName[0]! };
  return resolveProject(cwd, value);
}

/** Projects a query searches: the current one, plus the user-global memory when configured. */
export function searchScope(project: Project, includeGlobal: boolean): string[] {
  return includeGlobal && project.id !== GLOBAL_PROJECT ? [project.id, GLOBAL_PROJECT] : [project.id];
}
