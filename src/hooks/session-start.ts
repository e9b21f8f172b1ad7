import { openApp } from "../app.js";
import { buildBriefing } from "../brief/briefing.js";
import { openTasksSection } from "../brief/sections/tasks.js";
import { captureTranscript } from "../capture/record.js";
import { redact } from "../redact/redact.cjs";
import { cleanText } from "../redact/clean.cjs";
import { resolveProject } from "../project/identity.js";
import { EventStore } from "../store/events.js";
import { SessionStore } from "../store/sessions.js";
import { TaskStore } from "../store/tasks.js";
import { str, type Payload } from "./contract.cjs";
import { hookLog } from "./log.cjs";
import type { HookIO } from "./run.js";

export const BRIEFING_TOKENS = 2_500;

/**
 * SessionStart: the briefing. On "compact" (PreCompact does not always fire) the transcript is
 * caught up first, so the tasks and decisions of this very session are restored.
 */
export async function sessionStart(payload: Payload, io: HookIO): Promise<string | undefined> {
  const app = openApp(io.env, { tolerateConfigErrors: true });
  try {
    const { id: project, root } = resolveProject(str(payload, "cwd") ?? process.cwd());
    const now = (io.now ?? Date.now)();
    const session = cleanText(str(payload, "session_id") ?? "");
    const transcript = str(payload, "transcript_path");
    const source = str(payload, "source") ?? "startup";
    const sessions = new SessionStore(app.db);
    if (source === "compact" || source === "resume") {
      const { warning } = captureTranscript(app.db, project, session, transcript, undefined, now);
      if (warning) hookLog(io.env, `session-start: ${warning}`);
    }
    sessions.touch(session, project, now, transcript === undefined ? undefined : cleanText(transcript));

    // Open tasks: the project's task registry, every session's tasks until closed.
    const taskSection = openTasksSection(new TaskStore(app.db).open(project), now, app.config.brief.staleTaskDays);
    const events = new EventStore(app.db).recent(project, { types: ["decision", "rejected", "learned", "preference", "file_modified", "error", "command_run"], limit: 300 });
    const hot = app.db
      .prepare("SELECT path, text, json_extract(metadata, '$.layout') AS layout FROM chunks WHERE project = ? AND tier = 'hot' ORDER BY path, seq LIMIT 6")
      .all(project) as { path: string; text: string; layout: string }[];
    return buildBriefing({ source, now, tasks: [], taskSection, events, hot, budgetTokens: BRIEFING_TOKENS, redact: (s) => redact(s).text, ...(root ? { root } : {}) });
  } finally {
    await app.close();
  }
}
