import { chunkCapturedEvents } from "../../indexer/captured.js";
import type { Db } from "../store/db.js";
import { openForHook } from "./open-store.js";
import { MIN_DECISION_CONFIDENCE } from "../store/event-types.js";
import { isOpenTask, listTasks } from "../tasks/state.js";
import { captureToolPayload, captureTranscript, payloadAssistant, withAssistant } from "../capture/record.js";
import { updateSessionSummary } from "../capture/session-summary.js";
import { captureStop } from "../capture/stop.js";
import { captureNotification } from "../capture/notification.js";
import { projectAt } from "../project/scope.js";
import { clean, cleanText, type Clean } from "../redact/clean.cjs";
import { ChunkStore } from "../store/chunks.js";
import { EventStore } from "../store/events.js";
import { SessionStore } from "../store/sessions.js";
import { str, type Payload } from "../contract/hook.cjs";
import { hookLog } from "./log.cjs";
import type { HookIO } from "./io.js";

/**
 * The capture hooks: each makes its events durable in SQLite, then returns nothing (capture hooks
 * print nothing; Stop and SubagentStop must never return context).
 */
function open(payload: Payload, io: HookIO) {
  const app = openForHook(io);
  const project = projectAt(app.db, str(payload, "cwd") ?? process.cwd(), app.config.project.enclosing).id;
  const now = (io.now ?? Date.now)();
  const session = cleanText(str(payload, "session_id") ?? "");
  return { app, project, now, session };
}

export async function postToolUse(payload: Payload, io: HookIO): Promise<undefined> {
  const { app, project, now } = open(payload, io);
  try {
    captureToolPayload(app.db, project, payload, now, app.config.memory);
  } finally {
    await app.close();
  }
  return undefined;
}

/** Notification without a daemon (src/capture/notification.ts). */
export async function notification(payload: Payload, io: HookIO): Promise<undefined> {
  const { app, project, now } = open(payload, io);
  try {
    captureNotification(app.db, project, payload, now);
  } finally {
    await app.close();
  }
  return undefined;
}

/** Stop / SubagentStop without a daemon (src/capture/stop.ts). */
export async function stop(payload: Payload, io: HookIO): Promise<undefined> {
  if (payload.stop_hook_active === true) return undefined;
  const app = openForHook(io);
  try {
    const warning = captureStop(app.db, app.config, payload, (io.now ?? Date.now)());
    if (warning) hookLog(io.env, warning);
  } finally {
    await app.close();
  }
  return undefined;
}

/** PreCompact: catch up with the transcript, then record a snapshot of the session's state. */
export async function preCompact(payload: Payload, io: HookIO): Promise<undefined> {
  const { app, project, now, session } = open(payload, io);
  try {
    const { warning } = captureTranscript(app.db, project, session, str(payload, "transcript_path"), undefined, now, session, withAssistant(payload, app.config.memory));
    if (warning) hookLog(io.env, `pre-compact: ${warning}`);
    recordSnapshot(app.db, project, session, now, str(payload, "trigger") ?? "unknown", payloadAssistant(payload));
    chunkCapturedEvents(app.db, new ChunkStore(app.db), project, now);
  } finally {
    await app.close();
  }
  return undefined;
}

export function recordSnapshot(db: Db, project: Clean<string>, session: Clean<string>, now: number, trigger: string, assistant?: string): void {
  const sessions = new SessionStore(db);
  const events = new EventStore(db);
  const state = sessions.taskState(sessions.get(session));
  const open = state ? listTasks(state).filter(isOpenTask) : [];
  const recent = events.recent(project, { session, limit: 200 });
  const decisions = recent.filter((e) => (e.type === "decision" || e.type === "rejected") && (e.confidence ?? 1) >= MIN_DECISION_CONFIDENCE).slice(0, 10);
  const files = [...new Set(recent.filter((e) => e.type === "file_modified").flatMap((e) => e.files))].slice(0, 20);
  const text = [
    `Compaction (${trigger}) snapshot: ${open.length} open task(s)${open.length ? `: ${open.map((t) => `[${t.status}] ${t.content}`).join("; ")}` : ""}`,
    decisions.length ? `Decisions: ${decisions.map((d) => d.text).join(" | ")}` : "",
    files.length ? `Files touched: ${files.join(", ")}` : "",
  ].filter(Boolean).join("\n");
  const snapshot = { id: `snapshot:${session}:${now}`, type: "snapshot" as const, time: new Date(now).toISOString(), session, files, text, metadata: { trigger, openTasks: open.length, ...(assistant ? { assistant } : {}) } };
  events.insert(project, clean([snapshot]), () => now);
}

/** SessionEnd: a quick end marker (the budget is 1.5 s shared by every SessionEnd hook). */
export async function sessionEnd(payload: Payload, io: HookIO): Promise<undefined> {
  const { app, project, now, session } = open(payload, io);
  try {
    const sessions = new SessionStore(app.db);
    const transcript = str(payload, "transcript_path");
    sessions.touch(session, project, now, transcript === undefined ? undefined : cleanText(transcript));
    sessions.end(session, cleanText(str(payload, "reason") ?? "other"), now);
    updateSessionSummary(app.db, project, session, now);
  } finally {
    await app.close();
  }
  return undefined;
}
