/**
 * What an assistant's adapter is: its events onto mem's hooks (the Claude Code contract in
 * hook.cts), its payloads onto the field names mem's handlers read, and mem's answer onto its own
 * stdout format. Pure helpers the adapters share; CommonJS, because the hook entry loads them.
 * docs/assistants.md records each assistant's contract and where it comes from.
 */
import { HOOK_EVENTS, MAX_CONTEXT_CHARS, type HookName, type Payload } from "./hook.cjs";

/** The assistants besides Claude Code that have an adapter. */
export const ASSISTANTS = ["codex", "gemini", "copilot"] as const;
export type AssistantName = (typeof ASSISTANTS)[number];

export function isAssistantName(s: unknown): s is AssistantName {
  return typeof s === "string" && (ASSISTANTS as readonly string[]).includes(s);
}

/**
 * How the briefing and the explorer name each assistant a memory came from. Claude Code, the
 * assistant mem's hooks were written for, is not named: its events carry no assistant, like those
 * of mem itself (mem remember, mem task add) and of stores older than the adapters.
 */
export const ASSISTANT_LABELS: Readonly<Record<AssistantName, string>> = { codex: "Codex", gemini: "Gemini CLI", copilot: "Copilot CLI" };

/** The label of a stored assistant name; undefined for anything not in the enum (a stored value is never shown as it is). */
export function assistantLabel(v: unknown): string | undefined {
  return isAssistantName(v) ? ASSISTANT_LABELS[v] : undefined;
}

/** The payload key that carries the assistant into capture (src/capture/record.ts). */
export const ASSISTANT_KEY = "mem_assistant";

export interface Adapter {
  name: AssistantName;
  /** mem's hook for this assistant's event (as its config names it); undefined: mem does nothing on it. */
  hook(event: string): HookName | undefined;
  /** The payload as mem's handlers read it: Claude Code's field names, stamped with the assistant. */
  payload(name: HookName, raw: Payload): Payload;
  /** mem's answer as this assistant's stdout; undefined: print nothing. */
  output(name: HookName, context: string | undefined): string | undefined;
}

/** An adapter's `hook`: its assistant's event names looked up in `events` (own keys only: no "toString"). */
export function hookOf(events: Readonly<Record<string, HookName>>): (event: string) => HookName | undefined {
  return (event) => (Object.hasOwn(events, event) ? events[event] : undefined);
}

export function text(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Tool arguments given as an object or as a JSON string of one (Copilot's `toolArgs`). */
export function argsObject(v: unknown): Record<string, unknown> {
  if (isObject(v)) return v;
  if (typeof v === "string" && v.trimStart().startsWith("{")) {
    try {
      const parsed = JSON.parse(v) as unknown;
      if (isObject(parsed)) return parsed;
    } catch {
      // not JSON: no arguments
    }
  }
  return {};
}

/** Context cut to what every assistant takes (the Claude Code limit is the smallest known). */
export function clipContext(context: string): string {
  return context.length > MAX_CONTEXT_CHARS ? `${context.slice(0, MAX_CONTEXT_CHARS - 1)}…` : context;
}

/** `{"hookSpecificOutput":{"hookEventName":…,"additionalContext":…}}`, the shape Codex and Gemini CLI share with Claude Code. */
export function additionalContext(eventName: string, context: string | undefined): string | undefined {
  if (!context) return undefined;
  return JSON.stringify({ hookSpecificOutput: { hookEventName: eventName, additionalContext: clipContext(context) } });
}

/**
 * A stable id for a tool call whose assistant gives none: the same call (session, time, tool,
 * arguments) always gets the same id, so capturing it twice stores it once.
 */
export function syntheticToolUseId(assistant: AssistantName, parts: unknown[]): string {
  // Required here, not at the top: the Claude Code hook's start-up never loads node:crypto.
  const { createHash } = require("node:crypto") as typeof import("node:crypto");
  return `${assistant}_${createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 24)}`;
}

/** A tool renamed to the Claude Code tool mem's extractors know, with its arguments renamed too. */
export interface ToolRename {
  tool: string;
  /** Their argument name → Claude Code's (file_path, command, path, pattern, content, old_string, new_string). */
  args?: Record<string, string>;
}

export function renameTool(table: Record<string, ToolRename>, name: string, input: Record<string, unknown>): { tool_name: string; tool_input: Record<string, unknown> } {
  const r = Object.hasOwn(table, name) ? table[name] : undefined;
  if (!r) return { tool_name: name, tool_input: input };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    const to = r.args && Object.hasOwn(r.args, k) ? r.args[k]! : k;
    if (!Object.hasOwn(out, to)) out[to] = v;
  }
  return { tool_name: r.tool, tool_input: out };
}

/**
 * The fields every normalized payload carries: the event under Claude Code's name (capture files
 * a failure or a stop by it), cwd and session, and the assistant. A transcript path is never
 * passed on: each assistant writes its own format, which mem's transcript reader does not read.
 */
export function basePayload(assistant: AssistantName, name: HookName, cwd: unknown, session: unknown): Payload {
  const p: Payload = { hook_event_name: HOOK_EVENTS[name], [ASSISTANT_KEY]: assistant };
  const c = text(cwd);
  if (c) p.cwd = c;
  const s = text(session);
  if (s) p.session_id = s;
  return p;
}

/** Claude Code's TodoWrite statuses; `deleted` closes the task in mem's registry (src/store/tasks.ts). */
export type TodoStatus = "pending" | "in_progress" | "completed" | "deleted";

/**
 * Another assistant's whole-list task tool (Codex's update_plan, Gemini CLI's write_todos) as
 * Claude Code's TodoWrite, whose calls mem's task capture replays (src/capture/extract/tasks.ts):
 * each item's `textKey` becomes its `content`, its status goes through `statuses` (pending for
 * any other). Undefined when `list` is not an array: the call is then captured as a plain tool call.
 */
export function asTodoWrite(list: unknown, textKey: string, statuses: Readonly<Record<string, TodoStatus>>): { tool_name: "TodoWrite"; tool_input: { todos: { content: string; status: TodoStatus }[] } } | undefined {
  if (!Array.isArray(list)) return undefined;
  const todos = list.filter(isObject).map((item) => {
    const st = text(item.status);
    return { content: text(item[textKey]) ?? "", status: st && Object.hasOwn(statuses, st) ? statuses[st]! : "pending" };
  });
  return { tool_name: "TodoWrite", tool_input: { todos } };
}

