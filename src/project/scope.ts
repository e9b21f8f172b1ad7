import { resolve } from "node:path";
import { GLOBAL_PROJECT } from "../config/config.js";
import { knownProjects, projectHoldsAnything, storedProjects } from "../store/chunks.js";
import { MemoryError } from "../util/memory-error.js";
import { closeMatches } from "../util/edit-distance.js";
import type { Db } from "../store/db.js";
import { resolveProject, type Project } from "./identity.js";
import { enclosingIn } from "./enclosing.js";

export { storedProjects };

const isPathArg = (value: string) => value.includes("/") || value.includes("\\") || value === "." || value === "..";

/**
 * Interprets `--project VALUE` for reading commands: a path (contains a slash, or is "." or "..")
 * is resolved like any other path; a stored project id is taken as is; a name matching the base
 * name of exactly one path-based project with indexed files means that project, else of exactly
 * one holding anything (memories or tasks only); otherwise the name is taken as a project's id.
 * A folder outside git belongs to the enclosing project it sits in (./enclosing.ts) unless
 * `enclosing` (the config's `project.enclosing`) is false.
 */
export function projectFromArg(db: Db, value: string | undefined, cwd: string, enclosing = true): Project {
  if (value === undefined) return resolveProject(cwd, undefined, enclosingIn(db, enclosing));
  if (isPathArg(value)) return resolveProject(resolve(cwd, value), undefined, enclosingIn(db, enclosing));
  const known = knownProjects(db); // indexed files, memories or tasks
  if (new Set<string>(known).has(value)) return resolveProject(cwd, value);
  const one = folderNamed(value, storedProjects(db)) ?? folderNamed(value, known);
  return one !== undefined ? { id: one, name: value, root: one } : resolveProject(cwd, value);
}

/** The one project among `ids` whose folder is named `name`; undefined for none or several. */
function folderNamed<T extends string>(name: string, ids: readonly T[]): T | undefined {
  const byName = sameFolderName(name, ids);
  return byName.length === 1 ? byName[0] : undefined;
}

const sameFolderName = <T extends string>(name: string, ids: readonly T[]): T[] => ids.filter((p) => p.split(/[\\/]/).pop() === name);

/** The project of the folder `dir` (absolute), a folder outside git adopting its enclosing project unless `enclosing` is false. */
export function projectAt(db: Db, dir: string, enclosing = true): Project {
  return resolveProject(dir, undefined, enclosingIn(db, enclosing));
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
export function projectToStoreIn(db: Db, value: string | undefined, cwd: string, o: { create?: boolean; how: string; enclosing?: boolean }): Project {
  const enclosing = o.enclosing ?? true;
  if (value !== undefined && value.trim() === "") return projectFromArg(db, undefined, cwd, enclosing);
  if (value === undefined || isPathArg(value) || value === GLOBAL_PROJECT) return projectFromArg(db, value, cwd, enclosing);
  const stored = knownProjects(db);
  if (new Set<string>(stored).has(value)) return resolveProject(cwd, value); // its id
  const shown = JSON.stringify(value.slice(0, 200));
  const sameName = sameFolderName(value, stored);
  if (o.create === true) {
    // A new project of that name, unless it would be mistaken for one whose folder has the name.
    if (sameName.length === 0) return resolveProject(cwd, value);
    throw new MemoryError("unknown_project", `a stored project's folder is named ${shown} (${sameName.slice(0, 5).map((n) => JSON.stringify(n)).join(", ")}): to use it, leave out the new-project option or give its path; to start a project of its own, choose another name`);
  }
  const project = projectFromArg(db, value, cwd);
  if (projectHoldsAnything(db, project.id)) return project;
  const hint = sameName.length > 1 ? ` (${sameName.length} stored projects are folders of that name: ${sameName.slice(0, 5).map((n) => JSON.stringify(n)).join(", ")}; give the one meant by its path)` : nearHint(value, stored);
  throw new MemoryError("unknown_project", `no project ${shown} is stored${hint}; \`mem status\` lists them. To start a project of that name, ${o.how}; a path (./DIR, /abs/DIR) names one too`);
}

/** " (did you mean …?)" naming the stored projects, by id or folder name, within a few edits of `value`; "" when none is. */
function nearHint(value: string, stored: readonly string[]): string {
  const names = [...new Set(stored.flatMap((p) => [p, p.split(/[\\/]/).pop() ?? p]))].filter((n) => n !== "");
  const near = closeMatches(value, names);
  return near.length > 0 ? ` (did you mean ${near.map((n) => JSON.stringify(n)).join(" or ")}?)` : "";
}
