import type { Db } from "./db.js";

/**
 * Memory ids from the start of an id: the short ids the prompt's memories show (the first
 * characters of a chunk id) and any leading part of a memory's own id. Read only.
 */

/** The smallest string above every string that starts with `prefix` (SQLite compares text bytewise). */
const above = (prefix: string) => `${prefix}\u{10ffff}`;

/**
 * The memories (event ids, or a markdown chunk's id) whose id, or whose chunk's id, starts with
 * `prefix`: at most `limit` of them, distinct. Forgotten memories are included (the caller says
 * they were forgotten). Each lookup is a range over a unique index.
 */
export function memoryIdsWithPrefix(db: Db, prefix: string, limit: number): string[] {
  const out = new Set<string>();
  const events = db.prepare("SELECT id FROM events WHERE id >= ? AND id < ? ORDER BY id LIMIT ?").pluck().all(prefix, above(prefix), limit) as string[];
  for (const id of events) out.add(id);
  const chunks = db
    .prepare("SELECT id, CASE WHEN path LIKE 'session:%' THEN json_extract(metadata, '$.eventId') END AS event FROM chunks WHERE id >= ? AND id < ? ORDER BY id LIMIT ?")
    .all(prefix, above(prefix), limit) as { id: string; event: string | null }[];
  for (const c of chunks) out.add(c.event ?? c.id);
  return [...out].slice(0, limit);
}
