import { field, shortSession } from "./line.js";

/**
 * A session id as a person types it back: the whole id, the short form every output shows
 * (`shortSession`: its first 8 and last 4 characters around "…", "..." accepted too), or a start
 * of the id of at least MIN_SESSION_CHARS characters. Which of a project's sessions it stands for
 * is decided here (pure, table-tested); the store only finds the sessions that start alike.
 */

/** The fewest characters of a session id's start that stand for a session. */
export const MIN_SESSION_CHARS = 6;
/** The longest session id accepted (Claude Code's are 36 characters). */
export const MAX_SESSION_INPUT = 300;

/** What a typed session id is: whole or a start (`start`), or the shown short form (`start` … `end`). */
export interface SessionInput {
  raw: string;
  /** What every session it may stand for starts with (the whole id, when it is one). */
  start: string;
  /** The short form's last characters; undefined for a whole id or a start. */
  end?: string;
}

export type ParsedSession = { ok: true; input: SessionInput } | { ok: false; message: string };

/** Reads a typed session id: trimmed; refused when empty, too long or holding control characters. */
export function parseSession(typed: unknown): ParsedSession {
  if (typeof typed !== "string") return { ok: false, message: "a session id must be a string" };
  const raw = typed.trim();
  if (raw === "") return { ok: false, message: "a session id must be a non-empty string" };
  if (raw.length > MAX_SESSION_INPUT) return { ok: false, message: `a session id has at most ${MAX_SESSION_INPUT} characters; this one has ${raw.length}` };
  if (/[\u0000-\u001f\u007f]/.test(raw)) return { ok: false, message: "a session id holds no control characters" };
  const short = /^(.+?)(?:…|\.\.\.)(.+)$/u.exec(raw);
  if (short) return { ok: true, input: { raw, start: short[1]!, end: short[2]! } };
  return { ok: true, input: { raw, start: raw } };
}

export type PickedSession = { ok: true; session: string } | { ok: false; code: "bad_argument" | "not_found"; message: string };

/**
 * The one session of `known` (the project's sessions that start with `input.start`, or more) a
 * typed id stands for: the whole id when one is; else the shown short form's one session; else the
 * one session a start of at least MIN_SESSION_CHARS characters begins. Several: ambiguous, the
 * candidates listed; a start too short that some session begins with: said so; none: "no session X
 * in this project". Pure.
 */
export function pickSession(input: SessionInput, known: readonly string[]): PickedSession {
  const shown = field(input.raw, 80);
  if (input.end === undefined && known.includes(input.raw)) return { ok: true, session: input.raw };
  const found = input.end === undefined
    ? known.filter((s) => s.startsWith(input.start))
    : known.filter((s) => s.startsWith(input.start) && s.endsWith(input.end!) && s.length >= input.start.length + input.end!.length);
  if (input.end === undefined && [...input.start].length < MIN_SESSION_CHARS && found.length > 0) {
    return { ok: false, code: "bad_argument", message: `session ${shown} is too short: give at least ${MIN_SESSION_CHARS} characters of the session id (or the whole id, or its short form as shown)` };
  }
  if (found.length === 1) return { ok: true, session: found[0]! };
  if (found.length === 0) return { ok: false, code: "not_found", message: `no session ${shown} in this project` };
  const distinct = new Set(found.map(shortSession)).size === found.length;
  const listed = [...found].sort().slice(0, 5).map((s) => (distinct && input.end === undefined ? shortSession(s) : field(s, 80)));
  return { ok: false, code: "bad_argument", message: `session ${shown} is ambiguous: it matches ${found.length > 5 ? "more than 5" : found.length} sessions: ${listed.join(", ")}${found.length > 5 ? ", …" : ""}; give more of the id` };
}
