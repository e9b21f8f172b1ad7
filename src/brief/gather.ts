import { eventChunkId } from "../../indexer/captured.js";
import { staleFlags } from "../anchor/staleness.js";
import { GLOBAL_PROJECT, type Config } from "../config/config.js";
import { salienceConfig } from "../memory/salience.js";
import type { Db } from "../store/db.js";
import { EventStore } from "../store/events.js";
import { lastFinishedJob } from "../store/jobs.js";
import { usesOf } from "../store/salience.js";
import { SessionStore } from "../store/sessions.js";
import { TaskStore } from "../store/tasks.js";
import { recordCounts, recordMeta, recordsOf } from "../store/records.js";
import { teamOfLocals } from "../team/view.js";
import { gitView, type GitView } from "../project/branch-changes.js";
import { MIN_DECISION_CONFIDENCE } from "../store/event-types.js";
import { redact } from "../redact/redact.cjs";
import { LAYOUT_SQL, MAYBE_PROFILE_SQL, USER_SQL } from "../tiers/profiles.js";
import type { BriefingInput } from "./briefing.js";
import { isStale, MAX_TASK_ITEMS, openTasksSection } from "./sections/tasks.js";
import { gatherInPlay } from "./gather-in-play.js";
import type { BriefDecision } from "./sections/decisions.js";
import { shownPath } from "./render.js";
import { gatherProposal } from "../team/propose.js";
import type { HotNote } from "./sections/notes.js";
import type { AssistantName } from "../contract/adapter.cjs";

/**
 * Reads what the briefing projects, from the stores and from git: tasks, every decision-like
 * memory with its use, the last session's summary, hot notes of the project and the global
 * memory, and the files in play with the memories about them (src/brief/gather-in-play.ts).
 * Bounded work whatever the store holds (indexed queries; git, run first by `briefingGit`, with
 * a short timeout).
 */
export interface BriefingScope {
  project: string;
  root: string | undefined;
  session: string;
  source: string;
  now: number;
  budgetTokens: number;
  /** The current user's id (src/tiers/user.ts): their profile is briefed; none when unknown. */
  user?: string;
  /** What git says of the project's repository (`briefingGit`): none outside one, without git, or when it was slow. */
  git?: GitView;
}

const MIN_CONFIDENCE: Record<string, number> = { decision: MIN_DECISION_CONFIDENCE, preference: MIN_DECISION_CONFIDENCE, rejected: MIN_DECISION_CONFIDENCE, learned: 0.8 };
/** For all of the briefing's git runs together. */
const GIT_TIMEOUT_MS = 400;
/** Decisions whose anchors are checked at SessionStart (each anchored file is hashed once). */
const STALE_CHECKED = 120;
/** The newest of each decision-like kind read (beside every used one): more than the briefing can show. */
const PER_KIND = 200;

/**
 * The hot notes of the project and of the global memory, the current user's profile first. Other
 * users' profiles are never read: a profile is briefed to its own user only.
 */
function hotNotes(db: Db, project: string, includeGlobal: boolean, user: string | undefined): HotNote[] {
  const other = includeGlobal ? GLOBAL_PROJECT : project;
  const note = (r: { id: string; path: string; text: string; project: string }) => ({ id: r.id, path: r.path, text: r.text, ...(r.project === GLOBAL_PROJECT && project !== GLOBAL_PROJECT ? { global: true } : {}) });
  const rows = db
    .prepare(`SELECT id, path, text, project FROM chunks INDEXED BY chunks_hot WHERE project IN (?, ?) AND tier = 'hot' AND NOT ${MAYBE_PROFILE_SQL} ORDER BY project = ?, path, seq LIMIT 24`)
    .all(project, other, GLOBAL_PROJECT) as { id: string; path: string; text: string; project: string }[];
  const mine =
    user === undefined
      ? []
      : (db
          .prepare(`SELECT id, path, text, project FROM chunks INDEXED BY chunks_hot WHERE project IN (?, ?) AND tier = 'hot' AND ${LAYOUT_SQL} = 'profile' AND ${USER_SQL} = ? ORDER BY project = ?, path, seq LIMIT 12`)
          .all(project, other, redact(user).text, GLOBAL_PROJECT) as { id: string; path: string; text: string; project: string }[]);
  return [...mine.map((r) => ({ ...note(r), user })), ...rows.map(note)];
}

