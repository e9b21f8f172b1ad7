/**
 * How a memory item reads in the prompt's context:
 * `- [<short id> · <kind> · <record's status · date · by authors · team> · <where>] [<flag>] <heading>: <text>`. Nothing is said twice (a
 * heading or a leading "kind:" that only repeats the kind is left out; a file's heading is shown
 * on its first item only) and nothing that says nothing (a markdown passage's kind when it is
 * the catch-all "note"). Every field is redacted and rendered on one line with markup defused
 * (src/render/line.ts), so a stored path, heading or body can neither add a line that looks like
 * another memory nor close the frame. Pure.
 */
import { basename, relative } from "node:path";
import { bracket, field } from "../render/line.js";
import { ID_CHARS, oneId } from "../store/one-id.js";
import type { Candidate, Describe } from "./types.js";

/** How many leading characters of a chunk's id an item shows: the one id every output shows (src/store/one-id.ts), which `get` and `forget` take. */
export const SHORT_ID_CHARS = ID_CHARS;
export const shortId = oneId;

/** The session a captured memory's chunk belongs to (its source is `session:<id>`), or undefined for a note. */
export const sessionOf = (c: Pick<Candidate, "path">) => (c.path.startsWith("session:") ? c.path.slice(8) : undefined);

/**
 * What one item's lines are counted in: a note's file (adjacent lines of one file are one item,
 * whichever chunks they come from), or the captured memory itself (each one its own).
 */
export const sourceOf = (c: Pick<Candidate, "path" | "id">) => (sessionOf(c) === undefined ? `file:${c.path}` : `memory:${c.id}`);

/**
 * Where a memory comes from, rendered: a note's file and line, or the day of the session that
 * captured it ("session of 2026-11-20"; its id means nothing to a reader), and the memory's own
 * day when it differs from the one already shown. Each stored part is redacted on its own, so the
 * same path or day is redacted once however many lines of it are shown.
 */
function where(c: Candidate, line: number, redact: (s: string) => string, d: Describe): string[] {
  const show = (s: string) => field(redact(s), 160);
  const day = c.date ? c.date.slice(0, 10) : undefined;
  const session = sessionOf(c);
  if (session === undefined) {
    const rel = c.project.startsWith("/") ? relative(c.project, c.path) : basename(c.path);
    return [`${show(rel.startsWith("..") ? c.path : rel)}:${line}`, ...(day ? [show(day)] : [])];
  }
  if (session === "" || session === "unknown") return ["no session", ...(day ? [show(day)] : [])];
  const began = d.sessionDay?.(session) ?? day;
  return [began ? `session of ${show(began)}` : "session of an unknown day", ...(day && day !== began ? [show(day)] : [])];
}

/** The body without a leading "kind: " (a captured memory's text starts with its kind, already shown). */
export function withoutKind(body: string, kind: string): string {
  return body.toLowerCase().startsWith(`${kind.toLowerCase()}: `) ? body.slice(kind.length + 2) : body;
}

/** Lower case, one space between words, no list marker before nor stop after. */
const plain = (s: string) =>
  s
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[-*+] /, "")
    .replace(/[.:!?]+$/, "");

/**
 * Whether `text` begins with `heading`'s words, so the heading would be said twice ("Use ES256:
 * Use ES256 for tokens."): a whole word at the end, in any case.
 */
export function opensWith(text: string, heading: string): boolean {
  const h = plain(heading);
  if (h === "") return false;
  const t = plain(text);
  return t.startsWith(h) && !/[\p{L}\p{N}]/u.test(t.charAt(h.length));
}

/**
 * An item's start, up to its text: `- [id · kind · where] [flag] heading: `. `line` is where the
 * item's text starts in its file; `heading` false leaves the heading out (the file's earlier item
 * shows it), and so does a `text` (the item's first line) that opens with the heading's words.
 */
export function itemPrefix(c: Candidate, line: number, heading: boolean, redact: (s: string) => string, d: Describe, text = ""): string {
  // "note", the kind of a markdown passage nothing classifies, says nothing: left out.
  const kind = c.kind === "note" && sessionOf(c) === undefined ? [] : [field(redact(c.kind), 40)];
  // A record's status, date and authors, each a field of its own (stored text, rendered as such).
  const sources = (d.sources?.(c.id) ?? []).map((p) => field(redact(p), 60));
  // Its day said once: a record's date is among its sources.
  const at = where(c, line, redact, d).filter((x, i) => i === 0 || !sources.includes(x));
  const meta = bracket([field(shortId(c.id), SHORT_ID_CHARS), ...kind, ...sources, ...at]);
  const last = c.headingPath[c.headingPath.length - 1];
  const head = heading && last !== undefined && last.trim().toLowerCase() !== c.kind.toLowerCase() && !opensWith(text, last) ? `${field(redact(last), 120)}: ` : "";
  const flag = d.note?.(c.id);
  return `- ${meta}${flag ? ` ${bracket([field(flag, 160)])}` : ""} ${head}`;
}
