/**
 * A session's summary, with no LLM: what it set out to do (its first prompts), the files it
 * changed, the commands that failed and then passed (and those still failing), its decisions, how
 * many tasks it left open, and when it was last active. Built at Stop and SessionEnd from the
 * session's events; the next SessionStart briefing shows the last session's. Pure.
 */
import type { SessionSummary } from "../store/sessions.js";

export interface SummaryEvent {
  type: string;
  text: string;
  time: string;
  files: readonly string[];
  metadata: Record<string, unknown>;
}

const MAX_ITEMS = 8;
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function summarizeSession(events: readonly SummaryEvent[], goal: readonly string[], openTasks: number): SessionSummary {
  const ordered = [...events].sort((a, b) => a.time.localeCompare(b.time));
  const files = new Set<string>();
  const runs = new Map<string, boolean[]>(); // command → ok, in order
  const decisions: string[] = [];
  for (const e of ordered) {
    if (e.type === "file_modified") {
      for (const f of e.files) files.add(f);
    }
    if (e.type === "command_run") {
      const status = e.metadata.status;
      if (status === "ok" || status === "error") runs.set(e.text, [...(runs.get(e.text) ?? []), status === "ok"]);
    }
    if ((e.type === "decision" || e.type === "rejected") && (typeof e.metadata.confidence !== "number" || e.metadata.confidence >= 0.6)) decisions.push(clip(e.text, 200));
  }
  const fixed: string[] = [];
  const failing: string[] = [];
  for (const [cmd, oks] of runs) {
    const firstFail = oks.indexOf(false);
    if (firstFail >= 0 && oks.slice(firstFail).includes(true) && oks.at(-1)) fixed.push(clip(cmd, 160));
    else if (oks.at(-1) === false) failing.push(clip(cmd, 160));
  }
  return {
    goal: goal.slice(0, 2).map((g) => clip(g.replace(/\s+/g, " ").trim(), 200)),
    filesChanged: [...files].slice(-MAX_ITEMS * 2),
    fixed: fixed.slice(-MAX_ITEMS),
    failing: failing.slice(-MAX_ITEMS),
    decisions: [...new Set(decisions)].slice(-MAX_ITEMS),
    openTasks,
    lastActivity: ordered.at(-1)?.time ?? "",
    events: ordered.length,
  };
}
