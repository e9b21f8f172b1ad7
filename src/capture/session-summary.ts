import { clean, type Clean } from "../redact/clean.cjs";
import type { Db } from "../store/db.js";
import { EventStore } from "../store/events.js";
import { SessionStore } from "../store/sessions.js";
import { isOpenTask, listTasks } from "../tasks/state.js";
import { summarizeSession } from "./summary.js";

/**
 * Builds and stores a session's summary (src/capture/summary.ts) from its events, at Stop and
 * SessionEnd. Its goal is kept from the first prompts seen (`prompts`, from the transcript lines
 * read now), once set.
 */
export function updateSessionSummary(db: Db, project: Clean<string>, session: Clean<string>, now: number, prompts: readonly string[] = []): void {
  const sessions = new SessionStore(db);
  const row = sessions.get(session);
  if (!row) return;
  const before = sessions.summaryOf(row);
  const goal = before && before.goal.length > 0 ? before.goal : prompts;
  const state = sessions.taskState(row);
  const open = state ? listTasks(state).filter(isOpenTask).length : 0;
  const events = new EventStore(db).ofSession(project, session);
  sessions.saveSummary(session, clean(summarizeSession(events, goal, open)), now);
}
