/**
 * A task as `mem task` and `mem list --kind task` show it: one line for people, one object for
 * --json (its shape is in `mem task --help`). Pure.
 */
import { blockedNote, createdBy, isStale } from "../brief/sections/tasks.js";
import { field, prose } from "../render/line.js";
import { shownTime } from "../render/time.js";
import { taskOneId } from "../store/task-ids.js";
import type { TaskRow } from "../store/tasks.js";
import { blockedReasonOf } from "../tasks/state.js";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function taskJson(t: TaskRow, now: number, staleDays: number) {
  return {
    id: taskOneId(t.id),
    number: t.id,
    status: t.status,
    content: t.content,
    source: t.source,
    project: t.project,
    createdSession: t.createdSession,
    updatedSession: t.updatedSession,
    createdAt: iso(t.createdAt),
    updatedAt: iso(t.updatedAt),
    closedAt: iso(t.closedAt),
    blockedReason: blockedReasonOf(t),
    stale: t.closedAt === null && isStale(t, now, staleDays),
  };
}

/** One line per task: `3f0c9a1b7d2e  in_progress  3 d ago  session 1a2b3c4d  Ship the hook  (stale)`. */
export function taskLines(tasks: TaskRow[], now: number, staleDays: number, absolute: boolean): string[] {
  return tasks.map((t) => {
    const stale = t.closedAt === null && isStale(t, now, staleDays) ? "  (stale)" : "";
    return `${taskOneId(t.id)}  ${field(t.status, 20).padEnd(11)}  ${shownTime(t.createdAt, now, absolute).padEnd(15)}  ${createdBy(t.createdSession)}  ${prose(t.content, 300)}${blockedNote(t, 300)}${stale}`;
  });
}
