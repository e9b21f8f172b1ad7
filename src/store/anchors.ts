import { asStored, asStoredRow, type Clean, type CleanFields } from "../redact/clean.cjs";
import type { Db } from "./db.js";
import { prepared } from "./statements.js";

/**
 * Reality anchors: the files a memory (a captured event, by id) names, as they were when it was
 * made or last reinforced: each file's git blob (NULL: missing, unreadable or too large) and the
 * branch checked out (NULL: detached HEAD or no repository). Paths are absolute (resolved when
 * anchored), so a memory can be checked or re-anchored without knowing its project.
 */
export interface AnchorRow {
  memory: string;
  path: string;
  blob: string | null;
  branch: string | null;
  at: number;
}

export type StoredAnchor = CleanFields<AnchorRow>;

const CHUNK = 500;
function* chunks<T>(xs: readonly T[]): Generator<T[]> {
  for (let i = 0; i < xs.length; i += CHUNK) yield xs.slice(i, i + CHUNK);
}

/** Records anchors a memory does not have yet (the first capture of an event anchors it; a re-read keeps it). Returns how many were new. */
export function recordAnchors(db: Db, rows: Clean<AnchorRow[]> | readonly Clean<AnchorRow>[]): number {
  if (rows.length === 0) return 0;
  const ins = prepared(db, "INSERT OR IGNORE INTO anchors (memory, path, blob, branch, at) VALUES (?, ?, ?, ?, ?)");
  return db.transaction(() => rows.reduce((n, r) => n + ins.run(r.memory, r.path, r.blob, r.branch, r.at).changes, 0)).immediate();
}

/** Anchors a memory to its files as they are now (reinforcement, an edit): replaces what was recorded. */
export function reanchorRows(db: Db, rows: Clean<AnchorRow[]> | readonly Clean<AnchorRow>[]): number {
  if (rows.length === 0) return 0;
  const put = prepared(db, "INSERT INTO anchors (memory, path, blob, branch, at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (memory, path) DO UPDATE SET blob = excluded.blob, branch = excluded.branch, at = excluded.at");
  return db.transaction(() => rows.reduce((n, r) => n + put.run(r.memory, r.path, r.blob, r.branch, r.at).changes, 0)).immediate();
}

/** The anchors of each of `memories` (event ids) that has any. */
export function anchorsOf(db: Db, memories: readonly string[]): Map<string, StoredAnchor[]> {
  const out = new Map<string, StoredAnchor[]>();
  const ids = [...new Set(memories)];
  for (const part of chunks(ids)) {
    const rows = db.prepare(`SELECT memory, path, blob, branch, at FROM anchors WHERE memory IN (${part.map(() => "?").join(", ")}) ORDER BY memory, path`).all(...part) as AnchorRow[];
    for (const r of rows) {
      const list = out.get(r.memory) ?? [];
      list.push(asStoredRow(r));
      out.set(r.memory, list);
    }
  }
  return out;
}

/** The captured event behind each of `chunkIds` that is a captured event's chunk: chunk id → event id and project. */
export function eventsOfChunks(db: Db, chunkIds: readonly string[]): Map<string, { event: Clean<string>; project: Clean<string> }> {
  const out = new Map<string, { event: Clean<string>; project: Clean<string> }>();
  // Captured events are chunked under a `session:<id>` source (indexer/captured.ts); event-log files are not.
  const get = prepared(db, "SELECT json_extract(c.metadata, '$.eventId') AS event, c.project FROM chunks c JOIN sources s ON s.id = c.source_id WHERE c.id = ? AND s.kind = 'events' AND s.path LIKE 'session:%'");
  for (const id of new Set(chunkIds)) {
    const r = get.get(id) as { event: unknown; project: string } | undefined;
    if (r && typeof r.event === "string") out.set(id, { event: asStored(r.event), project: asStored(r.project) });
  }
  return out;
}