/** git's view of the project's repository for the briefing, bounded in time and bytes; undefined without a root. */
export async function briefingGit(root: string | undefined): Promise<GitView | undefined> {
  return root ? gitView(root, { timeoutMs: GIT_TIMEOUT_MS, maxBytes: 1024 * 1024 }) : undefined;
}

/** Open tasks read: far more than the section shows, its counts from the whole registry. */
const TASKS_READ = 400;
const DAY_MS = 86_400_000;

function openTasks(db: Db, project: string, now: number, staleDays: number): { title: string; items: string[] } {
  const store = new TaskStore(db);
  const tasks = store.openNewest(project, TASKS_READ);
  // The assistant of each creating session, for the tasks the section can show (the newest).
  const shown = tasks.filter((t) => !isStale(t, now, staleDays)).slice(0, MAX_TASK_ITEMS).flatMap((t) => (t.createdSession ? [t.createdSession] : []));
  const made = new EventStore(db).sessionAssistants(project, shown);
  const withAssistant = tasks.map((t) => {
    const a = t.createdSession ? made.get(t.createdSession) : undefined;
    return a ? { ...t, assistant: a } : t;
  });
  // isStale: untouched for staleDays or more, i.e. updated at or before now - staleDays.
  return openTasksSection(withAssistant, now, staleDays, undefined, store.openCounts(project, now - staleDays * DAY_MS));
}

/** Decision records read: more than the sections show (their "N more" lines count from recordCounts). */
const RECORDS_READ = 300;

/** The repository's decision records in force (superseded and proposed ones are not briefed), as the sections take them. */
function records(db: Db, project: string, root: string | undefined, alsoLocal: ReadonlySet<string>): BriefDecision[] {
  return recordsOf(db, project, Object.keys(MIN_CONFIDENCE), RECORDS_READ).map((r) => {
    const m = recordMeta(r);
    const time = m.date && !Number.isNaN(Date.parse(m.date)) ? m.date : new Date(r.indexed_at).toISOString();
    const tier = { ...(m.team ? { team: true as const } : {}), ...(alsoLocal.has(r.chunk) ? { alsoLocal: true as const } : {}) };
    return { type: r.kind, text: m.title ?? r.heading, time, session: "", record: { path: shownPath(r.path, root), ...(m.status ? { status: m.status } : {}), ...(m.date ? { date: m.date } : {}), authors: m.authors, ...tier } };
  });
}

const sumCounts = (a: Record<string, number>, b: Record<string, number>): Record<string, number> => {
  const out = { ...a };
  for (const [k, n] of Object.entries(b)) out[k] = (out[k] ?? 0) + n;
  return out;
};

