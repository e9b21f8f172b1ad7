/**
 * Combines the capture layers over transcript lines: structural tool events, task-list changes,
 * explicit `[MEMORY: …]` tags and keyword markers. Ids are stable (tool_use ids, or a hash of
 * session + kind + text), so extracting the same lines twice, or main and subagent files
 * together, yields each event once. Pure.
 */
import { createHash } from "node:crypto";
import type { CapturedEvent, TranscriptLine } from "../../store/event-types.js";
import { extractKeywords } from "./keywords.js";
import { isCompactionAgent, messages, str, type MessageView } from "./messages.js";
import { structuralEvents } from "./structural.js";
import { sameStatement } from "./same.js";
import { extractTags, withoutTags } from "./tags.js";
import { changeEvents, replayTasks } from "./tasks.js";
import type { TaskChange, TaskListState } from "../../tasks/state.js";

export interface ExtractOptions {
  /** Session id for the events; defaults to the first `sessionId` in the lines. */
  session?: string;
  /** Task-list state to resume from (e.g. saved at the previous incremental read). */
  tasksFrom?: TaskListState;
  /** Drop keyword hits below this confidence (default 0: keep all). */
  minConfidence?: number;
}

export function contentId(prefix: string, ...parts: string[]): string {
  return `${prefix}:${createHash("sha1").update(parts.join("\u0000")).digest("hex").slice(0, 20)}`;
}

/** Paths quoted as inline code in prose, e.g. `src/capture/tags.ts`. */
export function mentionedFiles(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/`([\w./@-]*[\w@-]\/[\w./@-]+|[\w@-]+\.[a-z][a-z0-9]{0,5})`/g)) out.add(m[1]!);
  return [...out].slice(0, 20);
}

/** Text a person or the model wrote, or undefined (tool output, injected and meta content). */
function prose(m: MessageView, text: string): string | undefined {
  if (m.nonIntent || isCompactionAgent(m.agentId)) return undefined;
  if (m.role === "user") {
    if (m.sidechain) return undefined; // a subagent's prompt is written by the parent agent
    const t = text.trimStart();
    if (t.startsWith("<") || t.startsWith("[Request interrupted") || t.startsWith("Caveat:")) return undefined;
  }
  return text;
}

/** What the user typed in these lines (prompts, not tool results, injected or meta content), in order. */
export function userPrompts(lines: readonly TranscriptLine[]): string[] {
  const out: string[] = [];
  for (const m of messages(lines)) {
    if (m.role !== "user") continue;
    for (const b of m.blocks) {
      const text = b.type === "text" ? prose(m, str(b.text) ?? "") : undefined;
      if (text && text.trim() !== "") out.push(text.trim());
    }
  }
  return out;
}

function textEvents(lines: readonly TranscriptLine[], sess: string, min: number): CapturedEvent[] {
  const out: CapturedEvent[] = [];
  for (const m of messages(lines)) {
    for (const b of m.blocks) {
      if (b.type !== "text") continue;
      const text = prose(m, str(b.text) ?? "");
      if (!text) continue;
      const meta = (extra: Record<string, unknown>): Record<string, unknown> => {
        const md: Record<string, unknown> = { role: m.role, ...extra };
        if (m.uuid) md.messageUuid = m.uuid;
        if (m.sidechain) md.sidechain = true;
        if (m.agentId) md.agentId = m.agentId;
        return md;
      };
      const tags = extractTags(text);
      for (const t of tags) {
        out.push({ id: contentId("tag", sess, t.type, t.text), type: t.type, time: m.time, session: sess,
          files: mentionedFiles(t.text), text: t.text, confidence: 1, metadata: meta({ source: "tag" }) });
      }
      for (const k of extractKeywords(withoutTags(text), m.role)) {
        if (k.confidence < min) continue;
        // The sentence beside a tag that restates it is the same memory: the tag says it better.
        if (tags.some((t) => sameStatement(t.text, k.text))) continue;
        out.push({ id: contentId("kw", sess, k.type, k.text), type: k.type, time: m.time, session: sess,
          files: mentionedFiles(k.text), text: k.text, confidence: k.confidence, metadata: meta({ source: "keyword", marker: k.marker }) });
      }
    }
  }
  return out;
}

/** Session of the lines when none is given: the first `sessionId` found. */
function sessionOf(lines: readonly TranscriptLine[]): string {
  for (const l of lines) if (typeof l.sessionId === "string") return l.sessionId;
  return "";
}

export function extractFromLines(lines: readonly TranscriptLine[], opts: ExtractOptions = {}): CapturedEvent[] {
  return extractWithTasks(lines, opts).events;
}

/** The events, the task-list state after the lines (to resume from at the next incremental read), and the task changes. */
export function extractWithTasks(lines: readonly TranscriptLine[], opts: ExtractOptions = {}): { events: CapturedEvent[]; tasks: TaskListState; changes: TaskChange[] } {
  const session = opts.session ?? sessionOf(lines);
  const { state, changes } = replayTasks(lines, opts.tasksFrom);
  const all = [...structuralEvents(lines, { session }), ...changeEvents(changes, session), ...textEvents(lines, session, opts.minConfidence ?? 0)];
  const seen = new Set<string>();
  const events = all.filter((e) => {
    if (seen.has(e.id)) return false;
    seen.add(e.id);
    return true;
  });
  return { events, tasks: state, changes };
}

export { structuralEvents } from "./structural.js";
export { finalTasks, replayTasks, taskEvents } from "./tasks.js";
export { listTasks, emptyTaskState, type TaskListState } from "../../tasks/state.js";
export { extractKeywords } from "./keywords.js";
export { extractTags } from "./tags.js";
export { postToolUsePayloads } from "./payloads.js";
