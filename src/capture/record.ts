import { clean, cleanText, type Clean } from "../redact/clean.cjs";
import type { Db } from "../store/db.js";
import { EventStore } from "../store/events.js";
import { SessionStore } from "../store/sessions.js";
import { truncateDeep } from "../util/json-depth.cjs";
import { extractFromLines, extractWithTasks, userPrompts } from "./extract/index.js";
import { withholdSecrets } from "./extract/withhold.js";
import { afterCapture } from "./after.js";
import { readTranscriptFrom } from "./transcript.js";
import type { CapturedEvent, TranscriptLine } from "../store/event-types.js";
import { ASSISTANT_KEY, isAssistantName, type AssistantName } from "../contract/adapter.cjs";

/**
 * Durable capture: turns hook input into typed events and writes them to SQLite before the hook
 * returns. Everything runs inside one IMMEDIATE transaction per hook, so parallel hooks of one
 * session never lose each other's task-list changes. No LLM calls. What is stored (events, the
 * task list, session ids and paths) passes the redaction boundary here, on its way to the stores.
 */

const MAX_RESPONSE_CHARS = 20_000;

function clipDeep(v: unknown): unknown {
  const s = typeof v === "string" ? v : JSON.stringify(v ?? "");
  return s.length > MAX_RESPONSE_CHARS ? `${s.slice(0, MAX_RESPONSE_CHARS)} …[truncated ${s.length - MAX_RESPONSE_CHARS} chars]` : v;
}

/**
 * A PostToolUse(Failure) payload as the two transcript lines it stands for, so one extractor
 * serves both paths. Nesting past MAX_JSON_DEPTH is cut first (the daemon parses its requests itself).
 */
export function toolPayloadLines(payload: Record<string, unknown>, time: string): TranscriptLine[] | undefined {
  const p = truncateDeep(payload);
  const id = typeof p.tool_use_id === "string" ? p.tool_use_id : undefined;
  const name = typeof p.tool_name === "string" ? p.tool_name : undefined;
  if (!id || !name) return undefined;
  const input = p.tool_input !== null && typeof p.tool_input === "object" && !Array.isArray(p.tool_input) ? p.tool_input : {};
  const failed = p.hook_event_name === "PostToolUseFailure" || typeof p.error === "string";
  const response = failed ? String(p.error ?? "error") : clipDeep(p.tool_response);
  const content = typeof response === "string" ? response : JSON.stringify(response);
  const session = typeof p.session_id === "string" ? p.session_id : "";
  return [
    { type: "assistant", sessionId: session, timestamp: time, message: { role: "assistant", content: [{ type: "tool_use", id, name, input }] } },
    {
      type: "user",
      sessionId: session,
      timestamp: time,
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, ...(failed ? { is_error: true } : {}) }] },
      ...(failed ? {} : { toolUseResult: response }),
    },
  ];
}

/** Settings a capture's after-steps use (src/capture/after.ts). */
export interface CaptureOptions {
  convergeWindowMs?: number;
  /** The assistant the session runs in, when not Claude Code: recorded on every event (metadata.assistant). */
  assistant?: AssistantName;
}

/** The assistant a normalized payload came from (src/contract/adapter.cts); undefined for Claude Code. */
export function payloadAssistant(payload: Record<string, unknown>): AssistantName | undefined {
  const a = payload[ASSISTANT_KEY];
  return isAssistantName(a) ? a : undefined;
}

/** `opts` with the payload's assistant, if it names one. */
export function withAssistant(payload: Record<string, unknown>, opts: CaptureOptions = {}): CaptureOptions {
  const assistant = payloadAssistant(payload);
  return assistant ? { ...opts, assistant } : opts;
}

export function captureToolPayload(db: Db, project: Clean<string>, payload: Record<string, unknown>, now: number, opts: CaptureOptions = {}): number {
  const session = typeof payload.session_id === "string" ? payload.session_id : "";
  const lines = toolPayloadLines(payload, new Date(now).toISOString());
  if (!lines) return 0;
  return capture(db, project, session, now, lines, [], typeof payload.transcript_path === "string" ? cleanText(payload.transcript_path) : undefined, withAssistant(payload, opts));
}

