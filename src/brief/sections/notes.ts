import { prose } from "../../render/line.js";
import { shownPath } from "../render.js";
import type { Section } from "./section.js";

/**
 * Hot-tier notes (identity, state, references) of the project and of the user-global memory, with
 * their markdown structure readable: each line of the note is quoted (`> `) and rendered on its own
 * line, so headings, lists and checkboxes stay as they were written while no line of a note can
 * pose as a section or an item of the briefing. Pure.
 */
export interface HotNote {
  path: string;
  text: string;
  /** From the user-global memory rather than the project's. */
  global?: boolean;
}

export const NOTE_LINES = 24;
export const NOTE_CHARS = 1_200;

export function noteSections(notes: readonly HotNote[], root: string | undefined): Section[] {
  const byPath = new Map<string, { text: string[]; global: boolean }>();
  for (const n of notes) {
    const e = byPath.get(n.path) ?? { text: [], global: n.global === true };
    e.text.push(n.text);
    byPath.set(n.path, e);
  }
  return [...byPath].map(([path, n]) => {
    const lines: string[] = [];
    let chars = 0;
    let last = "";
    for (const raw of n.text.join("\n").split("\n")) {
      const line = prose(raw, 200);
      if (line === "" || line === last) continue; // blank lines, and the overlap chunks repeat
      if (lines.length >= NOTE_LINES || chars + line.length > NOTE_CHARS) {
        lines.push("> …");
        break;
      }
      lines.push(`> ${line}`);
      chars += line.length;
      last = line;
    }
    return { title: `From ${shownPath(path, n.global ? undefined : root)}${n.global ? " (your global memory)" : ""}`, items: lines };
  });
}
