/**
 * What the pre-tool check reads from the store for a project (src/inject/pretool-check.ts): its
 * decisions and rejected approaches (and the user's global ones), then the team's decision
 * records, whose turned-down options it warns about as a rejected approach (src/team/turned-down.ts).
 * Read once into a check set: the daemon keeps it while the store is unchanged (src/daemon/pretool-op.ts).
 */
import { isAbsolute, resolve } from "node:path";
import type { Db } from "../store/db.js";
import { ruledMemories, ruledRecords } from "../store/pretool-memories.js";
import { recordStatements } from "../team/turned-down.js";
import { checkSet, type CheckMemory, type CheckSet } from "./pretool-match.js";

/** The check set of `projects` (the session's `project` first), its captured files relative to `root` made absolute. */
export type ChecksOf = (db: Db, projects: readonly string[], project: string, root: string | undefined) => CheckSet;

export const loadChecks: ChecksOf = (db, projects, project, root) => {
  // Files as captured may be relative to the project's root: the check compares absolute paths.
  const memories: CheckMemory[] = ruledMemories(db, projects).map((r) => ({
    id: r.id,
    project: r.project,
    kind: r.type,
    text: r.text,
    time: r.time,
    files: r.files.map((f) => (isAbsolute(f) || !root || r.project !== project ? f : resolve(root, f))),
  }));
  for (const r of ruledRecords(db, projects)) {
    for (const s of recordStatements(r.kind, r.title, r.text)) memories.push({ id: r.chunk, chunk: r.chunk, project: r.project, kind: s.kind, text: s.text, time: r.date, files: [], ...(s.instead ? { instead: s.instead } : {}) });
  }
  return checkSet(memories);
};
