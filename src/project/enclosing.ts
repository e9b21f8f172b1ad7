import { lstatSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { cleanText } from "../redact/clean.cjs";
import { projectHoldsAnything } from "../store/chunks.js";
import type { Db } from "../store/db.js";

/**
 * Which folders already are projects, for a folder outside git: one with something stored under
 * it in this data home (memories, tasks, indexed files). Built from the store by `enclosingIn`.
 */
export interface Enclosing {
  isProject(id: string): boolean;
  /** The home folder (never adopted, nor anything above it); the account's by default. */
  home?: string;
  /** This account's uid (tests); the process's by default. */
  uid?: number;
}

/** Folders holding either of these are projects too (`mem init` writes `memory/`; `.mem` is a plain marker). */
export const PROJECT_MARKERS: readonly string[] = [".mem", "memory"];

/**
 * The lookup `resolveProject` takes to adopt an enclosing project, from the store; undefined when
 * `project.enclosing` is off (each folder outside git is then its own project, as before).
 * A store that cannot be read answers "not a project" (the folder stays its own).
 */
export function enclosingIn(db: Db, on: boolean): Enclosing | undefined {
  if (!on) return undefined;
  return {
    isProject: (id) => {
      try {
        return projectHoldsAnything(db, id);
      } catch {
        return false;
      }
    },
  };
}

/**
 * The project a folder outside git belongs to: `dir` itself when it is a project already (see
 * Enclosing) or holds a marker; else the nearest enclosing folder that is; else `dir`. The walk
 * never adopts, and stops at, a folder this account may not trust: one owned by another account
 * (root excepted) or writable by everyone (`/tmp`), whose path another account controls. It never
 * reaches the home folder or the file system's root (every folder would be theirs). `dir` is a real
 * path (symlinks resolved).
 */
export function enclosingProject(dir: string, e: Enclosing): string {
  const uid = e.uid ?? process.getuid?.();
  const home = homeOf(e.home);
  for (let cur = dir; ; cur = dirname(cur)) {
    if (dirname(cur) === cur || cur === home) return dir; // the root, the home folder: never
    if (cur !== dir && !trusted(cur, uid)) return dir;
    if (hasMarker(cur, uid) || e.isProject(cleanText(cur))) return cur;
  }
}

function homeOf(given: string | undefined): string | undefined {
  const h = given ?? (process.env.HOME || homedir());
  if (h === undefined || h === "") return undefined;
  try {
    return realpathSync(h);
  } catch {
    return h;
  }
}

/** Owned by this account (or root) and not writable by everyone. Windows (no uids): any folder. */
function trusted(dir: string, uid: number | undefined): boolean {
  try {
    const st = statSync(dir);
    if (uid === undefined) return true;
    return (st.uid === uid || st.uid === 0) && (st.mode & 0o002) === 0;
  } catch {
    return false;
  }
}

/** A `.mem` (file or folder) or a `memory/` folder of this account's (or root's), not a link. */
function hasMarker(dir: string, uid: number | undefined): boolean {
  return PROJECT_MARKERS.some((name) => {
    try {
      const st = lstatSync(join(dir, name));
      const kind = name === "memory" ? st.isDirectory() : st.isDirectory() || st.isFile();
      return kind && (uid === undefined || st.uid === uid || st.uid === 0);
    } catch {
      return false;
    }
  });
}
