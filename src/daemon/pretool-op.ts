import type { App } from "../app.js";
import { checkToolCall, recordPretool, type PretoolRequest } from "../inject/pretool-check.js";
import { loadChecks, type ChecksOf } from "../inject/pretool-load.js";
import type { CheckSet } from "../inject/pretool-match.js";
import { cleanText } from "../redact/clean.cjs";
import type { Db } from "../store/db.js";
import { pretoolStamp } from "../store/pretool-memories.js";
import { isAbsolutePath } from "../util/absolute.cjs";

/**
 * The daemon's `pretool` request: the pre-tool check of one tool call (src/inject/pretool-check.ts),
 * `{ok: true, text?, ms}`. A warning goes to the pre-tool log only once its reply reached the hook
 * (`delivered`): one the hook gave up on warned nobody, and must not keep the memory from warning later.
 * What the check reads (the decisions, rejected approaches and team records of a project) is kept
 * a project at a time while it is unchanged (`cachedChecks`): a call reads no memory again.
 */
export function pretoolOp(app: App, req: Record<string, unknown>, delivered: (then: () => void) => void, log: (line: string) => void): Record<string, unknown> {
  const { cwd, tool, input, session, project } = req;
  if (typeof cwd !== "string" || typeof tool !== "string") return { ok: false, error: "cwd and tool are required" };
  // The daemon's own directory is whichever session's started it: a relative cwd would name another project.
  if (!isAbsolutePath(cwd)) return { ok: false, error: "cwd must be an absolute path" };
  if (input === null || typeof input !== "object" || Array.isArray(input)) return { ok: false, error: "input must be an object" };
  if (project !== undefined && (typeof project !== "string" || project.trim() === "")) return { ok: false, error: "project must be a project's id" };
  const t0 = performance.now();
  const r: PretoolRequest = { cwd, tool, input: input as Record<string, unknown>, session: typeof session === "string" ? session : "", ...(typeof project === "string" ? { project } : {}) };
  const a = checkToolCall(app.db, app.config, r, cachedChecks(app.db));
  const ms = Math.round((performance.now() - t0) * 100) / 100;
  if (a.text) delivered(() => recordPretool(app.db, a, { session: cleanText(r.session), req: r, ms, at: Date.now() }, log));
  return { ok: true, ...(a.text ? { text: a.text } : {}), ms, checked: a.checked };
}

/** At most this many projects' check sets are kept (the least recently read goes first). */
const MAX_SETS = 32;
const caches = new WeakMap<Db, { stamp: string; sets: Map<string, CheckSet> }>();

/**
 * The check sets of `db`, kept while what they were read from is unchanged: a decision or rejected
 * approach put, edited or forgotten, an anchor of one, a decision record indexed, by this daemon,
 * or any change by another process, and they are read again (src/store/pretool-memories.ts
 * pretoolStamp). The daemon's captures of other events and its logs leave them in place.
 */
export function cachedChecks(db: Db, load: ChecksOf = loadChecks): ChecksOf {
  return (_db, projects, project, root) => {
    const stamp = pretoolStamp(db); // before the read: a change made while reading is seen by the next call
    let c = caches.get(db);
    if (!c || c.stamp !== stamp) caches.set(db, (c = { stamp, sets: new Map() }));
    const key = JSON.stringify([projects, project, root ?? null]);
    let set = c.sets.get(key);
    if (set) c.sets.delete(key); // re-added below: the most recently read last
    else set = load(db, projects, project, root);
    c.sets.set(key, set);
    if (c.sets.size > MAX_SETS) c.sets.delete(c.sets.keys().next().value!);
    return set;
  };
}
