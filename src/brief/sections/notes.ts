import { field, prose } from "../../render/line.js";
import { withoutComments } from "../../util/html-comments.js";
import { shownPath } from "../render.js";
import type { Section } from "./section.js";

/**
 * Hot-tier notes (identity, state, references) of the project and of the user-global memory, and
 * the current user's profile (`users/<id>/profile.md`), with their markdown structure readable:
 * each line of the note is quoted (`> `) and rendered on its own line, so headings, lists and
 * checkboxes stay as they were written while no line of a note can pose as a section or an item
 * of the briefing. HTML comments (`<!-- … -->`, the hints of `mem init`'s templates) are not
 * shown, and a note left with headings only (an untouched template) is left out. Pure.
 */
export interface HotNote {
  /** The chunk it is (the briefing records the lines it showed, so the session's first prompt does not show them again). */
  id?: string;
  path: string;
  text: string;
  /** From the user-global memory rather than the project's. */
  global?: boolean;
  /** The current user's profile: their id (only theirs is ever gathered). */
  user?: string;
}

export const NOTE_LINES = 24;
/** How the current user's profile section's title begins. */
export const PROFILE_TITLE = "The current user's profile";
export const NOTE_CHARS = 1_200;

/** A line of a hot note as the briefing shows it (behind `> `): on one line, at most 200 characters. */
export const noteLine = (raw: string) => prose(raw, 200);

/**
 * The note without its HTML comments, by the indexer's rule (a store indexed before it left them
 * in; a comment split across chunks is one span again once they are joined).
 */
const uncommented = withoutComments;
const isHeading = (line: string) => /^ {0,3}#{1,6}(\s|$)/.test(line);

function title(path: string, n: { global: boolean; user?: string | undefined }, root: string | undefined): string {
  const where = `${shownPath(path, n.global ? undefined : root)}${n.global ? " (your global memory)" : ""}`;
  return n.user !== undefined ? `${PROFILE_TITLE} (${field(n.user, 64)}), from ${where}` : `From ${where}`;
}

export function noteSections(notes: readonly HotNote[], root: string | undefined): Section[] {
  const byPath = new Map<string, { text: string[]; global: boolean; user?: string }>();
  for (const n of notes) {
    const e = byPath.get(n.path) ?? { text: [], global: n.global === true, ...(n.user !== undefined ? { user: n.user } : {}) };
    e.text.push(n.text);
    byPath.set(n.path, e);
  }
  const sections: Section[] = [];
  for (const [path, n] of byPath) {
    const lines: string[] = [];
    let chars = 0;
    let last = "";
    let content = false;
    for (const raw of uncommented(n.text.join("\n")).split("\n")) {
      const line = noteLine(raw);
      if (line === "" || line === last) continue; // blank lines, and the overlap chunks repeat
      if (lines.length >= NOTE_LINES || chars + line.length > NOTE_CHARS) {
        lines.push("> …");
        break;
      }
      lines.push(`> ${line}`);
      chars += line.length;
      last = line;
      content ||= !isHeading(raw);
    }
    if (content) sections.push({ title: title(path, n, root), items: lines });
  }
  return sections;
}
