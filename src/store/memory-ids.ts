import { eventChunkId } from "./chunk-ids.js";
import type { Db } from "./db.js";
import { LEGACY_PREFIX, type IdInput } from "./one-id.js";

/**
 * The memories an id, or the start of one, may stand for: by the one id (the start of a chunk's
 * id, src/store/one-id.ts) and by the older forms still accepted (the start of a memory's stored
 * id: `mem:…`, with or without `mem:`, a tool's id, `tag:…`). Read only.
 */

/** The smallest string above every string that starts with `prefix` (SQLite compares text bytewise). */
const above = (prefix: string) => `${prefix}\u{10ffff}`;

/** A memory an id may stand for: its stored id (an event's, or a markdown chunk's), its chunk's id, its project. */
export interface IdMatch {
  id: string;
  chunk: string;
  project: string;
  forgotten: boolean;
}

/**
 * The memories (event ids, or a markdown chunk's id) whose chunk id, or whose own id, starts with
 * what was typed: at most `limit` of them, distinct, the live ones first. Forgotten memories are
 * included, marked, when found by their own id (a forgotten memory has no chunk left). Chunk ids
 * are looked up only for hex of `minChars` or more (`mem:feed` is the start of a stored id, not
 * `feed` of a chunk's). Each lookup
 * is a range over a unique index. `projects`: only memories of these projects (the others are as
 * if absent: a caller bound to a project never learns of another's ids).
 */
export function memoryIdsWithPrefix(db: Db, input: IdInput, limit: number, minChars: number, projects?: readonly string[]): IdMatch[] {
  const out = new Map<string, IdMatch>();
  const within = projects === undefined ? "" : " AND +project IN (SELECT value FROM json_each(?))"; // + : the range over the id index stays the plan
  const scope = projects === undefined ? [] : [JSON.stringify(projects)];
  // A stored id as typed, and an explicit memory's (`mem:` and hex) from its hex alone.
  const forms = [...new Set([input.raw, `${LEGACY_PREFIX}${input.bare}`])];
  const eventsOf = db.prepare(`SELECT id, project, deleted_at IS NOT NULL AS forgotten FROM events WHERE id >= ? AND id < ?${within} ORDER BY deleted_at IS NOT NULL, id LIMIT ?`);
  for (const form of forms) {
    const events = eventsOf.all(form, above(form), ...scope, limit) as { id: string; project: string; forgotten: number }[];
    for (const e of events) out.set(e.id, { id: e.id, chunk: eventChunkId(e.project, e.id), project: e.project, forgotten: e.forgotten === 1 });
  }
  if (input.hex && input.bare.length >= minChars) {
    const chunks = db
      .prepare(`SELECT id, project, CASE WHEN path LIKE 'session:%' THEN json_extract(metadata, '$.eventId') END AS event FROM chunks WHERE id >= ? AND id < ?${within} ORDER BY id LIMIT ?`)
      .all(input.bare, above(input.bare), ...scope, limit) as { id: string; project: string; event: string | null }[];
    for (const c of chunks) if (!out.has(c.event ?? c.id)) out.set(c.event ?? c.id, { id: c.event ?? c.id, chunk: c.id, project: c.project, forgotten: false }); // a chunk is live: a forgotten memory's is deleted
    for (const e of chunklessWithChunkPrefix(db, input.bare, limit, projects)) if (!out.has(e.id)) out.set(e.id, e);
  }
  return [...out.values()].sort((a, b) => Number(a.forgotten) - Number(b.forgotten)).slice(0, limit);
}

/**
 * The live memories that have no chunk (yet) whose chunk id would start with `hex`: events captured
 * but not chunked yet (the index pass, or the daemon, chunks them later) and notifications (kept
 * as events, never chunked). `mem list` shows each by its one id at once, so each is found by it
 * at once, without writing anything. A scan of the project's pending events (few: the indexer
 * drains them) and its notifications, each over a partial index; each id worked out again.
 */
export function chunklessWithChunkPrefix(db: Db, hex: string, limit: number, projects?: readonly string[]): IdMatch[] {
  // Every project of the store, one index seek each (a skip over events_project_time, not a scan).
  const every = "WITH RECURSIVE p(project) AS (SELECT min(project) FROM events UNION ALL SELECT (SELECT min(project) FROM events WHERE project > p.project) FROM p WHERE p.project IS NOT NULL) SELECT project FROM p WHERE project IS NOT NULL";
  const names = projects ?? (db.prepare(every).pluck().all() as string[]);
  const pending = db.prepare("SELECT id FROM events INDEXED BY events_unchunked_session WHERE project = ? AND chunked = 0 AND deleted_at IS NULL");
  const notes = db.prepare("SELECT id FROM events INDEXED BY events_live WHERE project = ? AND type = 'notification' AND deleted_at IS NULL");
  const out: IdMatch[] = [];
  for (const project of names) {
    for (const q of [pending, notes]) {
      for (const id of q.pluck().iterate(project) as IterableIterator<string>) {
        const chunk = eventChunkId(project, id);
        if (!chunk.startsWith(hex)) continue;
        out.push({ id, chunk, project, forgotten: false });
        if (out.length >= limit) return out;
      }
    }
  }
  return out;
}

/**
 * The forgotten memories whose chunk id starts with `hex` (at most two: one, or a sign of several;
 * their chunks are gone, so each id is worked out again from each forgotten event): a scan of the
 * forgotten ones, run only for an id nothing live matched, so a forgotten memory's one id is
 * answered as forgotten (or, merged into another, as that one), not as unknown.
 */
export function forgottenWithChunkPrefix(db: Db, hex: string, projects?: readonly string[]): string[] {
  const within = projects === undefined ? "" : " AND project IN (SELECT value FROM json_each(?))";
  const rows = db.prepare(`SELECT id, project FROM events WHERE deleted_at IS NOT NULL${within}`).iterate(...(projects === undefined ? [] : [JSON.stringify(projects)])) as IterableIterator<{ id: string; project: string }>;
  const out: string[] = [];
  for (const r of rows) {
    if (!eventChunkId(r.project, r.id).startsWith(hex)) continue;
    out.push(r.id);
    if (out.length === 2) break;
  }
  return out;
}
