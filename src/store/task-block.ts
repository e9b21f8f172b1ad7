import type { Clean, CleanFields } from "../redact/clean.cjs";
import type { Db } from "./db.js";
import { prepared } from "./statements.js";
import { TaskStore, type TaskRow } from "./tasks.js";

/**
 * Blocking a task of the registry (`mem task block`, the MCP `tasks` tool, the explorer): it stays
 * open, with status `blocked` and the reason given, until it is unblocked (back to pending) or some
 * session or command closes it. A session's task list carrying it on as pending or in progress does
 * not unblock it (src/tasks/state.ts `capturedStatus`).
 */
export interface BlockResult {
  task: CleanFields<TaskRow>;
  changed: boolean;
  /** Why nothing changed: the task is closed, or (unblock) was not blocked. */
  why?: "closed" | "not_blocked";
}

/** Blocks task `id` with `reason` (a new reason replaces the old); undefined when there is no such task. */
export function blockTask(db: Db, id: number, reason: Clean<string>, now: number): BlockResult | undefined {
  const store = new TaskStore(db);
  const t = store.get(id);
  if (!t) return undefined;
  if (t.closedAt !== null) return { task: t, changed: false, why: "closed" };
  if (t.status === "blocked" && t.blockedReason === reason) return { task: t, changed: false };
  prepared(db, "UPDATE tasks SET status = 'blocked', blocked_reason = ?, updated_session = NULL, updated_at = ? WHERE id = ?").run(reason, now, id);
  return { task: store.get(id)!, changed: true };
}

/** Unblocks task `id` (back to pending, its reason cleared); undefined when there is no such task. */
export function unblockTask(db: Db, id: number, now: number): BlockResult | undefined {
  const store = new TaskStore(db);
  const t = store.get(id);
  if (!t) return undefined;
  if (t.closedAt !== null) return { task: t, changed: false, why: "closed" };
  if (t.status !== "blocked") return { task: t, changed: false, why: "not_blocked" };
  prepared(db, "UPDATE tasks SET status = 'pending', blocked_reason = NULL, updated_session = NULL, updated_at = ? WHERE id = ?").run(now, id);
  return { task: store.get(id)!, changed: true };
}
