import { isOpenTask } from "../tasks/state.js";
import { DEFAULT_SALIENCE, type SalienceConfig } from "../memory/salience.js";
import { BRIEFING, frameOverhead, framed } from "../render/frame.js";
import { bracket, field, prose } from "../render/line.js";
import { whenMade } from "./render.js";
import { DECISION_LIMITS, decisionSections, PREFERENCES, type BriefDecision } from "./sections/decisions.js";
import { inPlaySection, type InPlay } from "./sections/in-play.js";
import { lastSessionSection, recentWorkSection, type LastSession, type RecentEvent } from "./sections/last-session.js";
import { maintenanceSection, type MaintenanceFailure } from "./sections/maintenance.js";
import { noteSections, PROFILE_TITLE, type HotNote } from "./sections/notes.js";
import type { Section } from "./sections/section.js";
import { shareSection, type ShareProposal } from "./sections/share.js";

/**
 * The SessionStart briefing: a projection of the project's memory within a budget, inside the
 * briefing frame. Sections in priority order: the hot-tier notes (the current user's profile
 * first, with their preferences beside it, then the project's and the user-global notes: the
 * user's own words about what matters now), open tasks, memories about the files in play, what
 * the last session was doing and where it stopped, then decisions, rejected approaches and learned
 * facts (all of them, by salience, not a window of recent events). The hot notes draw on at most
 * NOTES_SHARE of the room and the tasks TASKS_SHARE, so what follows always has some; whatever had no room at all is
 * counted in a last section pointing to `mem list`. Every stored value is rendered by
 * render/line.ts (one line, markup defused), so nothing stored can add a section, an item or an
 * instruction of its own. Pure: everything, the clock included, comes in as input.
 */
export interface BriefTask {
  content: string;
  status: string;
  /** The session that created it. */
  session: string;
  /** ISO time, or ms. */
  updatedAt: string | number;
}

export interface BriefingInput {
  source: string;
  now: number;
  budgetTokens: number;
  /** Open tasks (a ready section, from the project's task registry, takes their place when given). */
  tasks: BriefTask[];
  taskSection?: Section;
  decisions: BriefDecision[];
  /** How many decision-like memories of each kind the project holds (`decisions` may be the few that can rank first). */
  decisionTotals?: Record<string, number>;
  lastSession?: LastSession;
  /** Recent work events, shown when no session summary exists yet. */
  recent?: RecentEvent[];
  hot: HotNote[];
  inPlay?: InPlay;
  salience?: SalienceConfig;
  /** The project's directory: paths under it are shown relative to it. */
  root?: string;
  /** The last `mem reindex` failed: one line, first. */
  maintenance?: MaintenanceFailure;
  /**
   * Run on each rendered item and title (not on the whole briefing: a match that runs to the end
   * of its text, an unterminated private key, must not take the frame and the sections after it).
   */
  redact?: (s: string) => string;
  /** What of the last session could be shared with the team (team.propose): one line, last. */
  proposal?: ShareProposal;
}

export { MIN_DECISION_CONFIDENCE } from "../store/event-types.js";
/** Claude Code moves hook output above 10,000 characters to a file. */
const HARD_CAP_CHARS = 9_000;

/** One line after the frame: the most accurate capture layer is the one the model writes itself. */
export const TAG_HINT = "To keep something for later sessions, write `[MEMORY: decision|rejected|learned|preference|task] text` on a line of its own.";

function tasksSection(tasks: BriefTask[], now: number): Section {
  const open = tasks.filter(isOpenTask);
  return { title: "Open tasks", items: open.map((t) => `- ${bracket([field(t.status, 20)])} ${prose(t.content, 200)} (${whenMade(t.updatedAt, t.session, now)})`) };
}

