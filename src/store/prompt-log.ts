/**
 * The prompt log: one row per prompt hook run (what was put before the prompt, how long the answer
 * took, the candidates that missed the floor or the budget) and per SessionStart briefing. The
 * explorer's "why did the model see this" reads it. A log only: nothing that ranks or selects reads
 * it. Bounded: past `MAX_PROMPT_RUNS` rows the oldest go. Everything in it is Clean (redacted).
 */
import type { Clean } from "../redact/clean.cjs";
import type { Db } from "./db.js";
import { MemoryError } from "../util/memory-error.js";
import { pickById, rowOneId } from "./one-id.js";
import { prepared } from "./statements.js";

/** Rows kept at most (the oldest dropped first). */
export const MAX_PROMPT_RUNS = 20_000;

/** A prompt hook's run, a SessionStart briefing, or a pre-tool check that warned (src/inject/pretool-check.ts). */
export type PromptHook = "prompt" | "briefing" | "pretool";

/** What became of one candidate of a prompt's search. */
export interface CandidateFate {
  /** The chunk's id. */
  id: string;
  /** 1-based, in the search's order. */
  rank: number;
  fate: "injected" | "floor" | "budget" | "excluded";
  /** Why, in words (the floor's verdict, the budget, "already shown in this session"). */
  why: string;
}

export interface PromptRunInput {
  at: number;
  session: Clean<string>;
  project: Clean<string>;
  hook: PromptHook;
  /** How long the answer took, in ms (the daemon's or the in-process hook's). */
  ms: number | null;
  /** hybrid, bm25. */
  mode: string | null;
  /** The prompt (for a briefing: the SessionStart source), redacted and cut. */
  prompt: Clean<string>;
  /** What was put before the prompt (already redacted), or null for nothing. */
  injected: Clean<string> | null;
  ids: readonly Clean<string>[];
  candidates: Clean<readonly CandidateFate[]>;
}

export interface PromptRun {
  id: number;
  at: number;
  session: string;
  project: string;
  hook: PromptHook;
  ms: number | null;
  mode: string | null;
  prompt: string;
  injected: string | null;
  ids: string[];
  candidates: CandidateFate[];
}

/** Prompts are cut to this many characters before they are stored. */
export const MAX_PROMPT_CHARS = 2_000;

let writes = 0;

export function recordPromptRun(db: Db, r: PromptRunInput): number {
  const id = Number(
    prepared(db, "INSERT INTO prompt_runs (at, session, project, hook, ms, mode, prompt, injected, ids, candidates) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").run(
      r.at,
      r.session,
      r.project,
      r.hook,
      r.ms,
      r.mode,
      r.prompt.slice(0, MAX_PROMPT_CHARS),
      r.injected,
      JSON.stringify(r.ids),
      JSON.stringify(r.candidates.slice(0, 50)),
    ).lastInsertRowid,
  );
  // The bound, kept every hundred writes (a DELETE per prompt would be waste).
  if (++writes % 100 === 1) prepared(db, "DELETE FROM prompt_runs WHERE id <= (SELECT max(id) FROM prompt_runs) - ?").run(MAX_PROMPT_RUNS);
  return id;
}

interface Row {
  id: number;
  at: number;
  session: string;
  project: string;
  hook: string;
  ms: number | null;
  mode: string | null;
  prompt: string;
  injected: string | null;
  ids: string;
  candidates: string;
}

/** A stored JSON list; a damaged one (not JSON, not a list) reads as empty. */
export const parseList = <T>(json: string): T[] => {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
};

const hookOf = (h: string): PromptHook => (h === "briefing" || h === "pretool" ? h : "prompt");
const toRun = (r: Row): PromptRun => ({ ...r, hook: hookOf(r.hook), ids: parseList<string>(r.ids), candidates: parseList<CandidateFate>(r.candidates) });

/** A project's runs, newest first, paged; `session` narrows to one session. */
export function promptRuns(db: Db, f: { project: string; session?: string; limit: number; offset: number }): { total: number; runs: PromptRun[] } {
  // One session's runs through the session's index (the project's would walk every run of the project).
  const where = f.session === undefined ? "project = ?" : "project = ? AND session = ?";
  const from = f.session === undefined ? "prompt_runs" : "prompt_runs INDEXED BY prompt_runs_session";
  const args = f.session === undefined ? [f.project] : [f.project, f.session];
  const total = (prepared(db, `SELECT count(*) AS n FROM ${from} WHERE ${where}`).get(...args) as { n: number }).n;
  const rows = prepared(db, `SELECT * FROM ${from} WHERE ${where} ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`).all(...args, f.limit, f.offset) as Row[];
  return { total, runs: rows.map(toRun) };
}

/** One run by its id, only in `project` (another project's answers as missing). */
export function promptRun(db: Db, id: number, project: string): PromptRun | undefined {
  const r = prepared(db, "SELECT * FROM prompt_runs WHERE id = ? AND project = ?").get(id, project) as Row | undefined;
  return r ? toRun(r) : undefined;
}

/**
 * The memories (chunk ids) a session's pre-tool checks already warned about: each warns once a
 * session. `session` "" (a call without one) has none.
 */
export function pretoolWarned(db: Db, project: string, session: string): Set<string> {
  if (session === "") return new Set();
  const rows = prepared(db, "SELECT ids FROM prompt_runs INDEXED BY prompt_runs_session WHERE session = ? AND project = ? AND hook = 'pretool'").all(session, project) as { ids: string }[];
  return new Set(rows.flatMap((r) => parseList<string>(r.ids)));
}

