import { basename, relative } from "node:path";
import type { SearchResult } from "../retrieve/search.js";
import { RECALL, frameOverhead, framed } from "../render/frame.js";
import { field, prose } from "../render/line.js";
import { snippet } from "./snippet.js";

/**
 * What goes into the model's context for a prompt: the few results that clear the relevance
 * floor, as compact markdown with provenance, within a character budget. Pure.
 */
export type Candidate = Pick<SearchResult, "id" | "text" | "path" | "startLine" | "endLine" | "headingPath" | "kind" | "date" | "project" | "legs">;

export interface InjectOptions {
  budgetChars: number;
  maxItems: number;
  /** Minimum share of the prompt's content words a lexical match must contain. */
  minTermCoverage: number;
  /** Minimum cosine similarity for a match found only by the vector leg. */
  minSimilarity: number;
}

export const DEFAULT_INJECT: InjectOptions = { budgetChars: 2_000, maxItems: 5, minTermCoverage: 0.5, minSimilarity: 0.45 };

/** A crude stem: lower case, common English suffixes off, first 6 letters ("indexing", "indexer" → "index"). */
export const stem = (w: string) => {
  const l = w.toLowerCase();
  return (l.length > 5 ? l.replace(/(ations?|ings?|ers?|ed|es|s|ly)$/, "") : l).slice(0, 6);
};

/** Share of the query's content terms (already stop-word-free) present in the text. */
export function termCoverage(queryTerms: string[], text: string): number {
  if (queryTerms.length === 0) return 0;
  const have = new Set((text.match(/[\p{L}\p{N}_]+/gu) ?? []).map(stem));
  const wanted = [...new Set(queryTerms.map(stem))];
  return wanted.filter((t) => have.has(t)).length / wanted.length;
}

/** The relevance floor: weak matches are dropped, so a prompt about nothing stored injects nothing. */
export function passesFloor(c: Candidate, queryTerms: string[], o: InjectOptions): boolean {
  if (c.legs.vector && c.legs.vector.score >= o.minSimilarity) return true;
  const coverage = termCoverage(queryTerms, `${c.headingPath.join(" ")} ${c.text}`);
  const needed = Math.min(2, queryTerms.length);
  return coverage >= o.minTermCoverage && coverage * queryTerms.length >= needed;
}

/** How many leading characters of a chunk's id an item shows: what `get` and `forget` take (src/service/memory.ts resolves it). */
export const SHORT_ID_CHARS = 8;
export const shortId = (id: string) => id.slice(0, SHORT_ID_CHARS);

/** What the caller knows beside the candidates: a memory's flag, the day a captured session began. */
export interface Describe {
  /** A memory's flag ("possibly outdated: src/auth.c changed 3 days ago"), by chunk id. */
  note?: (id: string) => string | undefined;
  /** The day (YYYY-MM-DD) a session began, when known. */
  sessionDay?: (session: string) => string | undefined;
}

/** The session a captured memory's chunk belongs to (its source is `session:<id>`), or undefined for a note. */
const sessionOf = (c: Candidate) => (c.path.startsWith("session:") ? c.path.slice(8) : undefined);

/**
 * Where a memory comes from: a note's file and line, or the day of the session that captured it
 * ("session of 2026-11-20"; its id means nothing to a reader), and the memory's own day when it
 * differs from the one already shown.
 */
function where(c: Candidate, d: Describe): string[] {
  const day = c.date ? c.date.slice(0, 10) : undefined;
  const session = sessionOf(c);
  if (session === undefined) {
    const rel = c.project.startsWith("/") ? relative(c.project, c.path) : basename(c.path);
    return [`${rel.startsWith("..") ? c.path : rel}:${c.startLine}`, ...(day ? [day] : [])];
  }
  if (session === "" || session === "unknown") return ["no session", ...(day ? [day] : [])];
  const began = d.sessionDay?.(session) ?? day;
  return [began ? `session of ${began}` : "session of an unknown day", ...(day && day !== began ? [day] : [])];
}

/** The body without a leading "kind: " (a captured memory's text starts with its kind, already shown). */
function withoutKind(body: string, kind: string): string {
  return body.toLowerCase().startsWith(`${kind.toLowerCase()}: `) ? body.slice(kind.length + 2) : body;
}

/** A chunk's text without its markdown heading lines, on one line (see render/line.ts). */
function squash(text: string): string {
  return prose(
    text
      .split("\n")
      .filter((l) => !/^ {0,3}#{1,6}\s/.test(l))
      .join("\n"),
  );
}

const clipTo = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/**
 * Formats the memories inside the recall frame; undefined when nothing passes. Each item reads
 * `- [<short id> · <kind> · <where>] [<flag>] <heading>: <text>`, nothing said twice (a heading
 * or a leading "kind:" that only repeats the kind is left out) and nothing that says nothing (a
 * markdown passage's kind when it is the catch-all "note"). Every field is redacted and
 * rendered on one line with markup defused, so a stored path, heading or body can neither add a
 * line that looks like another memory nor close the frame.
 */
export function formatInjection(cands: Candidate[], queryTerms: string[], o: InjectOptions, redact: (s: string) => string, d: Describe = {}): { text: string; ids: string[] } | undefined {
  const kept = cands.filter((c) => passesFloor(c, queryTerms, o)).slice(0, o.maxItems);
  if (kept.length === 0) return undefined;
  const lines: string[] = [];
  const ids: string[] = [];
  const wanted = new Set(queryTerms.map(stem));
  let used = frameOverhead(RECALL);
  for (const c of kept) {
    // "note", the kind of a markdown passage nothing classifies, says nothing: left out.
    const kind = c.kind === "note" && sessionOf(c) === undefined ? [] : [field(redact(c.kind), 40)];
    const meta = [field(shortId(c.id), SHORT_ID_CHARS), ...kind, ...where(c, d).map((w) => field(redact(w), 160))].join(" · ");
    const last = c.headingPath[c.headingPath.length - 1];
    const heading = last !== undefined && last.trim().toLowerCase() !== c.kind.toLowerCase() ? `${field(redact(last), 120)}: ` : "";
    const flag = d.note?.(c.id);
    const prefix = `- [${meta}]${flag ? ` [${field(flag, 160)}]` : ""} ${heading}`;
    const room = o.budgetChars - used - prefix.length - 2;
    if (room < 60) break;
    // The window is chosen on the rendered text, so defusing can never push it over the room.
    const body = snippet(withoutKind(squash(redact(c.text)), c.kind), wanted, stem, Math.min(room, 600));
    // Redacted once more as rendered: whatever the rendering joined is checked as the model will read it.
    const line = clipTo(redact(`${prefix}${body}`), prefix.length + Math.min(room, 600));
    lines.push(line);
    ids.push(c.id);
    used += line.length + 1;
  }
  return ids.length > 0 ? { text: framed(RECALL, lines), ids } : undefined;
}