export function buildBriefing(input: BriefingInput): string | undefined {
  const failed = maintenanceSection(input.maintenance, input.now);
  const decided = decisionSections(input.decisions, input.now, input.salience ?? DEFAULT_SALIENCE, DECISION_LIMITS, input.decisionTotals);
  const prefs = decided.filter((s) => s.title === PREFERENCES);
  const notes = noteSections(input.hot, input.root).map((s): Section => ({ ...s, pool: "notes", more: (n) => `> … ${n} more line(s)`, gone: `- ${s.title.replace(/^From /, "the note ")}` }));
  const profile = notes.findIndex((s) => s.title.startsWith(PROFILE_TITLE));
  notes.splice(profile + 1, 0, ...prefs);
  const tasks: Section = { ...(input.taskSection ?? tasksSection(input.tasks, input.now)), pool: "tasks", more: (n) => `- ${n} more line(s) of open tasks: \`mem task list\``, gone: "- the open tasks: `mem task list`" };
  const sections: Section[] = [...(failed ? [failed] : []), ...notes, tasks];
  const play = input.inPlay && inPlaySection(input.inPlay, input.now, input.root);
  if (play) sections.push({ ...play, gone: "- memories about the files in play" });
  if (input.lastSession) sections.push({ ...lastSessionSection(input.lastSession, input.now, input.root), gone: "- what the last session did" });
  else if (input.recent) sections.push({ ...recentWorkSection(input.recent, input.now, input.root), gone: "- the recent work" });
  sections.push(...decided.filter((s) => s.title !== PREFERENCES));
  const proposal = shareSection(input.proposal);
  if (proposal) sections.push(proposal);
  return assemble(sections, Math.min(input.budgetTokens * 4, HARD_CAP_CHARS), input.redact ?? ((x) => x));
}

/** The share of the room the hot notes may take together, and the open tasks. */
export const NOTES_SHARE = 0.6;
export const TASKS_SHARE = 0.3;
/** Kept free for the last section, which counts what had no room at all. */
const LEFT_OUT_RESERVE = 240;
const LEFT_OUT_TITLE = "Not shown for lack of room";

/**
 * Fits sections into `budget` characters, in order: a section's items while they fit, then its
 * "more" line for what did not; a section with no room for its heading and one item is left out.
 * Each title and item is redacted on its own. Undefined when nothing is left to show.
 */
export function assemble(sections: readonly Section[], budget: number, redact: (s: string) => string): string | undefined {
  const total = budget - frameOverhead(BRIEFING) - TAG_HINT.length - 1;
  const room = total - LEFT_OUT_RESERVE;
  // A pool's share binds only when the others need the room: it may take whatever they leave.
  const full = (s: Section) => s.items.reduce((n, i) => n + i.length + 1, s.title.length + 5);
  const others = (pool: string) => sections.filter((s) => s.pool !== pool && s.items.length > 0).reduce((n, s) => n + full(s), 0);
  const share = (pool: "notes" | "tasks", f: number) => ({ used: 0, room: Math.max(Math.floor(room * f), room - others(pool)) });
  const pools = { notes: share("notes", NOTES_SHARE), tasks: share("tasks", TASKS_SHARE) };
  const out: string[] = [];
  const leftOut: string[] = [];
  let used = 0;
  for (const s of sections) {
    if (s.items.length === 0) continue;
    const pool = s.pool ? pools[s.pool] : undefined;
    const left = Math.min(room - used, pool ? pool.room - pool.used : Number.POSITIVE_INFINITY);
    const head = `${out.length > 0 ? "\n" : ""}## ${redact(s.title)}`;
    const items = s.items.map(redact);
    const moreLine = (n: number) => (s.more && n > 0 ? redact(s.more(n)) : undefined);
    const all = items.length + (s.hidden ?? 0);
    const goneLine = () => (s.gone !== undefined ? redact(s.gone) : moreLine(all));
    if (head.length + 1 + Math.min(items[0]!.length, 80) > left) {
      const m = goneLine();
      if (m) leftOut.push(m);
      continue;
    }
    const kept: string[] = [];
    let size = head.length + 1;
    const reserve = s.more ? (moreLine(all)?.length ?? 0) + 1 : 0;
    for (const [i, item] of items.entries()) {
      const last = i === items.length - 1 && !(s.hidden ?? 0);
      if (size + item.length + 1 + (last ? 0 : reserve) > left) break;
      kept.push(item);
      size += item.length + 1;
    }
    if (kept.length === 0) {
      const m = goneLine();
      if (m) leftOut.push(m);
      continue;
    }
    const more = moreLine(items.length - kept.length + (s.hidden ?? 0));
    if (more) {
      kept.push(more);
      size += more.length + 1;
    }
    out.push(head, ...kept);
    used += size;
    if (pool) pool.used += size;
  }
  if (leftOut.length > 0 && out.length > 0) {
    const head = `\n## ${LEFT_OUT_TITLE}`;
    const lines: string[] = [];
    let size = head.length + 1;
    for (const l of leftOut) {
      if (used + size + l.length + 1 > total) break;
      lines.push(l);
      size += l.length + 1;
    }
    if (lines.length > 0) out.push(head, ...lines);
  }
  return out.length > 0 ? `${framed(BRIEFING, out)}\n${TAG_HINT}` : undefined;
}
