/**
 * A uniform view of the conversation messages in transcript lines. Besides top-level `user` and
 * `assistant` lines, Claude Code 2.1.x mirrors each subagent message into the main file as a
 * `progress` line with `data.type:"agent_progress"` and the message in `data.message`; those are
 * yielded too, marked `viaProgress` and `sidechain`. Pure.
 */
import type { TranscriptLine } from "../../store/event-types.js";

export type Block = Record<string, unknown>;

export interface MessageView {
  role: "assistant" | "user";
  /** Content blocks; a string content becomes one `text` block. */
  blocks: Block[];
  /** The content was a plain string (a typed prompt, a compact summary, a notification). */
  stringContent: boolean;
  time: string;
  uuid?: string;
  /** `sessionId` of the line (subagent lines carry the parent's). */
  session?: string;
  /** Written by a subagent: an `isSidechain` line or a message inside a progress line. */
  sidechain: boolean;
  viaProgress: boolean;
  agentId?: string;
  cwd?: string;
  /** Index of the line in the input array. */
  lineIndex: number;
  /** The structured result Claude Code stored next to a tool_result (user lines only). */
  toolUseResult?: unknown;
  /** isMeta, isCompactSummary or a `<synthetic>` API-error message: not user/assistant intent. */
  nonIntent: boolean;
}

export const isObj = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

function blocksOf(content: unknown): { blocks: Block[]; stringContent: boolean } | undefined {
  if (typeof content === "string") return { blocks: [{ type: "text", text: content }], stringContent: true };
  if (Array.isArray(content)) return { blocks: content.filter(isObj), stringContent: false };
  return undefined;
}

function view(
  entry: Record<string, unknown>,
  line: TranscriptLine,
  lineIndex: number,
  viaProgress: boolean,
): MessageView | undefined {
  const role = str(entry.type);
  const msg = entry.message;
  if ((role !== "user" && role !== "assistant") || !isObj(msg)) return undefined;
  const b = blocksOf(msg.content);
  if (!b) return undefined;
  const agentId = str(entry.agentId) ?? str(line.agentId) ?? (isObj(line.data) ? str(line.data.agentId) : undefined);
  return {
    role,
    ...b,
    time: str(entry.timestamp) ?? str(line.timestamp) ?? "",
    uuid: str(entry.uuid),
    session: str(line.sessionId),
    sidechain: viaProgress || line.isSidechain === true,
    viaProgress,
    agentId,
    cwd: str(line.cwd),
    lineIndex,
    toolUseResult: entry.toolUseResult,
    nonIntent: entry.isMeta === true || entry.isCompactSummary === true || msg.model === "<synthetic>",
  };
}

/** Yields the messages of `lines` in file order. */
export function* messages(lines: readonly TranscriptLine[]): Generator<MessageView> {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!isObj(line)) continue;
    let v: MessageView | undefined;
    if (line.type === "progress" && isObj(line.data) && isObj(line.data.message)) {
      v = view(line.data.message, line, i, true);
    } else v = view(line, line, i, false);
    if (v) yield v;
  }
}

/** Plain text of a tool_result's content (string, or text blocks joined). */
export function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b) => (isObj(b) && typeof b.text === "string" ? b.text : ""))
    .filter((s) => s !== "")
    .join("\n");
}

/** True for a `system` line with subtype `compact_boundary`. */
export function isCompactBoundary(line: unknown): boolean {
  return isObj(line) && line.type === "system" && line.subtype === "compact_boundary";
}

/** Agent ids of Claude Code's internal compaction agent (`acompact-…`): its text restates the session. */
export function isCompactionAgent(agentId: string | undefined): boolean {
  return agentId?.startsWith("acompact") === true;
}
