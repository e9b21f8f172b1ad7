import type { App } from "../app.js";
import { checkToolCall, recordPretool, type PretoolRequest } from "../inject/pretool-check.js";
import { cleanText } from "../redact/clean.cjs";
import { isAbsolutePath } from "../util/absolute.cjs";

/**
 * The daemon's `pretool` request: the pre-tool check of one tool call (src/inject/pretool-check.ts),
 * `{ok: true, text?, ms}`. A warning goes to the pre-tool log only once its reply reached the hook
 * (`delivered`): one the hook gave up on warned nobody, and must not keep the memory from warning later.
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
  const a = checkToolCall(app.db, app.config, r);
  const ms = Math.round((performance.now() - t0) * 100) / 100;
  if (a.text) delivered(() => recordPretool(app.db, a, { session: cleanText(r.session), req: r, ms, at: Date.now() }, log));
  return { ok: true, ...(a.text ? { text: a.text } : {}), ms, checked: a.checked };
}
