/**
 * OpenAI Codex CLI (`@openai/codex`): hooks.json, behind `[features] codex_hooks = true`. Its
 * payloads use Claude Code's snake_case names (session_id, cwd, prompt, tool_name, tool_input,
 * tool_response, tool_use_id, last_assistant_message, stop_hook_active, trigger, source), and
 * SessionStart and UserPromptSubmit take `hookSpecificOutput.additionalContext`
 * (codex-rs/hooks/schema/generated/*.command.{input,output}.schema.json). Exit 2 blocks: mem never uses it.
 */
import type { HookName, Payload } from "./hook.cjs";
import { type Adapter, additionalContext, argsObject, asTodoWrite, basePayload, hookOf, text, type TodoStatus } from "./adapter.cjs";

const EVENTS: Record<string, HookName> = {
  SessionStart: "session-start",
  UserPromptSubmit: "user-prompt-submit",
  PostToolUse: "post-tool-use",
  PreToolUse: "pre-tool-use",
  PreCompact: "pre-compact",
  Stop: "stop",
};

/** The files an apply_patch names (`*** Add File: a`, `*** Update File: b`, `*** Delete File: c`). */
export function patchFiles(patch: string): string[] {
  const files: string[] = [];
  for (const m of patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)) {
    const f = m[1]!.trim();
    if (f && !files.includes(f)) files.push(f);
  }
  return files;
}

/**
 * update_plan's step statuses (codex-rs/protocol/src/plan_tool.rs: pending, in_progress,
 * completed). Codex 0.171.0 runs PostToolUse for update_plan with `{ explanation?, plan: [{ step,
 * status }] }`, the whole plan each time, like TodoWrite (seen with `codex exec`, where the tool is
 * offered with `[tools.update_plan] enabled = true`).
 */
const PLAN_STATUSES: Record<string, TodoStatus> = { pending: "pending", in_progress: "in_progress", completed: "completed" };

/**
 * Codex's shell tool is already `Bash` with `{ command }`; apply_patch carries the patch as its
 * command: it is filed as an edit of the first file it names (all of them in `files`); update_plan
 * is a TodoWrite.
 */
function tool(name: string, input: Record<string, unknown>): { tool_name: string; tool_input: Record<string, unknown> } {
  if (name === "update_plan") return asTodoWrite(input.plan, "step", PLAN_STATUSES) ?? { tool_name: name, tool_input: input };
  if (name !== "apply_patch") return { tool_name: name, tool_input: input };
  const patch = text(input.command) ?? text(input.patch) ?? text(input.input) ?? "";
  const files = patchFiles(patch);
  if (files.length === 0) return { tool_name: name, tool_input: input };
  return { tool_name: "Edit", tool_input: { file_path: files[0], files, patch } };
}

export const codex: Adapter = {
  name: "codex",
  hook: hookOf(EVENTS),
  payload(name: HookName, raw: Payload): Payload {
    const p = basePayload("codex", name, raw.cwd, raw.session_id);
    switch (name) {
      case "session-start":
        if (text(raw.source)) p.source = raw.source;
        break;
      case "user-prompt-submit":
        if (text(raw.prompt)) p.prompt = raw.prompt;
        break;
      case "post-tool-use": {
        const t = tool(text(raw.tool_name) ?? "", argsObject(raw.tool_input));
        p.tool_name = t.tool_name;
        p.tool_input = t.tool_input;
        p.tool_response = raw.tool_response;
        if (text(raw.tool_use_id)) p.tool_use_id = raw.tool_use_id;
        break;
      }
      case "pre-tool-use": {
        // The pre-tool check reads the call only: `apply_patch` as an edit whose patch it reads (src/inject/pretool-match.ts).
        const t = tool(text(raw.tool_name) ?? "", argsObject(raw.tool_input));
        p.tool_name = t.tool_name;
        p.tool_input = t.tool_input;
        if (text(raw.tool_use_id)) p.tool_use_id = raw.tool_use_id;
        break;
      }
      case "pre-compact":
        if (text(raw.trigger)) p.trigger = raw.trigger;
        break;
      case "stop":
        if (text(raw.last_assistant_message)) p.last_assistant_message = raw.last_assistant_message;
        if (raw.stop_hook_active === true) p.stop_hook_active = true;
        break;
    }
    return p;
  },
  output: (name, context) => (name === "session-start" ? additionalContext("SessionStart", context) : name === "user-prompt-submit" ? additionalContext("UserPromptSubmit", context) : name === "pre-tool-use" ? additionalContext("PreToolUse", context) : undefined),
};
