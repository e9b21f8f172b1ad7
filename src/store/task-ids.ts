/**
 * A task by the id every output shows it with (src/store/one-id.ts `rowOneId`), a start of it (6
 * characters or more), or its number in the store, the older form (`#12`, or `12`). Another
 * project's task is as if absent when `project` is given.
 */
import { MemoryError } from "../util/memory-error.js";
import type { Db } from "./db.js";
import { MIN_ID_CHARS, pickById, rowOneId } from "./one-id.js";
import { prepared } from "./statements.js";
import { TaskStore, type TaskRow } from "./tasks.js";

/** A task's one id. */
export const taskOneId = (n: number): string => rowOneId("task", n);

/** `#12` always, and a bare number too short to be a start of an id (`12`), are a task's number. */
const NUMBER = /^#\d{1,15}$/;
const SHORT_NUMBER = new RegExp(`^\\d{1,${MIN_ID_CHARS - 1}}$`);

/** The task `typed` stands for; a MemoryError (not_found, bad_argument) says why there is none. */
export function resolveTask(db: Db, typed: string, project?: string): TaskRow {
  const store = new TaskStore(db);
  const raw = typed.trim();
  const mine = (t: TaskRow | undefined) => (t && (project === undefined || t.project === project) ? t : undefined);
  const where = project === undefined ? "" : " in this project";
  if (NUMBER.test(raw) || SHORT_NUMBER.test(raw)) {
    const t = mine(store.get(Number(raw.replace(/^#/, ""))));
    if (!t) throw new MemoryError("not_found", `no task ${raw.slice(0, 20)}${where}`);
    return t;
  }
  store.ensureBackfilled();
  const numbers = (project === undefined ? prepared(db, "SELECT id FROM tasks").all() : prepared(db, "SELECT id FROM tasks WHERE project = ?").all(project)) as { id: number }[];
  const picked = pickById(raw, numbers, (r) => taskOneId(r.id), "task");
  if (picked.ok) return store.get(picked.row.id)!;
  // A long number nothing's id starts with: the task of that number, if there is one.
  const byNumber = picked.code === "not_found" && /^\d{1,15}$/.test(raw) ? mine(store.get(Number(raw))) : undefined;
  if (byNumber) return byNumber;
  throw new MemoryError(picked.code, picked.code === "not_found" ? `no task ${raw.slice(0, 80)}${where}` : picked.message);
}
