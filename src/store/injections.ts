import { isLinePrint } from "./line-print.js";
import type { Clean } from "../redact/clean.cjs";
import type { Db } from "./db.js";
import { prepared } from "./statements.js";

/**
 * What a session was shown in its current context window: chunks shown whole (a captured memory,
 * rows written before lines were recorded), and the lines shown of each markdown file (their
 * fingerprints, src/store/line-print.ts, by the file's path as chunks hold it), so that another
 * chunk of the same file (chunks overlap) does not show them again either.
 */
export interface Shown {
  whole: ReadonlySet<string>;
  lines: ReadonlyMap<string, ReadonlySet<string>>;
}

export function shownIn(db: Db, session: string): Shown {
  const rows = prepared(db, "SELECT i.chunk_id AS id, i.lines AS lines, c.path AS path FROM injections i LEFT JOIN chunks c ON c.id = i.chunk_id WHERE i.session = ?").all(session) as { id: string; lines: string | null; path: string | null }[];
  const whole = new Set<string>();
  const lines = new Map<string, Set<string>>();
  for (const r of rows) {
    // A captured memory (its chunk's source is its session) is shown whole.
    const list = r.lines === null || r.path === null || r.path.startsWith("session:") ? undefined : parseLines(r.lines);
    if (!list) {
      whole.add(r.id);
      continue;
    }
    let set = lines.get(r.path!);
    if (!set) lines.set(r.path!, (set = new Set()));
    for (const n of list) set.add(n);
  }
  return { whole, lines };
}

/** A stored list of line fingerprints; anything else reads as "the whole chunk". */
function parseLines(json: string): string[] | undefined {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) && v.every(isLinePrint) ? (v as string[]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Marks chunks as injected into a session: with `lines`, only those lines of a chunk (their
 * fingerprints; a chunk shown again adds its new lines to the ones recorded); without, the whole chunk. Only ids of stored
 * chunks are recorded, and the id written is the one read from the chunks table, so no text but
 * the (clean) session comes in.
 */
export function recordInjected(db: Db, session: Clean<string>, ids: readonly string[], now: number, lines?: ReadonlyMap<string, readonly string[]>): void {
  const had = prepared(db, "SELECT lines FROM injections WHERE session = ? AND chunk_id = ?");
  const put = prepared(
    db,
    `INSERT INTO injections (session, chunk_id, at, lines) SELECT ?, id, ?, ? FROM chunks WHERE id = ?
     ON CONFLICT (session, chunk_id) DO UPDATE SET at = excluded.at, lines = excluded.lines`,
  );
  db.transaction(() => {
    for (const id of ids) {
      // Recorded line by line: a chunk none of whose lines was shown whole (only some sentences of
      // a long line) has an empty list, not "whole".
      const shown = lines ? (lines.get(id) ?? []).filter(isLinePrint) : undefined;
      let merged: string | null = null;
      if (shown) {
        const before = had.get(session, id) as { lines: string | null } | undefined;
        // Shown whole before: it stays whole. Else the lines shown then and now.
        const earlier = before === undefined ? [] : before.lines === null ? undefined : parseLines(before.lines);
        merged = earlier === undefined ? null : JSON.stringify([...new Set([...earlier, ...shown])].sort());
      }
      put.run(session, now, merged, id);
    }
  }).immediate();
}

/**
 * The session's context was compacted or cleared: what it was shown before is no longer in front
 * of the model, so any of it may be injected again. Returns how many injections were let go.
 */
export function contextReset(db: Db, session: Clean<string>): number {
  return prepared(db, "DELETE FROM injections WHERE session = ?").run(session).changes;
}
