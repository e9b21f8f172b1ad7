import { bracket, field, prose } from "../../render/line.js";
import { ago, shownPath } from "../render.js";
import type { Section } from "./section.js";

/**
 * The memories about what is in play right now: the files git says are changed in the working
 * tree, on the current branch. Pure.
 */
export interface InPlay {
  branch?: string;
  /** Changed files, absolute (both sides of a rename). */
  files: string[];
  /** How many changes: a rename is one. */
  changes?: number;
  memories: { id?: string; type: string; text: string; time: string; files: readonly string[]; stale?: string }[];
}

export function inPlaySection(p: InPlay, now: number, root: string | undefined): Section | undefined {
  if (p.memories.length === 0) return undefined;
  const where = [p.branch ? `branch ${field(p.branch, 60)}` : undefined, `${p.changes ?? p.files.length} changed file(s)`].filter(Boolean).join(", ");
  const items = p.memories.map((m) => {
    const about = m.files.slice(0, 2).map((f) => shownPath(f, root)).join(", ");
    return `- ${prose(m.text, 200)} (${field(m.type, 20)}, ${ago(m.time, now)}${about ? `; ${about}` : ""})${m.stale ? ` ${bracket([field(m.stale, 300)])}` : ""}`;
  });
  return { title: `About the files in play (${where})`, items };
}
