/**
 * The rules that pick what the briefing says is in play (src/brief/gather-in-play.ts reads the
 * rows, src/brief/sections/in-play.ts renders them). Pure: the clock and the limits come in.
 */
import { isAbsolute, resolve } from "node:path";

export interface InPlayRules {
  /** The edits of this many of the project's latest sessions that edited anything. */
  editSessions: number;
  /** Edits older than this are not in play. */
  editDays: number;
  /** Edited files kept, at most. */
  maxEdited: number;
  /** Memories about the files in play, at most. */
  memories: number;
}

export const IN_PLAY_RULES: InPlayRules = { editSessions: 3, editDays: 14, maxEdited: 40, memories: 8 };

const DAY_MS = 86_400_000;

/** A captured edit as stored: its files (as given: absolute, or relative to the project's root), its ISO time and its session. */
export interface EditRow {
  files: readonly string[];
  time: string;
  session: string;
}

/**
 * The files recent sessions edited, newest first, each once with its latest edit: from rows
 * newest first, those of the latest `editSessions` sessions and no older than `editDays`; paths
 * resolved against `root` (a relative one with no root is dropped). Pure.
 */
export function recentEdits(rows: readonly EditRow[], now: number, root: string | undefined, rules: InPlayRules = IN_PLAY_RULES): { path: string; at: number }[] {
  const sessions = new Set<string>();
  const out = new Map<string, number>();
  for (const r of rows) {
    const at = Date.parse(r.time);
    if (Number.isNaN(at) || now - at > rules.editDays * DAY_MS) continue;
    if (!sessions.has(r.session)) {
      if (sessions.size >= rules.editSessions) continue;
      sessions.add(r.session);
    }
    for (const f of r.files) {
      const path = isAbsolute(f) ? resolve(f) : root ? resolve(root, f) : undefined;
      if (path === undefined || out.has(path)) continue;
      out.set(path, at);
      if (out.size >= rules.maxEdited) break;
    }
    if (out.size >= rules.maxEdited) break;
  }
  return [...out].map(([path, at]) => ({ path, at })).sort((a, b) => b.at - a.at);
}

/** Kinds by how much they say about a file to be changed: what was decided or ruled out first. */
const KIND_ORDER: Record<string, number> = { decision: 0, rejected: 0, learned: 1, preference: 1, error: 2 };

/** A memory about a file in play. */
export interface AboutFile {
  id: string;
  type: string;
  text: string;
  time: string;
  files: readonly string[];
}

/** Memories about the files in play: each once, the decisions and rejected approaches first, then lessons, then errors; newest first within a kind's rank; at most `limit`. Pure. */
export function rankAboutFiles<T extends AboutFile>(memories: readonly T[], limit: number): T[] {
  const byId = new Map<string, T>();
  for (const m of memories) if (!byId.has(m.id)) byId.set(m.id, m);
  const rank = (t: string) => KIND_ORDER[t] ?? 3;
  return [...byId.values()].sort((a, b) => rank(a.type) - rank(b.type) || b.time.localeCompare(a.time) || a.id.localeCompare(b.id)).slice(0, limit);
}
