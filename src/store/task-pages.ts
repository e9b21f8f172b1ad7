/**
 * The task registry read a page at a time (the explorer's task list) and a task memory's task: the
 * reads of `tasks` and `task_refs` that ./tasks.ts has no need for. Every query walks an index
 * (`tasks_open`, `tasks_project`, the refs' primary key), so a page costs the same with ten tasks
 * or a hundred thousand.
 */
import { asStoredRow, type CleanFields } from "../redact/clean.cjs";
import type { Db } from "./db.js";
import { prepared } from "./statements.js";
import { COLUMNS, TaskStore, type TaskRow } from "./tasks.js";

/** A project's open tasks, newest first, `limit` from `offset`, and how many there are. */
export function openTasksPage(db: Db, project: string, limit: number, offset: number): { total: number; tasks: CleanFields<TaskRow>[] } {
  new TaskStore(db).ensureBackfilled();
  const total = prepared(db, "SELECT count(*) FROM tasks INDEXED BY tasks_open WHERE project = ? AND closed_at IS NULL").pluck().get(project) as number;
  const sql = `SELECT ${COLUMNS} FROM tasks INDEXED BY tasks_open WHERE project = ? AND closed_at IS NULL ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`;
  const tasks = (prepared(db, sql).all(project, limit, offset) as TaskRow[]).map((r) => asStoredRow(r));
  return { total, tasks };
}

/** A project's most recently closed tasks (done or dropped), the last closed first. */
export function recentlyClosed(db: Db, project: string, limit: number): CleanFields<TaskRow>[] {
  new TaskStore(db).ensureBackfilled();
  const sql = `SELECT ${COLUMNS} FROM tasks WHERE project = ? AND closed_at IS NOT NULL ORDER BY closed_at DESC, id DESC LIMIT ?`;
  return (prepared(db, sql).all(project, limit) as TaskRow[]).map((r) => asStoredRow(r));
}

/**
 * The task a task memory of `project` stands for: the registry's task the memory's session refers
 * to by the memory's session-local id (a tag's or an explicit memory's own id; for a task-list
 * change `<tool id>#task:<local id>`, the local id). Undefined when the registry holds none.
 */
export function taskOfMemory(db: Db, project: string, session: string | null, memoryId: string): CleanFields<TaskRow> | undefined {
  new TaskStore(db).ensureBackfilled();
  const at = memoryId.indexOf("#task:");
  const local = at >= 0 ? memoryId.slice(at + "#task:".length) : memoryId;
  // (task_refs shares no column name with tasks, so the task's columns need no qualifying)
  const sql = `SELECT ${COLUMNS} FROM task_refs r JOIN tasks t ON t.id = r.task_id WHERE r.session = ? AND r.local_id = ? AND t.project = ?`;
  const row = prepared(db, sql).get(session ?? "", local, project) as TaskRow | undefined;
  return row ? asStoredRow(row) : undefined;
}
