/**
 * The store's event types: the shapes of captured session events (src/capture makes them,
 * src/store keeps them). Capture is structural (no LLM calls): every event is derived from tool
 * calls, tool results or marked-up assistant/user text. Task shapes live in src/tasks/state.ts.
 */

/** A parsed transcript line: one JSON object. Fields are read defensively, never trusted. */
export type TranscriptLine = Record<string, unknown>;

export type EventType =
  | "file_modified" // Edit / Write / MultiEdit / NotebookEdit
  | "file_explored" // Read / Grep / Glob / LS
  | "command_run" // Bash
  | "error" // a tool_result with is_error
  | "task" // a task-list change (TodoWrite, TaskCreate, TaskUpdate) or a [MEMORY: task] tag
  | "decision"
  | "rejected"
  | "learned"
  | "preference"
  | "tool" // any other tool call (WebSearch, Task/Agent, MCP tools, ...)
  | "snapshot" // PreCompact: open tasks, recent decisions, files touched
  | "session_end"
  | "notification"; // what Claude Code told the user (a permission prompt, waiting for input): kept, never indexed

export const EVENT_TYPES: readonly EventType[] = [
  "file_modified",
  "file_explored",
  "command_run",
  "error",
  "task",
  "decision",
  "rejected",
  "learned",
  "preference",
  "tool",
  "snapshot",
  "session_end",
  "notification",
];

export interface CapturedEvent {
  /**
   * Stable id. Structural tool events use the tool_use id itself (`toolu_…`); derived events
   * append a suffix (`toolu_…#error`, `toolu_…#task:3`); text events use a content hash
   * (`kw:…`, `tag:…`). The same input always yields the same ids.
   */
  id: string;
  type: EventType;
  /** ISO-8601 time of the transcript line the event came from ("" when the line had none). */
  time: string;
  session: string;
  files: string[];
  text: string;
  /** 0..1; structural events omit it (they are facts), tags are 1.0, keywords 0.3–0.9. */
  confidence?: number;
  metadata: Record<string, unknown>;
}

/** Decision-like events below this confidence are not kept as decisions ("decided to read the file"). */
export const MIN_DECISION_CONFIDENCE = 0.6;
