import { ChunkStore } from "../../store/chunks.js";
import type { Db } from "../../store/db.js";
import { registeredRoots } from "../roots.js";
import { rotateRoot, type RotateOptions, type RotateReport } from "./rotate.js";

/** Rotation over the registered roots of every project (or of `projects`), with the projects where something moved. */
export function rotateRegistered(db: Db, o: RotateOptions & { projects?: readonly string[] }): RotateReport & { changed: string[] } {
  const out: RotateReport & { changed: string[] } = { rotated: [], archived: [], warnings: [], changed: [] };
  const store = new ChunkStore(db);
  for (const [project, g] of registeredRoots(db)) {
    if (o.projects && !o.projects.includes(project)) continue;
    const indexed = store.sourcesOf(project).map((s) => s.path);
    let moved = 0;
    for (const root of g.present) {
      const r = rotateRoot(root, indexed, o);
      out.rotated.push(...r.rotated);
      out.archived.push(...r.archived);
      out.warnings.push(...r.warnings);
      moved += r.rotated.length + r.archived.length;
    }
    if (moved > 0) out.changed.push(project);
  }
  return out;
}