export interface TranscriptCapture {
  /** Events stored. */
  events: number;
  /** Why the transcript was not read (not a regular file, unreadable): for the hook's log. */
  warning?: string;
  /** What the user typed in the lines read (redacted): the session's goal is its first prompts. */
  prompts: Clean<string[]>;
}

/**
 * Reads the transcript from the saved offset of `key` (a session, or `<session>/agent-<id>` for a
 * subagent's own file) and captures what is new under `session`. A transcript that is not a
 * regular file is not read (the last message is still captured) and the offset is kept.
 */
export function captureTranscript(db: Db, project: Clean<string>, key: string, transcriptPath: string | undefined, lastMessage: string | undefined, now: number, session = key, opts: CaptureOptions = {}): TranscriptCapture {
  const sessions = new SessionStore(db);
  const storedPath = transcriptPath === undefined ? undefined : cleanText(transcriptPath);
  const row = sessions.touch(cleanText(key), project, now, storedPath);
  let lines: TranscriptLine[] = [];
  let nextOffset: number | undefined;
  let warning: string | undefined;
  if (transcriptPath && storedPath) {
    const r = readTranscriptFrom(transcriptPath, row.transcript_path === storedPath ? row.offset : 0);
    lines = r.lines;
    if (r.refused) warning = `transcript ${transcriptPath}: ${r.refused}; not read`;
    else nextOffset = r.nextOffset;
  }
  // The transcript may lag the final message; the payload carries it (HOOKS.md §3.6).
  const extra = lastMessage ? textEvents(cleanText(lastMessage), cleanText(session), new Date(now).toISOString()) : [];
  const events = capture(db, project, session, now, lines, extra, undefined, opts);
  if (storedPath && nextOffset !== undefined) sessions.saveOffset(cleanText(key), storedPath, nextOffset, now);
  const prompts = clean(userPrompts(lines).slice(0, 4));
  return warning ? { events, warning: cleanText(warning), prompts } : { events, prompts };
}

/** Tag and keyword events of one assistant message, with the same ids the transcript path gives. */
export function textEvents(text: string, session: string, time: string): CapturedEvent[] {
  const line: TranscriptLine = { type: "assistant", sessionId: session, timestamp: time, message: { role: "assistant", content: [{ type: "text", text }] } };
  return extractFromLines([line], { session });
}

/** Extracts `lines` from the session's saved task state and stores events and state in one IMMEDIATE transaction. */
function capture(db: Db, project: Clean<string>, session: string, now: number, lines: TranscriptLine[], extra: CapturedEvent[], transcriptPath?: Clean<string>, opts: CaptureOptions = {}): number {
  const sessions = new SessionStore(db);
  const events = new EventStore(db);
  const key = cleanText(session);
  // Secret files' contents and secret commands' outputs are withheld first (src/capture/extract/withhold.ts).
  // Redacted before extraction too: extractors cut long text (a command at 1,000 characters), and a
  // secret cut in two is no longer recognised by the rules, so the cut must come after redaction.
  const input = clean(withholdSecrets(lines));
  return db.transaction(() => {
    const from = sessions.taskState(sessions.touch(key, project, now, transcriptPath));
    const { events: found, tasks, changes } = extractWithTasks(input, { session: key, ...(from ? { tasksFrom: from } : {}) });
    sessions.saveTasks(key, clean(tasks), now);
    const all = [...found, ...extra];
    const stored = clean(opts.assistant ? all.map((e) => ({ ...e, metadata: { ...e.metadata, assistant: opts.assistant } })) : all);
    const n = events.insert(project, stored, () => now);
    afterCapture(db, { project, session: key, now, events: stored, taskChanges: clean(changes), ...opts });
    return n;
  }).immediate();
}
