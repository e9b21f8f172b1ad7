import { isAbsolute, relative } from "node:path";
import { field } from "../render/line.js";
import { assistantLabel, type AssistantName } from "../contract/adapter.cjs";
import { relativeTime } from "../render/time.js";

/** Small renderers the briefing's sections share: every value one line (src/render/line.ts). Pure. */

/** A session id, short (src/render/line.ts). */
export { shortSession } from "../render/line.js";
/**
 * When a briefing line's memory was made, "outside a session" for one put without a session, and
 * "in a Codex session" for one made in another assistant than Claude Code (mem's own label for
 * it: src/contract/adapter.cts). A session's id is not shown: it tells the model nothing the time
 * does not (the prompt's memories name a session by its day).
 */
export const whenMade = (time: string | number, session: string | null | undefined, now: number, assistant?: AssistantName) =>
  [ago(time, now), session ? inAssistant(assistant) : "outside a session"].filter(Boolean).join(", ") || "at an unknown time";

/** "in a Codex session", or "" for Claude Code's (and unknown) sessions. */
export function inAssistant(assistant: AssistantName | undefined): string {
  const label = assistantLabel(assistant);
  return label ? `in a ${label} session` : "";
}

/** "just now", "5 min ago", "5 h ago", "3 d ago" (empty for an unknown time): src/render/time.ts. */
export const ago = (time: string | number, now: number): string => relativeTime(time, now);

/** A path as the briefing shows it: relative to the project's directory when it lies under it; one line. */
export function shownPath(path: string, root: string | undefined): string {
  if (!root || !isAbsolute(path)) return field(path);
  const rel = relative(root, path);
  return field(rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path);
}

/** Lines in first-seen order, a repeated one once with its count. */
export function counted(lines: string[]): string[] {
  const n = new Map<string, number>();
  for (const l of lines) n.set(l, (n.get(l) ?? 0) + 1);
  return [...n].map(([l, k]) => (k > 1 ? `${l} (×${k})` : l));
}
