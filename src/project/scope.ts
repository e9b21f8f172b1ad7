import { resolve } from "node:path";
import { GLOBAL_PROJECT } from "../config/config.js";
import { projectHoldsAnything, storedProjects } from "../store/chunks.js";
import { MemoryError } from "../service/types.js";
import { closeMatches } from "../util/edit-distance.js";
import type { Db } from "../store/db.js";
import { resolveProject, type Project } from "./identity.js";

export { storedProjects };

const isPathArg = (value: string) => value.includes("/") || value.includes("\\") || value === "." || value === "..";

/**
 * Interprets `--project VALUE` for reading commands: a path (contains a slash, or is "." or "..")
 * is resolved like any other path; a stored project id is taken as is; a name matching the base
 * name of exactly one stored path-based project means that project.
 */
export function projectFromArg(db: Db, value: string | undefined, cwd: string): Project {
  if (value === undefined) return resolveProject(cwd);
  if (isPathArg(value)) return resolveProject(resolve(cwd, value));
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

/**
 * `--project VALUE` for commands that store (remember, import, task add; the daemon's and the MCP
 * server's remember): as projectFromArg, but a bare name under which nothing is stored is refused
 * (a typo would otherwise file the memory where no search of the user's looks). A path always
 * names its project, new or not; `global` is always there. New named projects come from indexing
 * into them (`mem index DIR --project NAME`).
 * @throws MemoryError `unknown_project`, naming the stored projects it resembles.
 */
export function projectToStoreIn(db: Db, value: string | undefined, cwd: string): Project {
  const project = projectFromArg(db, value, cwd);
  if (value === undefined || isPathArg(value) || project.id === GLOBAL_PROJECT || projectHoldsAnything(db, project.id)) return project;
  const names = [...new Set(storedProjects(db).flatMap((p) => [p, p.split(/[\\/]/).pop() ?? p]))].filter((n) => n !== "");
  const near = closeMatches(value, names);
  const shown = JSON.stringify(value.slice(0, 200));
  const hint = near.length > 0 ? ` (did you mean ${near.map((n) => JSON.stringify(n)).join(" or ")}?)` : "";
  throw new MemoryError(
    "unknown_project",
    `no project ${shown} is stored${hint}; \`mem status\` lists them. A path (./DIR or /abs/DIR) names a new project; a new named one starts with \`mem index DIR --project ${shown}\``,
  );
}