export function gatherBriefing(db: Db, config: Config, s: BriefingScope): BriefingInput {
  const sessions = new SessionStore(db);
  const events = new EventStore(db);
  const read = events.decisionsOf(s.project, MIN_CONFIDENCE, PER_KIND).map((d) => ({ ...d, chunk: eventChunkId(s.project, d.id) }));
  // A local decision a team record is too is briefed once, as the record ("also local").
  const team = teamOfLocals(db, s.project, read.map((d) => ({ id: d.id, kind: d.type, text: d.text })));
  const decisions = read.filter((d) => !team.has(d.id));
  const uses = usesOf(db, decisions.map((d) => d.chunk));
  // Possibly outdated: checked for the decisions the briefing can show (the used and the newest), not all of them.
  const usesOfD = (d: { chunk: string }) => uses.get(d.chunk)?.uses ?? 0;
  const head = [...decisions].sort((a, b) => usesOfD(b) - usesOfD(a) || b.time.localeCompare(a.time)).slice(0, STALE_CHECKED);
  const play = gatherInPlay(db, s.project, s.root, s.git, s.now);
  const playIds = new Set(play?.memories.flatMap((m) => (m.id ? [m.id] : [])) ?? []);
  const flags = staleFlags(db, [...head.map((d) => d.id), ...playIds], s.root, s.now);
  // What the files-in-play section names is not named again under Decisions, nor counted among its "more".
  const named = (k: string) => -read.filter((d) => d.type === k && (team.has(d.id) || playIds.has(d.id))).length;
  const last = sessions.lastSummarized(s.project, s.session);
  const summary = sessions.summaryOf(last);
  return {
    source: s.source,
    now: s.now,
    budgetTokens: s.budgetTokens,
    tasks: [],
    // The project's task registry: every session's tasks until some session closes them.
    taskSection: openTasks(db, s.project, s.now, config.brief.staleTaskDays),
    // The local decisions briefed as their team record are counted once, as the record.
    decisionTotals: sumCounts(sumCounts(events.liveCounts(s.project, Object.keys(MIN_CONFIDENCE)), Object.fromEntries(Object.keys(MIN_CONFIDENCE).map((k) => [k, named(k)]))), recordCounts(db, s.project)),
    decisions: [
      ...decisions.filter((d) => !playIds.has(d.id)).map(({ chunk, ...d }) => {
        const use = uses.get(chunk);
        const stale = flags.get(d.id)?.text;
        return { ...d, ...(use ? { use } : {}), ...(stale ? { stale } : {}) };
      }),
      ...records(db, s.project, s.root, new Set([...team.values()].map((t) => t.id))),
    ],
    ...(last && summary ? { lastSession: { session: last.session, summary, endReason: last.end_reason, ...assistantOf(events, s.project, last.session) } } : { recent: events.recent(s.project, { types: ["file_modified", "error", "command_run"], limit: 300 }) }),
    hot: hotNotes(db, s.project, config.query.includeGlobal, s.user),
    ...(play ? { inPlay: { ...play, memories: play.memories.map((m) => ({ ...m, ...(m.id && flags.get(m.id) ? { stale: flags.get(m.id)!.text } : {}) })) } } : {}),
    salience: salienceConfig(config.salience),
    ...(s.root ? { root: s.root } : {}),
    ...maintenanceFailure(db),
    ...proposalOf(db, config, s),
  };
}

/** `{ assistant }` when `session` ran in another assistant than Claude Code. */
function assistantOf(events: EventStore, project: string, session: string): { assistant?: AssistantName } {
  const a = events.sessionAssistants(project, [session]).get(session);
  return a ? { assistant: a } : {};
}

/** The team proposal (team.propose): never a reason for the briefing to fail. */
function proposalOf(db: Db, config: Config, s: BriefingScope): { proposal?: NonNullable<BriefingInput["proposal"]> } {
  try {
    const p = gatherProposal(db, config, s.project, s.root, s.session);
    return p ? { proposal: p } : {};
  } catch {
    return {};
  }
}

/** The last `mem reindex`, when it failed (the briefing says so until one succeeds). */
function maintenanceFailure(db: Db): { maintenance?: { at: number; problems: string[] } } {
  const run = lastFinishedJob(db, "reindex");
  if (!run || run.status !== "failed") return {};
  let problems: string[] = [];
  try {
    const p = JSON.parse(run.problems) as unknown;
    if (Array.isArray(p)) problems = p.filter((x): x is string => typeof x === "string");
  } catch {
    // an unreadable list: the line still says it failed
  }
  return { maintenance: { at: run.finished_at ?? run.started_at, problems } };
}
