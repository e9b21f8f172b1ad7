import { bracket, field, prose, shortSession } from "../../render/line.js";
import { relativeTime } from "../../render/time.js";
import { blockedReasonOf } from "../../tasks/state.js";
import { inAssistant } from "../render.js";
import type { AssistantName } from "../../contract/adapter.cjs";

/**
 * The briefing's "Open tasks" section, from the project's task registry: every session's open
 * tasks, newest first, each with its age and the session that created it; tasks untouched for
 * `staleDays` or more are compressed into one line (never dropped). Every stored value is
 * rendered by render/line.ts, so a task's text stays inside its own item. Pure: the clock comes in.
 */
export interface OpenTask {
  content: string;
  status: string;
  /** ms */
  createdAt: number;
  /** ms; a task untouched since `staleDays` ago is stale. */
  updatedAt: number;
  /** null: added by hand (`mem task add`). */
  createdSession: string | null;
  /** Created in this assistant's session (not Claude Code's): the line names it. */
  assistant?: AssistantName;
  /** Why it is blocked (status `blocked`). */
  blockedReason?: string | null;
}

/** " — blocked: REASON" for a blocked task; "" otherwise. */
export function blockedNote(t: { status: string; blockedReason?: string | null }, max = 200): string {
  const r = blockedReasonOf(t);
  return r === null ? "" : ` — blocked: ${r === "" ? "no reason given" : prose(r, max)}`;
}

export const DEFAULT_STALE_DAYS = 30;
/** Fresh tasks shown one per line; the rest are counted in a last line pointing to `mem task list`. */
export const MAX_TASK_ITEMS = 25;
const DAY_MS = 86_400_000;

/** "just now", "5 min ago", "5 h ago", "3 d ago" (src/render/time.ts). */
export const taskAge = (ms: number, now: number): string => relativeTime(ms, now);

export const isStale = (t: { updatedAt: number }, now: number, staleDays = DEFAULT_STALE_DAYS): boolean => now - t.updatedAt >= staleDays * DAY_MS;

/** "session 1a2b3c4d", or "added with mem task add" (`mem task list`; the briefing names no session: `briefingOrigin`). */
export const createdBy = (session: string | null): string => (session ? `session ${shortSession(session)}` : "added with mem task add");
/** What the briefing says of a task's origin: that it was added by hand, or opened in another assistant than Claude Code. */
const briefingOrigin = (session: string | null, assistant: AssistantName | undefined): string => {
  if (!session) return ", added with mem task add";
  const where = inAssistant(assistant);
  return where ? `, opened ${where}` : "";
};

/** Newest created first; tasks created together keep the order they came in (a list's own order). */
const newestFirst = (a: OpenTask, b: OpenTask) => b.createdAt - a.createdAt;

/**
 * `tasks` may be the newest-created part of a longer list: `totals` then gives how many open tasks
 * are fresh and stale in all (the newest of each kind are a prefix of the newest overall).
 */
export function openTasksSection(tasks: readonly OpenTask[], now: number, staleDays = DEFAULT_STALE_DAYS, maxItems = MAX_TASK_ITEMS, totals?: { fresh: number; stale: number }): { title: string; items: string[] } {
  const sorted = [...tasks].sort(newestFirst);
  const fresh = sorted.filter((t) => !isStale(t, now, staleDays));
  const stale = sorted.filter((t) => isStale(t, now, staleDays));
  const freshTotal = Math.max(totals?.fresh ?? 0, fresh.length);
  const staleTotal = Math.max(totals?.stale ?? 0, stale.length);
  const items = fresh.slice(0, maxItems).map((t) => `- ${bracket([field(t.status, 20)])} ${prose(t.content, 200)}${blockedNote(t)} (${taskAge(t.createdAt, now)}${briefingOrigin(t.createdSession, t.assistant)})`);
  if (freshTotal > maxItems) items.push(`- … and ${freshTotal - Math.min(maxItems, fresh.length)} more open tasks (mem task list)`);
  if (staleTotal > 0) {
    const days = field(String(staleDays));
    items.push(prose(`- Stale tasks (untouched ${days}+ days): ${staleTotal} — ${stale.map((t) => prose(t.content, 60)).join("; ")}`, 600));
  }
  return { title: "Open tasks", items };
}
