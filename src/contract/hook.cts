/**
 * The Claude Code hook contract (see HOOKS.md): one JSON object on stdin; exit 0 always; context
 * only inside `hookSpecificOutput.additionalContext`, only for the events that accept it; capture
 * events print nothing. Pure helpers, in CommonJS so that the hook entry (entry.cts) loads them
 * without the ESM loader.
 */
import { truncateDeep } from "../util/json-depth.cjs";

export const HOOK_EVENTS = {
  "session-start": "SessionStart",
  "user-prompt-submit": "UserPromptSubmit",
  "post-tool-use": "PostToolUse",
  "post-tool-use-failure": "PostToolUseFailure",
  stop: "Stop",
  "subagent-stop": "SubagentStop",
  "pre-compact": "PreCompact",
  "session-end": "SessionEnd",
  "pre-tool-use": "PreToolUse",
  notification: "Notification",
} as const;

export type HookName = keyof typeof HOOK_EVENTS;
export type HookEventName = (typeof HOOK_EVENTS)[HookName];

/** Events whose hook may add context for the model. Stop/SubagentStop never do: it makes Claude continue. */
const CONTEXT_EVENTS = new Set<HookEventName>(["SessionStart", "UserPromptSubmit", "PreToolUse"]);

/**
 * The tools whose PreToolUse mem checks against the decisions and rejected approaches it holds
 * (src/inject/pretool-match.ts); other tools' PreToolUse is answered with nothing at once.
 */
export const PRETOOL_TOOLS: ReadonlySet<string> = new Set(["Edit", "MultiEdit", "Write", "Bash"]);

/** Hook output strings above 10,000 characters are moved to a file by Claude Code; stay well below. */
export const MAX_CONTEXT_CHARS = 9_000;

/** Internal deadlines, below the timeouts the installer registers. */
export const DEADLINE_MS: Record<HookName, number> = {
  "session-start": 5_000,
  "user-prompt-submit": 1_500,
  "post-tool-use": 10_000,
  "post-tool-use-failure": 10_000,
  stop: 5_000,
  "subagent-stop": 5_000,
  "pre-compact": 5_000,
  "session-end": 1_200,
  // On every tool call: the check keeps its own smaller budget (pretool.budgetMs), this is the outer guard.
  "pre-tool-use": 1_500,
  notification: 3_000,
};

/** Hook stdin above this is dropped (and logged): a real payload is far smaller. */
export const MAX_STDIN_BYTES = 4 * 1024 * 1024;

/** Hooks on the hot path: answered by the warm daemon when one runs. */
export const DAEMON_HOOKS: ReadonlySet<HookName> = new Set<HookName>(["user-prompt-submit", "post-tool-use", "post-tool-use-failure", "stop", "subagent-stop", "pre-tool-use", "notification"]);

/** Hooks that record what a session did: a payload of theirs must say which session. */
export const CAPTURE_HOOKS: ReadonlySet<HookName> = new Set<HookName>(["post-tool-use", "post-tool-use-failure", "stop", "subagent-stop", "pre-compact", "session-end"]);

/**
 * Why a capture's payload is malformed, or undefined: one with no session id (missing, not a
 * string, blank) would be filed under a session of no id. Skipped, never stored. Pure.
 */
export function malformedCapture(payload: Payload): string | undefined {
  const id = payload.session_id;
  if (typeof id !== "string" || id.trim() === "") return `a payload without a session_id (${id === undefined ? "missing" : typeof id === "string" ? "blank" : `a ${id === null ? "null" : typeof id}`}) is malformed; skipped, nothing stored`;
  return undefined;
}

export function isHookName(s: string): s is HookName {
  return Object.hasOwn(HOOK_EVENTS, s);
}

export type Payload = Record<string, unknown>;

/**
 * Parses stdin as one JSON object; anything else (empty, truncated, binary, an array) is
 * undefined. Nesting deeper than MAX_JSON_DEPTH is cut to a marker: the payload is kept.
 */
export function parsePayload(text: string): Payload | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) return undefined;
  try {
    const v = JSON.parse(trimmed) as unknown;
    return v !== null && typeof v === "object" && !Array.isArray(v) ? truncateDeep(v as Payload) : undefined;
  } catch {
    return undefined;
  }
}

export function str(p: Payload, key: string): string | undefined {
  const v = p[key];
  return typeof v === "string" && v !== "" ? v : undefined;
}

/**
 * The only output shape that delivers context; undefined when the event must stay silent. A
 * PreToolUse answer carries `additionalContext` only: never a `permissionDecision`, so mem never
 * allows, asks or denies anything (the call goes on exactly as it would without mem).
 * `notice`: a `systemMessage` for the user (not the model), SessionStart only.
 */
export function contextOutput(event: HookEventName, text: string | undefined, notice?: string): string | undefined {
  const message = notice && event === "SessionStart" ? { systemMessage: notice.slice(0, 2_000) } : undefined;
  if (!text || !CONTEXT_EVENTS.has(event)) return message ? JSON.stringify(message) : undefined;
  const body = text.length > MAX_CONTEXT_CHARS ? `${text.slice(0, MAX_CONTEXT_CHARS - 1)}…` : text;
  return JSON.stringify({ ...message, hookSpecificOutput: { hookEventName: event, additionalContext: body } });
}
