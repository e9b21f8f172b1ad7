import type { Db } from "./db.js";

/**
 * Memory ids from the start of an id: the short ids the prompt's memories show (the first
 * characters of a chunk id) and any leading part of a memory's own id. Read only.
 */

/** What an explicit memory's id starts with. */
export const MEMORY_ID_PREFIX = "mem:";

/** The smallest string above every string that starts with `prefix` (SQLite compares text bytewise). */
const above = (prefix: string) => `${prefix}\u{10ffff}`;

/**
 * The memories (event ids, or a markdown chunk's id) whose id, or whose chunk's id, starts with
 * `prefix`: at most `limit` of them, distinct, the live ones first. Forgotten memories are
 * included, marked (the caller says they were forgotten, or passes them over for a live one).
 * Each lookup is a range over a unique index. `projects`: only memories of these projects (the
 * others are as if absent: a caller bound to a project never learns of another's ids).
 */
export function memoryIdsWithPrefix(db: Db, prefix: string, limit: number, projects?: readonly string[]): { id: string; forgotten: boolean }[] {
  const out = new Map<string, boolean>();
  const within = projects === undefined ? "" : " AND +project IN (SELECT value FROM json_each(?))"; // + : the range over the id index stays the plan
  const scope = projects === undefined ? [] : [JSON.stringify(projects)];
  // An explicit memory's id is `mem:` and hex: its hex alone (as a person copies it) finds it too.
  const forms = prefix.startsWith(MEMORY_ID_PREFIX) || prefix === "" ? [prefix] : [prefix, `${MEMORY_ID_PREFIX}${prefix}`];
  const eventsOf = db.prepare(`SELECT id, deleted_at IS NOT NULL AS forgotten FROM events WHERE id >= ? AND id < ?${within} ORDER BY deleted_at IS NOT NULL, id LIMIT ?`);
  for (const form of forms) {
    const events = eventsOf.all(form, above(form), ...scope, limit) as { id: string; forgotten: number }[];
    for (const e of events) out.set(e.id, e.forgotten === 1);
  }
  const chunks = db
    .prepare(`SELECT id, CASE WHEN path LIKE 'session:%' THEN json_extract(metadata, '$.eventId') END AS event FROM chunks WHERE id >= ? AND id < ?${within} ORDER BY id LIMIT ?`)
    .all(prefix, above(prefix), ...scope, limit) as { id: string; event: string | null }[];
  for (const c of chunks) if (!out.has(c.event ?? c.id)) out.set(c.event ?? c.id, false); // a chunk is live: a forgotten memory's is deleted
  return [...out].map(([id, forgotten]) => ({ id, forgotten })).sort((a, b) => Number(a.forgotten) - Number(b.forgotten)).slice(0, limit);
}
