import { realpathSync, statSync } from "node:fs";
import { ownGitAt } from "./git-marker.js";
import { enclosingProject, type Enclosing } from "./enclosing.js";
import { basename, dirname, join, resolve, sep } from "node:path";
import { cleanText, type Clean } from "../redact/clean.cjs";

export interface Project {
  /**
   * The stored key: the real path of the git top level or directory, or the name given with --project;
   * redacted (a secret-shaped directory name is stored as its redaction, everywhere alike).
   */
  id: Clean<string>;
  /** Short human name (basename of the root, or the override). */
  name: string;
  /** Directory the project lives in, when it is path-based. */
  root: string | undefined;
}

/**
 * Resolves symlinks where the path exists; for a path that does not exist (yet), resolves its
 * nearest existing ancestor and keeps the missing tail, so a link into a repo still belongs to it.
 */
function real(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    const parent = dirname(abs);
    return parent === abs ? abs : join(real(parent), basename(abs));
  }
}

/**
 * The one function every entry point uses to say which project a path belongs to:
 * the nearest enclosing git top level (a `.git` directory, or a `.git` file for worktrees and
 * submodules); outside git, with `within` (the store's projects, when `project.enclosing` is on),
 * the nearest enclosing folder that already is a project or holds a marker (./enclosing.ts);
 * else the directory itself. Symlinks are resolved first, so a link into a repo
 * belongs to that repo. `override` (from `--project NAME`) wins. Walking up is done on the
 * file system (no `git` process) because hooks call this on every prompt.
 */
export function resolveProject(path: string, override?: string, within?: Enclosing): Project {
  if (override !== undefined && override.trim() !== "") {
    const name = override.trim();
    return { id: cleanText(name), name, root: undefined };
  }
  let dir = real(path);
  try {
    if (!statSync(dir).isDirectory()) dir = dirname(dir);
  } catch {
    // a path that does not exist yet: treat it as a directory
  }
  const top = gitTop(dir);
  if (top !== undefined) return { id: cleanText(top), name: basename(top) || top, root: top };
  const own = within === undefined ? dir : enclosingProject(dir, within);
  return { id: cleanText(own), name: basename(own) || own, root: own };
}

/** The nearest enclosing git top level of a real directory (a `.git` directory or file), if any. */
function gitTop(dir: string): string | undefined {
  for (let cur = dir; ; cur = dirname(cur)) {
    if (ownGitAt(cur)) return cur; // another account's .git (/tmp/.git) is no repository of ours
    if (dirname(cur) === cur) return undefined;
  }
}

/**
 * The project `mem index PATH` files PATH's notes under when run in `cwd` with no --project: the
 * git top level of PATH when it is in a repository, as resolveProject says; outside git, the
 * project of the folder the command runs in when PATH lies inside it (so `mem index notes` in a
 * folder that is no repository files the notes where that folder's sessions and queries look),
 * else PATH's own folder. The folder it runs in is never the file system's root nor `home`.
 */
export function indexedProject(path: string, cwd: string, home?: string): Project {
  const own = resolveProject(path);
  const at = real(path);
  if (gitTop(own.root ?? at) !== undefined) return own;
  const here = resolveProject(cwd);
  const base = here.root;
  // Never the file system's root or the home folder: every path would be theirs.
  if (base === undefined || dirname(base) === base || (home !== undefined && base === real(home))) return own;
  return at === base || at.startsWith(base + sep) ? here : own;
}
