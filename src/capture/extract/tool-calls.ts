/**
 * Pairs assistant `tool_use` blocks with their `tool_result` blocks (in later user messages,
 * matched by id). Each tool_use id is kept once: a subagent's call appears both in its own file
 * and as a progress line in the main file, so callers may pass both. Pure.
 */
import type { TranscriptLine } from "../../store/event-types.js";
import { isObj, messages, resultText, str, type MessageView } from "./messages.js";

export interface ToolResult {
  isError: boolean;
  /** Text of the tool_result content. */
  text: string;
  /** Raw tool_result content (string or blocks). */
  content: unknown;
  /** Claude Code's structured `toolUseResult`, when stored (absent inside progress lines). */
  toolUseResult?: unknown;
  msg: MessageView;
}

export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  msg: MessageView;
  result?: ToolResult;
}

export interface ToolCalls {
  /** In order of first appearance. */
  calls: ToolCall[];
  /** Results whose tool_use is not in the input (e.g. it was in an earlier incremental read). */
  orphans: { toolUseId: string; result: ToolResult }[];
}

export function collectToolCalls(lines: readonly TranscriptLine[]): ToolCalls {
  const byId = new Map<string, ToolCall>();
  const orphanById = new Map<string, ToolResult>();
  for (const m of messages(lines)) {
    for (const b of m.blocks) {
      if (m.role === "assistant" && b.type === "tool_use") {
        const id = str(b.id);
        if (id === undefined || byId.has(id)) continue;
        byId.set(id, { id, name: str(b.name) ?? "unknown", input: isObj(b.input) ? b.input : {}, msg: m });
      } else if (m.role === "user" && b.type === "tool_result") {
        const id = str(b.tool_use_id);
        if (id === undefined) continue;
        const result: ToolResult = {
          isError: b.is_error === true,
          text: resultText(b.content),
          content: b.content,
          toolUseResult: m.toolUseResult,
          msg: m,
        };
        const call = byId.get(id);
        if (call) {
          if (!call.result) call.result = result;
          else if (call.result.toolUseResult === undefined && result.toolUseResult !== undefined) {
            call.result.toolUseResult = result.toolUseResult; // the subagent file has the structured result
          }
        } else if (!orphanById.has(id)) orphanById.set(id, result);
      }
    }
  }
  const orphans: ToolCalls["orphans"] = [];
  for (const [toolUseId, result] of orphanById) {
    const call = byId.get(toolUseId); // a result listed before its call (files passed out of order)
    if (!call) orphans.push({ toolUseId, result });
    else call.result ??= result;
  }
  return { calls: [...byId.values()], orphans };
}

/** How a failed tool call failed, from its result text. */
export function errorKind(text: string): "rejected_by_user" | "interrupted" | "sibling_cancelled" | "tool_error" {
  if (/^(Error: )?The user doesn't want to proceed with this tool use/.test(text)) return "rejected_by_user";
  if (/^(Error: )?\[Request interrupted by user/.test(text)) return "interrupted";
  // A parallel call failed, so Claude Code cancelled this one before it ran.
  if (/^(<tool_use_error>)?Sibling tool call errored/.test(text)) return "sibling_cancelled";
  return "tool_error";
}
