/**
 * Google Gemini CLI (`@google/gemini-cli`): hooks in settings.json. Every payload has session_id,
 * transcript_path, cwd, hook_event_name and timestamp; BeforeAgent adds `prompt`, AfterTool
 * `tool_name`, `tool_input`, `tool_response` ({ llmContent, returnDisplay, error }), AfterAgent
 * `prompt_response` and `stop_hook_active`, PreCompress `trigger`, SessionEnd `reason`.
 * SessionStart and BeforeAgent take `hookSpecificOutput.additionalContext`; stdout must hold
 * nothing but that JSON (docs/hooks/reference.md in the package).
 */
import type { HookName, Payload } from "./hook.cjs";
import { type Adapter, additionalContext, argsObject, asTodoWrite, basePayload, hookOf, isObject, renameTool, syntheticToolUseId, text, type TodoStatus, type ToolRename } from "./adapter.cjs";

const EVENTS: Record<string, HookName> = {
  SessionStart: "session-start",
  BeforeAgent: "user-prompt-submit",
  AfterTool: "post-tool-use",
  AfterAgent: "stop",
  PreCompress: "pre-compact",
  SessionEnd: "session-end",
};

/** Gemini CLI's built-in tools (docs/reference/tools.md, "Tool argument keys") as the Claude Code tools mem's extractors know. */
const TOOLS: Record<string, ToolRename> = {
  run_shell_command: { tool: "Bash" },
  read_file: { tool: "Read" },
  write_file: { tool: "Write" },
  replace: { tool: "Edit" },
  glob: { tool: "Glob", args: { dir_path: "path" } },
  grep_search: { tool: "Grep", args: { dir_path: "path" } },
  list_directory: { tool: "LS", args: { dir_path: "path" } },
};

/**
 * write_todos' statuses (docs/tools/todos.md): the whole list each call, as TodoWrite. A cancelled
 * item is closed (deleted); a blocked one is still to do.
 */
const TODO_STATUSES: Record<string, TodoStatus> = { pending: "pending", in_progress: "in_progress", completed: "completed", cancelled: "deleted", blocked: "pending" };

/**
 * The prompt the user typed. Without a terminal, Gemini CLI prepends SessionStart's context to the
 * prompt as `<hook_context>…</hook_context>` (angle brackets inside escaped), and BeforeAgent's
 * `prompt` carries it: mem's own briefing is not the user's question. Seen with 0.61.0 `gemini -p`.
 */
export function userPrompt(prompt: string): string {
  return prompt.replace(/<hook_context>[\s\S]*?<\/hook_context>\s*/g, "").trim();
}

/** AfterTool's result: the text the model was given, and the error when the tool failed. */
function toolResult(v: unknown): { response: unknown; error?: string } {
  if (!isObject(v)) return { response: v };
  const err = v.error;
  const error = text(err) ?? (isObject(err) ? text(err.message) : undefined);
  const response = v.llmContent ?? v.returnDisplay ?? v;
  return error ? { response, error } : { response };
}

export const gemini: Adapter = {
  name: "gemini",
  hook: hookOf(EVENTS),
  payload(name: HookName, raw: Payload): Payload {
    const p = basePayload("gemini", name, raw.cwd, raw.session_id);
    switch (name) {
      case "session-start":
        if (text(raw.source)) p.source = raw.source;
        break;
      case "user-prompt-submit": {
        const prompt = text(raw.prompt) && userPrompt(raw.prompt as string);
        if (prompt) p.prompt = prompt;
        break;
      }
      case "post-tool-use": {
        const input = argsObject(raw.tool_input);
        const name = text(raw.tool_name) ?? "";
        const t = (name === "write_todos" ? asTodoWrite(input.todos, "description", TODO_STATUSES) : undefined) ?? renameTool(TOOLS, name, input);
        const r = toolResult(raw.tool_response);
        p.tool_name = t.tool_name;
        p.tool_input = t.tool_input;
        p.tool_response = r.response;
        p.tool_use_id = syntheticToolUseId("gemini", [raw.session_id, raw.timestamp, raw.tool_name, input]);
        if (r.error !== undefined) {
          p.hook_event_name = "PostToolUseFailure";
          p.error = r.error;
        }
        break;
      }
      case "stop":
        if (text(raw.prompt_response)) p.last_assistant_message = raw.prompt_response;
        if (raw.stop_hook_active === true) p.stop_hook_active = true;
        break;
      case "pre-compact":
        if (text(raw.trigger)) p.trigger = raw.trigger;
        break;
      case "session-end":
        if (text(raw.reason)) p.reason = raw.reason;
        break;
    }
    return p;
  },
  output: (name, context) => (name === "session-start" || name === "user-prompt-submit" ? additionalContext(name === "session-start" ? "SessionStart" : "BeforeAgent", context) : undefined),
};
