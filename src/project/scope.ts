import { resolve } from "node:path";
import { GLOBAL_PROJECT } from "../config/config.js";
import { knownProjects, projectHoldsAnything, storedProjects } from "../store/chunks.js";
import { MemoryError } from "../service/types.js";
import { closeMatches } from "../util/edit-distance.js";
import type { Db } from "../store/db.js";
import { resolveProject, type Project } from "./identity.js";

export { storedProjects };

const isPathArg = (value: string) => value.includes("/") || value.includes("\\") || value === "." || value === "..";

/**
 * Interprets `--project VALUE` for reading commands: a path (contains a slash, or is "." or "..")
 * is resolved like any other path; a stored project id is taken as is; a name matching the base
 * name of exactly one stored path-based project (of indexed files, memories or tasks) means that
 * project.
 */
export function projectFromArg(db: Db, value: string | undefined, cwd: string): Project {
  if (value === undefined) return resolveProject(cwd);
  if (isPathArg(value)) return resolveProject(resolve(cwd, value));
  const stored = knownProjects(db); // indexed files, memories or tasks
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
 * unless `o.create` says to start that project (a typo would otherwise file the memory where no
 * search of the user's looks). A path always names its project, new or not; `global` is always
 * there; a blank value is the current directory's project.
 * @throws MemoryError `unknown_project`, naming the stored projects it resembles and `o.how`, the
 * caller's way to start it (`--new-project`, `newProject: true`).
 */
export function projectToStoreIn(db: Db, value: string | undefined, cwd: string, o: { create?: boolean; how: string }): Project {
  if (value !== undefined && value.trim() === "") return projectFromArg(db, undefined, cwd);
  const project = projectFromArg(db, value, cwd);
  if (value === undefined || o.create === true || isPathArg(value) || project.id === GLOBAL_PROJECT || projectHoldsAnything(db, project.id)) return project;
  const stored = knownProjects(db);
  const shown = JSON.stringify(value.slice(0, 200));
  const sameName = stored.filter((p) => p.split(/[\\/]/).pop() === value);
  const hint = sameName.length > 1 ? ` (${sameName.length} stored projects are folders of that name: ${sameName.slice(0, 5).map((n) => JSON.stringify(n)).join(", ")}; give the one meant by its path)` : nearHint(value, stored);
  throw new MemoryError("unknown_project", `no project ${shown} is stored${hint}; \`mem status\` lists them. To start a project of that name, ${o.how}; a path (./DIR, /abs/DIR) names one too`);
}

/** " (did you mean …?)" naming the stored projects, by id or folder name, within a few edits of `value`; "" when none is. */
function nearHint(value: string, stored: readonly string[]): string {
  const names = [...new Set(stored.flatMap((p) => [p, p.split(/[\\/]/).pop() ?? p]))].filter((n) => n !== "");
  const near = closeMatches(value, names);
  return near.length > 0 ? ` (did you mean ${near.map((n) => JSON.stringify(n)).join(" or ")}?)` : "";
}
