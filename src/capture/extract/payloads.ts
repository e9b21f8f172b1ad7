/**
 * Rebuilds the PostToolUse / PostToolUseFailure hook stdin payloads a session would have produced,
 * from its transcript, so captured transcripts can be replayed through the hook adapter. Pure.
 *
 * As in Claude Code (HOOKS.md §3.4–3.5): calls without a result never fired a hook, and neither
 * did user rejections, interrupts or calls cancelled because a parallel call failed: left out.
 */
import type { TranscriptLine } from "../../store/event-types.js";
import { collectToolCalls, errorKind } from "./tool-calls.js";

export interface ReplayedToolPayload {
  session_id: string;
  transcript_path?: string;
  cwd?: string;
  hook_event_name: "PostToolUse" | "PostToolUseFailure";
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_use_id: string;
  /** PostToolUse: the structured `toolUseResult` when stored, else the tool_result content. */
  tool_response?: unknown;
  /** PostToolUseFailure: the error text (Bash errors start with `Exit code N`). */
  error?: string;
  /** PostToolUseFailure: always false here (interrupts never reach a hook). */
  is_interrupt?: boolean;
  /** Set for calls made by a subagent. */
  agent_id?: string;
}

export function postToolUsePayloads(
  lines: readonly TranscriptLine[],
  opts: { session?: string; transcriptPath?: string } = {},
): ReplayedToolPayload[] {
  const out: ReplayedToolPayload[] = [];
  for (const call of collectToolCalls(lines).calls) {
    const r = call.result;
    if (!r) continue;
    if (r.isError && errorKind(r.text) !== "tool_error") continue;
    const p: ReplayedToolPayload = {
      session_id: opts.session ?? call.msg.session ?? "",
      hook_event_name: r.isError ? "PostToolUseFailure" : "PostToolUse",
      tool_name: call.name,
      tool_input: call.input,
      tool_use_id: call.id,
    };
    if (opts.transcriptPath) p.transcript_path = opts.transcriptPath;
    if (call.msg.cwd) p.cwd = call.msg.cwd;
    if (call.msg.sidechain && call.msg.agentId) p.agent_id = call.msg.agentId;
    if (r.isError) {
      p.error = r.text.replace(/<\/?tool_use_error>/g, "").trim();
      p.is_interrupt = false;
    }
    else p.tool_response = r.toolUseResult ?? r.content;
    out.push(p);
  }
  return out;
}
