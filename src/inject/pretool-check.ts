/**
 * The pre-tool check: before an Edit, MultiEdit, Write or Bash call, the decisions and rejected
 * approaches of the project (and the user's global memory), and the options the team's decision
 * records turned down, that the call would bring back
 * (src/inject/pretool-match.ts), as a short framed warning for the model. Never a refusal: the
 * hook prints the warning as `additionalContext` and the call goes on. A memory warns once per
 * session (the pre-tool log, src/store/prompt-log.ts, remembers which did). The daemon answers it
 * (src/daemon/pretool-op.ts); without one the hook runs it in-process.
 */
import { isAbsolute } from "node:path";
import type { Config } from "../config/config.js";
import { GLOBAL_PROJECT } from "../config/config.js";
import { projectAt } from "../project/scope.js";
import { cleanText, type Clean } from "../redact/clean.cjs";
import { PRETOOL, framed } from "../render/frame.js";
import { field, prose } from "../render/line.js";
import { eventChunkId } from "../store/chunk-ids.js";
import type { Db } from "../store/db.js";
import { oneId } from "../store/one-id.js";
import { pretoolWarned } from "../store/prompt-log.js";
import { readRegular } from "../util/read-regular.cjs";
import { recordRun } from "./prompt-run.js";
import { loadChecks, type ChecksOf } from "./pretool-load.js";
import { pretoolHits, toolCallOf, type PretoolHit } from "./pretool-match.js";

export interface PretoolRequest {
  /** Absolute: the session's directory. */
  cwd: string;
  session: string;
  tool: string;
  input: Record<string, unknown>;
  /** The project's id, when the caller knows it better than the cwd does (a benchmark's replay). */
  project?: string;
}

export interface PretoolAnswer {
  project: string;
  /** The framed warning, or undefined for nothing to say. */
  text?: string;
  hits: PretoolHit[];
  /** The warned memories' chunk ids (their one id is the first 12 characters). */
  ids: string[];
  /** How many memories were checked. */
  checked: number;
}

/** A Write's file is read (to know what it replaces) only up to this size; larger counts as unknown. */
const MAX_BEFORE_BYTES = 2 * 1024 * 1024;
/** At most this many warnings in one answer. */
const MAX_WARNINGS = 3;

/** The file a Write replaces, as it is now ("" when missing, not a regular file, or too large). */
function currentContent(file: string | undefined): string {
  if (!file || !isAbsolute(file)) return "";
  const r = readRegular(file, MAX_BEFORE_BYTES);
  return r.ok ? r.data.toString("utf8") : "";
}

/** "2026-05-02" from a stored time; the whole field when it is no ISO time. */
const day = (time: string) => (/^\d{4}-\d{2}-\d{2}/.exec(time)?.[0] ?? field(time, 30));

/** One warning line: "mem: the team rejected X on DATE because Y (id …)". */
export function warningLine(h: PretoolHit, id: string): string {
  const what = prose(h.ruled.span, 120);
  const why = h.memory.instead ? ` ${prose(h.memory.instead, 240)}` : h.ruled.reason ? ` because ${prose(h.ruled.reason, 160)}` : `: "${prose(h.memory.text, 200)}"`;
  const when = day(h.memory.time); // "" for a record whose file gives no date
  return `- mem: the team rejected ${what}${when ? ` on ${when}` : ""}${why} (id ${id})`;
}

/** Checks one tool call against the memories `checks` gives (read from the store by default); nothing is recorded (see `recordPretool`). */
export function checkToolCall(db: Db, config: Config, req: PretoolRequest, checks: ChecksOf = loadChecks): PretoolAnswer {
  const p = projectAt(db, req.cwd, config.project.enclosing);
  const project = req.project ?? p.id;
  const empty = { project, hits: [], ids: [], checked: 0 };
  if (!config.pretool.enabled) return empty;
  const before = req.tool === "Write" ? currentContent(typeof req.input.file_path === "string" ? req.input.file_path : undefined) : "";
  const call = toolCallOf(req.tool, req.input, before);
  if (!call) return empty;
  const projects = config.query.includeGlobal ? [project, GLOBAL_PROJECT] : [project];
  const root = p.root ?? (isAbsolute(project) ? project : undefined);
  const set = checks(db, projects, project, root);
  const warned = pretoolWarned(db, project, req.session);
  // A team record's options share its one id: it warns once, by the first option the call brings back.
  const idOf = (h: PretoolHit) => h.memory.chunk ?? (eventChunkId(h.memory.project ?? project, h.memory.id) as string);
  const seen = new Set<string>();
  const hits = pretoolHits(call, set)
    .filter((h) => !warned.has(idOf(h)) && !seen.has(idOf(h)) && seen.add(idOf(h)))
    .slice(0, MAX_WARNINGS);
  const checked = set.memories.length;
  if (hits.length === 0) return { ...empty, checked };
  const ids = hits.map(idOf);
  const text = framed(PRETOOL, hits.map((h, i) => warningLine(h, oneId(ids[i]!))));
  return { project, text, hits, ids, checked };
}

/** What the log keeps of a call: its tool and file, or its command, cut short (redacted by `recordRun`). */
export function callSummary(req: Pick<PretoolRequest, "tool" | "input">): string {
  const i = req.input;
  const target = req.tool === "Bash" ? i.command : i.file_path;
  return `${req.tool}: ${typeof target === "string" ? target.slice(0, 300) : "?"}`;
}

/** Logs a warning that reached the model (the explorer's prompt runs, `mem why --pretool`); never throws. */
export function recordPretool(db: Db, a: PretoolAnswer, run: { session: Clean<string> | string; req: PretoolRequest; ms: number; at: number }, log: (line: string) => void): void {
  if (!a.text) return;
  recordRun(
    db,
    {
      at: run.at,
      session: typeof run.session === "string" ? cleanText(run.session) : run.session,
      project: a.project,
      hook: "pretool",
      ms: run.ms,
      mode: null,
      prompt: callSummary(run.req),
      injected: a.text,
      ids: a.ids,
      fates: a.hits.map((h, k) => ({ id: a.ids[k]!, rank: k + 1, fate: "injected" as const, why: `the call adds "${h.term.join(" ")}", which this ${h.memory.kind === "rejected" ? "rejected approach" : "decision"} rules out` })),
    },
    log,
  );
}
