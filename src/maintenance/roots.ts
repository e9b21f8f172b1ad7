import { statSync } from "node:fs";
import { basename } from "node:path";
import type { Project } from "../project/identity.js";
import { cleanText } from "../redact/clean.cjs";
import type { Db } from "../store/db.js";
import { listRoots } from "../store/roots.js";

/** The registered roots of the projects (what `mem index` was pointed at), as maintenance walks them. */

/** A root is there when it is a directory or a file (a single indexed file). */
const present = (path: string) => {
  try {
    const st = statSync(path);
    return st.isDirectory() || st.isFile();
  } catch {
    return false;
  }
};

export function projectOf(id: string): Project {
  return { id: cleanText(id), name: basename(id) || id, root: id.startsWith("/") || /^[A-Za-z]:[\\/]/.test(id) ? id : undefined };
}

/** Roots of every project, split into those on disk and those missing. */
export function registeredRoots(db: Db): Map<string, { present: string[]; missing: string[] }> {
  const out = new Map<string, { present: string[]; missing: string[] }>();
  for (const r of listRoots(db)) {
    const g = out.get(r.project) ?? { present: [], missing: [] };
    (present(r.path) ? g.present : g.missing).push(r.path);
    out.set(r.project, g);
  }
  return out;
}

