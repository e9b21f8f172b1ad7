/**
 * Structural layer: one event per tool call (id = the tool_use id, exactly once), plus one
 * `error` event per failed call (id = `<tool_use id>#error`). Pure; no text interpretation.
 */
import type { CapturedEvent, EventType, TranscriptLine } from "../../store/event-types.js";
import { isObj, str } from "./messages.js";
import { collectToolCalls, errorKind, type ToolCall, type ToolCalls, type ToolResult } from "./tool-calls.js";
import { withheldReason } from "./withhold.js";

export const MODIFY_TOOLS: ReadonlySet<string> = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);
export const EXPLORE_TOOLS: ReadonlySet<string> = new Set(["Read", "Grep", "Glob", "LS"]);
export const COMMAND_TOOLS: ReadonlySet<string> = new Set(["Bash"]);

/** Longest command or error text kept in an event. */
export const MAX_COMMAND_CHARS = 1000;
export const MAX_ERROR_CHARS = 600;

export function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, Math.max(0, max - 1))}…`;
}

export function toolEventType(name: string): EventType {
  if (MODIFY_TOOLS.has(name)) return "file_modified";
  if (EXPLORE_TOOLS.has(name)) return "file_explored";
  if (COMMAND_TOOLS.has(name)) return "command_run";
  return "tool";
}

/** Paths a tool call touches, from its input (file_path, notebook_path, or a search path). */
export function filesOf(name: string, input: Record<string, unknown>): string[] {
  const f = str(input.file_path) ?? str(input.notebook_path);
  if (f) return [f];
  if (EXPLORE_TOOLS.has(name)) {
    const p = str(input.path);
    if (p) return [p];
  }
  return [];
}

/** One line describing the call, e.g. `Edit src/a.ts`, `$ npm test`, `Grep "foo" in src`. */
export function describeCall(name: string, input: Record<string, unknown>): string {
  const file = filesOf(name, input)[0];
  switch (name) {
    case "Bash":
      return `$ ${clip(str(input.command) ?? "", MAX_COMMAND_CHARS)}`;
    case "Grep":
      return `Grep ${JSON.stringify(str(input.pattern) ?? "")}${file ? ` in ${file}` : ""}`;
    case "Glob":
      return `Glob ${str(input.pattern) ?? ""}${file ? ` in ${file}` : ""}`;
    case "MultiEdit":
      return `MultiEdit ${file ?? "?"}${Array.isArray(input.edits) ? ` (${input.edits.length} edits)` : ""}`;
  }
  if (file) return `${name} ${file}`;
  // Other tools: the first few short string inputs (query, url, description, …).
  const parts = Object.entries(input)
    .filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== "")
    .slice(0, 3)
    .map(([k, v]) => `${k}=${clip(v.replace(/\s+/g, " "), 120)}`);
  return clip(parts.length ? `${name} ${parts.join(" ")}` : name, 400);
}

function baseMeta(call: ToolCall): Record<string, unknown> {
  const m: Record<string, unknown> = { tool: call.name, toolUseId: call.id };
  if (call.msg.sidechain) m.sidechain = true;
  if (call.msg.agentId) m.agentId = call.msg.agentId;
  if (call.msg.cwd) m.cwd = call.msg.cwd;
  return m;
}

function toolEvent(call: ToolCall, session: string): CapturedEvent {
  const metadata = baseMeta(call);
  metadata.status = !call.result ? "no_result" : call.result.isError ? "error" : "ok";
  if (call.name === "Bash") {
    const d = str(call.input.description);
    if (d) metadata.description = clip(d, 200);
    if (call.input.run_in_background === true) metadata.background = true;
    const r = call.result?.toolUseResult;
    if (isObj(r) && r.interrupted === true) metadata.interrupted = true;
  }
  const withheld = call.result ? withheldReason(call.result.text) : undefined;
  if (withheld) metadata.withheld = withheld;
  if (call.name === "Write" && isObj(call.result?.toolUseResult)) {
    const op = str(call.result.toolUseResult.type); // "create" | "update"
    if (op) metadata.operation = op;
  }
  return {
    id: call.id,
    type: toolEventType(call.name),
    time: call.msg.time,
    session,
    files: filesOf(call.name, call.input),
    text: withheld ? `${describeCall(call.name, call.input)} (content not stored: ${withheld})` : describeCall(call.name, call.input),
    metadata,
  };
}

function errorEvent(id: string, call: ToolCall | undefined, r: ToolResult, session: string): CapturedEvent {
  const kind = errorKind(r.text);
  const name = call?.name ?? "unknown tool";
  const metadata: Record<string, unknown> = call ? baseMeta(call) : { toolUseId: id };
  metadata.errorKind = kind;
  if (call?.name === "Bash") metadata.command = clip(str(call.input.command) ?? "", 300);
  const what = { rejected_by_user: "rejected by the user", interrupted: "interrupted", sibling_cancelled: "cancelled (a parallel call failed)", tool_error: "failed" }[kind];
  let detail = r.text.replace(/<\/?tool_use_error>/g, "").trim();
  if (kind !== "tool_error") detail = /the user said:\s*([\s\S]*)/i.exec(detail)?.[1]?.trim() ?? ""; // drop the boilerplate
  return {
    id: `${id}#error`,
    type: "error",
    time: r.msg.time,
    session,
    files: call ? filesOf(call.name, call.input) : [],
    text: clip(`${call ? describeCall(call.name, call.input) : name} ${what}${detail ? `: ${detail}` : ""}`, MAX_ERROR_CHARS),
    metadata,
  };
}

/** Structural events from already-paired tool calls, in call order (errors follow their call). */
export function eventsFromToolCalls(tc: ToolCalls, session: string): CapturedEvent[] {
  const out: CapturedEvent[] = [];
  for (const call of tc.calls) {
    out.push(toolEvent(call, session));
    if (call.result?.isError) out.push(errorEvent(call.id, call, call.result, session));
  }
  for (const o of tc.orphans) if (o.result.isError) out.push(errorEvent(o.toolUseId, undefined, o.result, session));
  return out;
}

export function structuralEvents(lines: readonly TranscriptLine[], opts: { session: string }): CapturedEvent[] {
  return eventsFromToolCalls(collectToolCalls(lines), opts.session);
}
