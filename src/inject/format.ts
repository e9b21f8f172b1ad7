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

function where(c: Candidate): string {
  if (c.path.startsWith("session:")) return `session ${c.path.slice(8, 16)}`;
  const rel = c.project.startsWith("/") ? relative(c.project, c.path) : basename(c.path);
  return `${rel.startsWith("..") ? c.path : rel}:${c.startLine}`;
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
 * Formats the memories inside the recall frame; undefined when nothing passes. Every field is
 * redacted and rendered on one line with markup defused, so a stored path, heading or body can
 * neither add a line that looks like another memory nor close the frame. `note` gives a memory's
 * flag ("possibly outdated: src/auth.c changed 3 days ago"), shown after its provenance.
 */
export function formatInjection(cands: Candidate[], queryTerms: string[], o: InjectOptions, redact: (s: string) => string, note: (id: string) => string | undefined = () => undefined): { text: string; ids: string[] } | undefined {
  const kept = cands.filter((c) => passesFloor(c, queryTerms, o)).slice(0, o.maxItems);
  if (kept.length === 0) return undefined;
  const lines: string[] = [];
  const ids: string[] = [];
  const wanted = new Set(queryTerms.map(stem));
  let used = frameOverhead(RECALL);
  for (const c of kept) {
    const meta = [field(redact(c.kind), 40), field(redact(where(c)), 160), c.date ? field(c.date.slice(0, 10), 10) : undefined].filter(Boolean).join(" · ");
    const heading = c.headingPath.length > 0 ? `${field(redact(c.headingPath[c.headingPath.length - 1]!), 120)}: ` : "";
    const flag = note(c.id);
    const prefix = `- [${meta}]${flag ? ` [${field(flag, 160)}]` : ""} ${heading}`;
    const room = o.budgetChars - used - prefix.length - 2;
    if (room < 60) break;
    // The window is chosen on the rendered text, so defusing can never push it over the room.
    const body = snippet(squash(redact(c.text)), wanted, stem, Math.min(room, 600));
    // Redacted once more as rendered: whatever the rendering joined is checked as the model will read it.
    const line = clipTo(redact(`${prefix}${body}`), prefix.length + Math.min(room, 600));
    lines.push(line);
    ids.push(c.id);
    used += line.length + 1;
  }
  return ids.length > 0 ? { text: framed(RECALL, lines), ids } : undefined;
}
