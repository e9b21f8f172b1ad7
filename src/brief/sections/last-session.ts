import type { SessionSummary } from "../../store/sessions.js";
import { field, prose } from "../../render/line.js";
import { ago, counted, inAssistant, shownPath, whenMade } from "../render.js";
import type { AssistantName } from "../../contract/adapter.cjs";
import type { Section } from "./section.js";

/** What the last session was doing and where it stopped (its summary), or, for sessions before summaries, the recent work. Pure. */
export interface LastSession {
  session: string;
  summary: SessionSummary;
  endReason?: string | null;
  /** It ran in this assistant (not Claude Code): the title names it. */
  assistant?: AssistantName;
}

export interface RecentEvent {
  type: string;
  text: string;
  time: string;
  session: string;
  files: readonly string[];
}

const list = (xs: readonly string[], n: number, render: (x: string) => string) =>
  `${xs.slice(0, n).map(render).join(", ")}${xs.length > n ? `, … (${xs.length} in all)` : ""}`;

export function lastSessionSection(last: LastSession, now: number, root: string | undefined): Section {
  const s = last.summary;
  const where = inAssistant(last.assistant);
  const when = [s.lastActivity ? `last active ${ago(s.lastActivity, now)}` : "", where].filter(Boolean).join(", ");
  const items: string[] = [];
  if (s.goal.length > 0) items.push(`- Goal: ${s.goal.map((g) => `“${prose(g, 200)}”`).join("; then ")}`);
  if (s.filesChanged.length > 0) items.push(`- Changed: ${list(s.filesChanged, 10, (f) => shownPath(f, root))}`);
  if (s.fixed.length > 0) items.push(`- Fixed (failed, then passed): ${list(s.fixed, 4, (c) => prose(c, 120))}`);
  if (s.failing.length > 0) items.push(`- Still failing when it stopped: ${list(s.failing, 4, (c) => prose(c, 120))}`);
  // Its decisions are in the decisions sections (every decision is), which come after this one
  // (buildBriefing's order): counted here, not repeated.
  if (s.decisions.length > 0) items.push(`- Made ${s.decisions.length} decision(s), listed under Decisions and Rejected approaches below`);
  if (s.openTasks > 0) items.push(`- Left ${s.openTasks} task(s) open`);
  if (last.endReason) items.push(`- Ended: ${field(last.endReason, 40)}`);
  return { title: `Last session${when ? ` (${when})` : ""}`, items };
}

/** The fallback for stores without session summaries: last activity, files modified, recent errors. */
export function recentWorkSection(events: readonly RecentEvent[], now: number, root: string | undefined): Section {
  const recent = events.filter((e) => e.type === "file_modified" || e.type === "error" || e.type === "command_run").sort((a, b) => b.time.localeCompare(a.time));
  const files = [...new Set(recent.filter((e) => e.type === "file_modified").flatMap((e) => e.files.map((f) => shownPath(f, root))))].slice(0, 15);
  const items: string[] = [];
  const last = recent[0];
  if (last) items.push(`- Last activity ${whenMade(last.time, last.session, now)}`);
  if (files.length > 0) items.push(`- Files modified: ${files.join(", ")}`);
  items.push(...counted(recent.filter((x) => x.type === "error").map((e) => `- Error: ${prose(e.text, 200)} (${field(e.time.slice(0, 10))})`)).slice(0, 3));
  return { title: "Recent work", items };
}
