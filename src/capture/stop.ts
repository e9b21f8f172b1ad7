import { chunkCapturedEvents } from "../../indexer/captured.js";
import type { Config } from "../config/config.js";
import { str, type Payload } from "../contract/hook.cjs";
import { projectAt } from "../project/scope.js";
import { cleanText } from "../redact/clean.cjs";
import { ChunkStore } from "../store/chunks.js";
import type { Db } from "../store/db.js";
import { captureTranscript, withAssistant } from "./record.js";
import { updateSessionSummary } from "./session-summary.js";

/**
 * What Stop and SubagentStop capture: the new part of the transcript, plus the final message the
 * file may not hold yet, made searchable by BM25 at once; at Stop, the session's summary. Shared by
 * the hook (no daemon) and the daemon (which the hook hands it to, so the turn's end waits on no
 * SQLite or module loading). Returns a warning for the hook log (a transcript it could not read).
 */
export function captureStop(db: Db, config: Config, payload: Payload, now: number): string | undefined {
  if (payload.stop_hook_active === true) return undefined; // a continuation forced by another Stop hook
  const project = projectAt(db, str(payload, "cwd") ?? process.cwd(), config.project.enclosing).id;
  const session = cleanText(str(payload, "session_id") ?? "");
  const sub = payload.hook_event_name === "SubagentStop";
  const path = sub ? str(payload, "agent_transcript_path") : str(payload, "transcript_path");
  // A subagent's transcript gets its own offset row; its events still belong to the session.
  const key = sub ? `${session}/agent-${str(payload, "agent_id") ?? "unknown"}` : session;
  const { warning, prompts } = captureTranscript(db, project, key, path, str(payload, "last_assistant_message"), now, session, withAssistant(payload, config.memory));
  chunkCapturedEvents(db, new ChunkStore(db), project, now);
  if (!sub) updateSessionSummary(db, project, session, now, prompts);
  return warning ? `${sub ? "subagent-stop" : "stop"}: ${warning}` : undefined;
}