/** A project's last pre-tool warnings, newest first (`mem why --pretool`). */
export function pretoolRuns(db: Db, project: string, limit: number): PromptRun[] {
  return (prepared(db, "SELECT * FROM prompt_runs INDEXED BY prompt_runs_project WHERE project = ? AND hook = 'pretool' ORDER BY at DESC, id DESC LIMIT ?").all(project, limit) as Row[]).map(toRun);
}

/** A prompt run's one id (src/store/one-id.ts): what every output shows it by. */
export const promptOneId = (n: number): string => rowOneId("prompt", n);

/**
 * A project's prompt run by its one id, a start of it (6 characters or more), or its number (the
 * explorer's older `?id=4`). Not found: undefined; a start too short or ambiguous: a MemoryError.
 */
export function promptRunById(db: Db, typed: string, project: string): PromptRun | undefined {
  const raw = typed.trim();
  if (/^#?\d{1,5}$/.test(raw)) return promptRun(db, Number(raw.replace(/^#/, "")), project);
  const numbers = prepared(db, "SELECT id FROM prompt_runs WHERE project = ?").all(project) as { id: number }[];
  const picked = pickById(raw, numbers, (r) => promptOneId(r.id), "prompt run");
  if (picked.ok) return promptRun(db, picked.row.id, project);
  if (picked.code === "bad_argument") throw new MemoryError("bad_argument", picked.message);
  return /^\d{1,15}$/.test(raw) ? promptRun(db, Number(raw), project) : undefined;
}

/** Answer times of a project's prompt hook runs since `since` (ms epoch), oldest first: the explorer's latency chart. */
export function promptLatencies(db: Db, project: string, since: number): { at: number; ms: number }[] {
  return prepared(db, "SELECT at, ms FROM prompt_runs WHERE project = ? AND hook = 'prompt' AND ms IS NOT NULL AND at >= ? ORDER BY at").all(project, since) as { at: number; ms: number }[];
}

/**
 * Forgetting a session (with its subagents' sessions) or a project forgets its log too; the rows'
 * text is overwritten on disk, not only unlinked (secure_delete).
 */
export function forgetPromptRuns(db: Db, f: { project: string; session?: string }): number {
  const was = db.pragma("secure_delete", { simple: true }) as number;
  db.pragma("secure_delete = ON");
  try {
    if (f.session === undefined) return prepared(db, "DELETE FROM prompt_runs WHERE project = ?").run(f.project).changes;
    const agents = `${f.session}/agent-`;
    return prepared(db, "DELETE FROM prompt_runs WHERE project = ? AND (session = ? OR (session >= ? AND session < ?))").run(f.project, f.session, agents, `${agents}\uffff`).changes;
  } finally {
    db.pragma(`secure_delete = ${was ? "ON" : "OFF"}`);
  }
}

/** What a run's injected text becomes once a memory it may have shown is forgotten. */
export const WITHHELD = "(withheld: it may have shown a memory since forgotten)";

/**
 * A forgotten memory leaves the log too: the injected text of every prompt run that showed one of
 * `chunkIds`, and of every briefing since `since` (ms; a briefing draws on decisions and notes
 * it does not list one by one), is withheld. One pass over the (bounded) log.
 */
export function withholdForgotten(db: Db, chunkIds: readonly string[], since: number): number {
  if (chunkIds.length === 0) return 0;
  const gone = new Set(chunkIds);
  const put = prepared(db, "UPDATE prompt_runs SET injected = ? WHERE id = ?");
  let n = 0;
  for (const r of prepared(db, "SELECT id, ids FROM prompt_runs WHERE hook = 'prompt' AND injected IS NOT NULL AND injected != ?").all(WITHHELD) as { id: number; ids: string }[]) {
    if (parseList<string>(r.ids).some((id) => gone.has(id))) n += put.run(WITHHELD, r.id).changes;
  }
  return n + prepared(db, "UPDATE prompt_runs SET injected = ? WHERE hook = 'briefing' AND at >= ? AND injected IS NOT NULL AND injected != ?").run(WITHHELD, since, WITHHELD).changes;
}

/**
 * A purge's last pass over the log: a prompt or an injected text that still holds a forgotten
 * memory's text (`holds` says; a prompt that quoted it, say) is withheld too, overwritten on disk.
 */
export function withholdMatching(db: Db, holds: (text: string) => boolean): number {
  const rows = prepared(db, "SELECT id, prompt, injected FROM prompt_runs").all() as { id: number; prompt: string; injected: string | null }[];
  const hit = rows.filter((r) => holds(r.prompt) || (r.injected !== null && holds(r.injected)));
  if (hit.length === 0) return 0;
  const was = db.pragma("secure_delete", { simple: true }) as number;
  db.pragma("secure_delete = ON");
  try {
    const put = prepared(db, "UPDATE prompt_runs SET prompt = CASE WHEN ? THEN ? ELSE prompt END, injected = CASE WHEN ? THEN ? ELSE injected END WHERE id = ?");
    db.transaction(() => {
      for (const r of hit) put.run(holds(r.prompt) ? 1 : 0, WITHHELD, r.injected !== null && holds(r.injected) ? 1 : 0, WITHHELD, r.id);
    }).immediate();
  } finally {
    db.pragma(`secure_delete = ${was ? "ON" : "OFF"}`);
  }
  return hit.length;
}
