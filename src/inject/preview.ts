/**
 * A search result's preview (`mem query`, the MCP search): the lines of its chunk that hold the
 * query's words, chosen by the prompt hook's own evidence selection (./select.ts) run on that one
 * result, in file order, "…" wherever lines or parts of a line are left out; at most `maxChars`.
 * A result none of whose lines holds a word of the query (found by its meaning or its heading,
 * or the query is all filler) shows its first lines. Rendered as the hook renders evidence (src/render/line.ts:
 * one line, control characters dropped, markup defused) and redacted, so stored text shown to a
 * model can neither pose as instructions nor close a frame. Pure.
 */
import { redactLines } from "../redact/redact.cjs";
import { prose } from "../render/line.js";
import { queryTerms } from "../retrieve/fts-query.js";
import { stem, stemsFound } from "./floor.js";
import { withoutKind } from "./items.js";
import { chooseEvidence, DEFAULT_SELECT } from "./select.js";
import { contentStems } from "./terms.js";
import type { Candidate } from "./types.js";

/** How long a preview may be (characters), and how many runs of lines it shows at most. */
export const PREVIEW_CHARS = 300;
export const PREVIEW_RUNS = 4;

/** What marks lines, or parts of a line, left out. */
export const SKIPPED = "…";

export interface PreviewOptions {
  maxChars: number;
  maxRuns: number;
  /** Applied to the chunk's text before it is cut, keeping its line count (default `redactLines`, the hook's). */
  redact: (s: string) => string;
}

/** The stems a preview looks for: the query's content words, as the hook counts a prompt's. */
export const previewStems = (query: string): string[] => contentStems(queryTerms(query));

/** Two runs of lines joined: "…" between them, once (a run may end or start with one already: a line's parts left out). */
function joined(a: string, b: string): string {
  const ends = a.endsWith(SKIPPED);
  const starts = b.startsWith(SKIPPED);
  if (ends && starts) return `${a} ${b.slice(SKIPPED.length).trimStart()}`.trimEnd();
  return ends || starts ? `${a} ${b}` : `${a} ${SKIPPED} ${b}`;
}

/** A result's preview for a query whose content stems are `stems` (`previewStems`); see the file's comment. */
export function preview(c: Candidate, stems: readonly string[], o: Partial<PreviewOptions> = {}): string {
  const maxChars = Math.max(1, o.maxChars ?? PREVIEW_CHARS);
  const maxRuns = Math.max(1, o.maxRuns ?? PREVIEW_RUNS);
  const redact = o.redact ?? redactLines;
  // Room for the runs, each counted with a newline: the "… " between and around them take a little more.
  const roomChars = Math.max(0, maxChars - 2 * maxRuns - 4);
  const choice = chooseEvidence([c], stems, { ...DEFAULT_SELECT, roomChars, maxItems: maxRuns }, { redact, bare: true });
  // Nothing chosen, or no line holding a query word (found by its meaning, or by its heading's words: every line scores alike): its first lines.
  const wanted = new Set(stems);
  if (!choice.placed.flat().some((e) => stemsFound(e.text, wanted).size > 0)) return start(c, maxChars, redact);
  const runs = choice.items.map((i) => i.line);
  let text = runs.reduce(joined);
  // One source: the runs are in file order, and the pool's pieces numbered from 0 in that order.
  const first = choice.placed[0]![0]!;
  const lastRun = choice.placed[choice.placed.length - 1]!;
  const last = lastRun[lastRun.length - 1]!;
  if (first.seq > 0) text = joined(SKIPPED, text);
  if (last.seq < choice.pieces.length - 1) text = joined(text, SKIPPED);
  return prose(text, maxChars);
}

/** The chunk's first lines (headings left out: they are shown apart), for a result no line of which holds a query word. */
function start(c: Candidate, maxChars: number, redact: (s: string) => string): string {
  const text = withoutKind(redact(c.text), c.kind);
  const body = text
    .split("\n")
    .filter((l) => !/^ {0,3}#{1,6}(\s|$)/.test(l))
    .join(" ");
  return prose(body.trim() === "" ? text : body, maxChars);
}

/**
 * `text` (a preview, already rendered) with each word whose stem is one of `stems` passed through
 * `mark` (`mem query` on a terminal: bold), so the words that matched stand out.
 */
export function markMatches(text: string, stems: readonly string[], mark: (word: string) => string): string {
  if (stems.length === 0) return text;
  const wanted = new Set(stems);
  return text.replace(/[\p{L}\p{N}]+/gu, (w) => (wanted.has(stem(w)) ? mark(w) : w));
}
