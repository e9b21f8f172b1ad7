import { bracket, field, prose } from "../../render/line.js";
import { ago, shownPath } from "../render.js";
import type { Section } from "./section.js";

/**
 * The files in play right now and the memories about them: the files git says are changed in the
 * working tree, those the branch changed since it left its base, and those recent sessions
 * edited (src/brief/in-play-rules.ts orders them); the branch checked out. The memories come
 * first (the decisions about these files before anything else about them), then one line naming
 * the files. Pure.
 */
export interface InPlay {
  branch?: string;
  /** Changed in the working tree, absolute (both sides of a rename). */
  files: string[];
  /** How many changes: a rename is one. */
  changes?: number;
  /** Committed on the branch since it left its base, absolute. */
  branchFiles?: readonly string[];
  /** Edited by recent sessions, newest first: absolute path and when (ms). */
  edited?: readonly { path: string; at: number }[];
  memories: { id?: string; type: string; text: string; time: string; files: readonly string[]; stale?: string }[];
}

/** Files named on the files line, at most. */
export const FILES_SHOWN = 8;

/** The files line's entries: working-tree changes, then recent edits (newest first), then the branch's; each once, with why. Pure. */
export function filesInPlay(p: InPlay, now: number): { path: string; why: string[] }[] {
  const out = new Map<string, string[]>();
  const add = (path: string, why: string) => {
    const w = out.get(path) ?? [];
    if (!w.includes(why)) w.push(why);
    out.set(path, w);
  };
  for (const f of p.files) add(f, "changed");
  for (const e of p.edited ?? []) if (!out.get(e.path)?.some((w) => w.startsWith("edited"))) add(e.path, `edited ${ago(e.at, now) || "recently"}`);
  for (const f of p.branchFiles ?? []) add(f, "on the branch");
  return [...out].map(([path, why]) => ({ path, why }));
}

export function inPlaySection(p: InPlay, now: number, root: string | undefined): Section | undefined {
  const files = filesInPlay(p, now);
  if (p.memories.length === 0 && files.length === 0) return undefined;
  const edited = new Set((p.edited ?? []).map((e) => e.path)).size;
  const onBranch = p.branchFiles?.length ?? 0;
  const changed = p.changes ?? p.files.length;
  const where = [
    p.branch ? `branch ${field(p.branch, 60)}` : undefined,
    changed > 0 || (edited === 0 && onBranch === 0) ? `${changed} changed file(s)` : undefined,
    onBranch > 0 ? `${onBranch} changed on the branch` : undefined,
    edited > 0 ? `${edited} edited recently` : undefined,
  ]
    .filter(Boolean)
    .join(", ");
  const items = p.memories.map((m) => {
    const about = [...new Set(m.files.map((f) => shownPath(f, root)))].slice(0, 2).join(", ");
    return `- ${prose(m.text, 200)} (${field(m.type, 20)}, ${ago(m.time, now)}${about ? `; ${about}` : ""})${m.stale ? ` ${bracket([field(m.stale, 300)])}` : ""}`;
  });
  if (files.length > 0) {
    const named = files.slice(0, FILES_SHOWN).map((f) => `${shownPath(f.path, root)} (${f.why.join(", ")})`);
    const rest = files.length - named.length;
    items.push(`- Files: ${named.join("; ")}${rest > 0 ? `; and ${rest} more` : ""}`);
  }
  return { title: `About the files in play (${where})`, items };
}
