/**
 * GitHub Copilot CLI (`@github/copilot`): `.github/hooks/*.json`, `version: 1`. A hook configured
 * under a camelCase event (sessionStart, postToolUse) gets camelCase fields (sessionId, toolName,
 * toolArgs, toolResult.{resultType,textResultForLlm}); under a PascalCase one (PostToolUse) the
 * VS Code compatible snake_case fields (session_id, tool_name, tool_input,
 * tool_result.{result_type,text_result_for_llm}). Both are read. GitHub's "Copilot CLI hooks
 * reference" says the output of sessionStart and userPromptSubmitted is not processed; Copilot CLI
 * 1.0.102 does process it (its changelog: "sessionStart hook additionalContext is now injected into
 * the conversation", "Include userPromptSubmitted hook additionalContext in the model-facing
 * prompt"), from a top-level `{"additionalContext": …}` under either casing, not from
 * `hookSpecificOutput` (seen against a loopback model: test/live/copilot.test.ts).
 */
import type { HookName, Payload } from "./hook.cjs";
import { type Adapter, argsObject, basePayload, clipContext, hookOf, isObject, renameTool, syntheticToolUseId, text, type ToolRename } from "./adapter.cjs";

const EVENTS: Record<string, HookName> = {
  sessionStart: "session-start",
  SessionStart: "session-start",
  userPromptSubmitted: "user-prompt-submit",
  UserPromptSubmit: "user-prompt-submit",
  postToolUse: "post-tool-use",
  PostToolUse: "post-tool-use",
  postToolUseFailure: "post-tool-use-failure",
  PostToolUseFailure: "post-tool-use-failure",
  agentStop: "stop",
  Stop: "stop",
  preCompact: "pre-compact",
  PreCompact: "pre-compact",
  sessionEnd: "session-end",
  SessionEnd: "session-end",
};

/** Copilot CLI's tools ("Tool names for hook matching") as the Claude Code tools mem's extractors know. */
const TOOLS: Record<string, ToolRename> = {
  bash: { tool: "Bash" },
  powershell: { tool: "Bash" },
  view: { tool: "Read", args: { path: "file_path" } },
  create: { tool: "Write", args: { path: "file_path", file_text: "content" } },
  edit: { tool: "Edit", args: { path: "file_path", old_str: "old_string", new_str: "new_string" } },
  glob: { tool: "Glob" },
  grep: { tool: "Grep" },
};

/** One field under its camelCase or snake_case name. */
function field(raw: Payload, camel: string, snake: string): unknown {
  return raw[camel] ?? raw[snake];
}

function toolResult(raw: Payload): { response: unknown; error?: string } {
  const r = field(raw, "toolResult", "tool_result");
  const err = text(raw.error);
  if (!isObject(r)) return err ? { response: err, error: err } : { response: r };
  const kind = text(r.resultType) ?? text(r.result_type);
  const said = text(r.textResultForLlm) ?? text(r.text_result_for_llm) ?? "";
  return kind === "failure" || kind === "denied" || kind === "error" || err ? { response: said, error: err ?? (said || kind || "error") } : { response: said };
}

export const copilot: Adapter = {
  name: "copilot",
  hook: hookOf(EVENTS),
  payload(name: HookName, raw: Payload): Payload {
    const p = basePayload("copilot", name, raw.cwd, field(raw, "sessionId", "session_id"));
    switch (name) {
      case "session-start": {
        // Copilot's "new" is a fresh session (mem's "startup"); "resume" is the same word.
        const source = text(raw.source);
        if (source) p.source = source === "new" ? "startup" : source;
        break;
      }
      case "user-prompt-submit":
        if (text(raw.prompt)) p.prompt = raw.prompt;
        break;
      case "post-tool-use":
      case "post-tool-use-failure": {
        const input = argsObject(field(raw, "toolArgs", "tool_input"));
        const t = renameTool(TOOLS, text(field(raw, "toolName", "tool_name")) ?? "", input);
        const r = toolResult(raw);
        p.tool_name = t.tool_name;
        p.tool_input = t.tool_input;
        p.tool_response = r.response;
        p.tool_use_id = syntheticToolUseId("copilot", [field(raw, "sessionId", "session_id"), raw.timestamp, field(raw, "toolName", "tool_name"), input]);
        if (r.error !== undefined || name === "post-tool-use-failure") {
          p.hook_event_name = "PostToolUseFailure";
          p.error = r.error ?? "error";
        }
        break;
      }
      case "pre-compact":
        if (text(raw.trigger)) p.trigger = raw.trigger;
        break;
      case "session-end":
        if (text(raw.reason)) p.reason = raw.reason;
        break;
    }
    return p;
  },
  // Context at a session's start and with a prompt only; agentStop's output could only force another turn.
  output: (name, context) => (context && (name === "session-start" || name === "user-prompt-submit") ? JSON.stringify({ additionalContext: clipContext(context) }) : undefined),
};
