import { isAbsolute, relative } from "node:path";
import { isOpenTask } from "../capture/extract/tasks.js";
import { BRIEFING, frameOverhead, framed } from "../render/frame.js";
import { field, prose } from "../render/line.js";

/**
 * The SessionStart briefing: a projection of stored events, task lists and hot-tier memory into
 * compact markdown within a budget, inside the briefing frame. Every stored value is rendered by
 * render/line.ts (one line, markup defused), so a captured path or text can never add a section,
 * an item or an instruction of its own. Pure: everything, the clock included, comes in as input.
 */
export interface BriefTask {
  content: string;
  status: string;
  session: string;
  updatedAt: string;
}

export interface BriefEvent {
  type: string;
  text: string;
  time: string;
  session: string;
  files: string[];
  confidence?: number;
}

export interface HotNote {
  /** identity | state | references */
  layout: string;
  path: string;
  text: string;
}

export interface BriefingInput {
  source: string;
  now: number;
  tasks: BriefTask[];
  /** A ready "Open tasks" section (the project's task registry, src/brief/sections/tasks.ts); replaces the one built from `tasks`. */
  taskSection?: { title: string; items: string[] };
  events: BriefEvent[];
  hot: HotNote[];
  budgetTokens: number;
  /** The project's directory: paths under it are shown relative to it. */
  root?: string;
  /**
   * Run on each rendered item and title (not on the whole briefing: a match that runs to the end
   * of its text, an unterminated private key, must not take the frame and the sections after it).
   */
  redact?: (s: string) => string;
}

/** Decisions below this confidence stay out of the briefing ("decided to read the file"). */
export const MIN_DECISION_CONFIDENCE = 0.6;
/** Claude Code moves hook output above 10,000 characters to a file. */
const HARD_CAP_CHARS = 9_000;

const short = (session: string) => field(session.slice(0, 8));
const day = (iso: string) => field(iso.slice(0, 10));

function ago(iso: string, now: number): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return "";
  const h = Math.max(0, (now - t) / 3_600_000);
  return h < 1 ? "within the hour" : h < 48 ? `${Math.round(h)} h ago` : `${Math.round(h / 24)} d ago`;
}

/** A path as the briefing shows it: relative to the project's directory when it lies under it; one line. */
function shown(path: string, root: string | undefined): string {
  if (!root || !isAbsolute(path)) return field(path);
  const rel = relative(root, path);
  return field(rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path);
}

/** Lines in first-seen order, a repeated one once with its count. */
function counted(lines: string[]): string[] {
  const n = new Map<string, number>();
  for (const l of lines) n.set(l, (n.get(l) ?? 0) + 1);
  return [...n].map(([l, k]) => (k > 1 ? `${l} (×${k})` : l));
}


export function buildBriefing(input: BriefingInput): string | undefined {
  const budget = Math.min(input.budgetTokens * 4, HARD_CAP_CHARS) - frameOverhead(BRIEFING);
  const sections: { title: string; items: string[] }[] = [];
  const open = input.tasks.filter(isOpenTask);
  sections.push(input.taskSection ? { ...input.taskSection, items: [...input.taskSection.items] } : {
    title: "Open tasks",
    items: open.map((t) => `- [${field(t.status, 20)}] ${prose(t.content, 200)} (session ${short(t.session)}, ${day(t.updatedAt)})`),
  });
  const byType = (types: string[], min = 0) =>
    input.events
      .filter((e) => types.includes(e.type) && (e.confidence ?? 1) >= min)
      .sort((a, b) => (b.confidence ?? 1) - (a.confidence ?? 1) || b.time.localeCompare(a.time));
  sections.push({ title: "Decisions", items: byType(["decision", "preference"], MIN_DECISION_CONFIDENCE).map((e) => `- ${prose(e.text, 240)} (${day(e.time)}, session ${short(e.session)})`) });
  sections.push({ title: "Rejected approaches", items: byType(["rejected"], MIN_DECISION_CONFIDENCE).map((e) => `- ${prose(e.text, 240)} (${day(e.time)}, session ${short(e.session)})`) });
  sections.push({ title: "Learned", items: byType(["learned"], 0.8).map((e) => `- ${prose(e.text, 240)} (${day(e.time)})`) });

  const recent = input.events.filter((e) => e.type === "file_modified" || e.type === "error" || e.type === "command_run").sort((a, b) => b.time.localeCompare(a.time));
  const files = [...new Set(recent.filter((e) => e.type === "file_modified").flatMap((e) => e.files.map((f) => shown(f, input.root))))].slice(0, 15);
  const work: string[] = [];
  const last = recent[0];
  if (last) work.push(`- Last activity ${ago(last.time, input.now)} (session ${short(last.session)})`);
  if (files.length > 0) work.push(`- Files modified: ${files.join(", ")}`);
  work.push(...counted(recent.filter((x) => x.type === "error").map((e) => `- Error: ${prose(e.text, 200)} (${day(e.time)})`)).slice(0, 3));
  sections.push({ title: "Recent work", items: work });
  for (const h of input.hot) sections.push({ title: `From ${shown(h.path, input.root)}`, items: [prose(h.text, 800)] });

  const r = input.redact ?? ((x: string) => x);
  for (const sec of sections) {
    sec.title = r(sec.title);
    sec.items = sec.items.map(r);
  }
  const out: string[] = [];
  let used = 0;
  let any = false;
  for (const s of sections) {
    if (s.items.length === 0) continue;
    const head = `\n## ${s.title}`;
    if (used + head.length + 40 > budget) break;
    const kept: string[] = [];
    let size = head.length;
    for (const item of s.items) {
      if (used + size + item.length + 1 > budget) break;
      kept.push(item);
      size += item.length + 1;
    }
    if (kept.length === 0) continue;
    out.push(...(out.length > 0 ? [head] : [head.slice(1)]), ...kept);
    used += size;
    any = true;
  }
  return any ? framed(BRIEFING, out) : undefined;
}
