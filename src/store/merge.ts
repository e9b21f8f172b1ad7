import { asStored, type Clean } from "../redact/clean.cjs";
import { eventChunkId } from "./chunk-ids.js";
import type { Db } from "./db.js";
import { forgetChunkOf } from "./memories.js";
import { prepared } from "./statements.js";

/**
 * Several rows that are one memory (src/memory/same-memory.ts) made one: the row kept takes the
 * merged metadata and files (src/memory/merged.ts) and is chunked again; each other row leaves
 * every view at once as a tombstone that names the row it went into (`metadata.mergedInto`), so a
 * capture read again or a put under its key finds it and never brings it back. Its history, links
 * and anchors move to the row kept. Its text stays in the row kept's `sources`; the tombstone is
 * purged (src/store/memories.ts purgeTombstones) only once the row kept is forgotten too.
 */
export function absorbRows(db: Db, keep: Clean<string>, absorbed: readonly Clean<string>[], next: Clean<{ metadata: Record<string, unknown>; files: string[] }>, now: number): void {
  db.transaction(() => {
    prepared(db, "UPDATE events SET metadata = ?, files = ?, updated_at = ?, chunked = 0 WHERE id = ?").run(JSON.stringify(next.metadata), JSON.stringify(next.files), now, keep);
    // Chunked again for its files and source; its use so far is its own and stays.
    forgetChunkKeepingUse(db, keep);
    let version = (prepared(db, "SELECT max(version) FROM memory_history WHERE memory = ?").pluck().get(keep) as number | null) ?? 0;
    for (const id of absorbed) {
      prepared(db, "UPDATE events SET deleted_at = ?, chunked = 0, metadata = json_set(metadata, '$.mergedInto', ?) WHERE id = ? AND deleted_at IS NULL").run(now, keep, id);
      forgetChunkOf(db, id);
      // What went into it before goes into the row kept now: one step from any merged id to the live one.
      db.prepare("UPDATE events SET metadata = json_set(metadata, '$.mergedInto', ?) WHERE deleted_at IS NOT NULL AND json_extract(metadata, '$.mergedInto') = ?").run(keep, id);
      const rows = db.prepare("SELECT version, at, kind, text, tags FROM memory_history WHERE memory = ? ORDER BY version").all(id) as { version: number; at: number; kind: string; text: string; tags: string }[];
      for (const h of rows) db.prepare("INSERT INTO memory_history (memory, version, at, kind, text, tags) VALUES (?, ?, ?, ?, ?, ?)").run(keep, ++version, h.at, h.kind, h.text, h.tags);
      db.prepare("DELETE FROM memory_history WHERE memory = ?").run(id);
      db.prepare("UPDATE OR IGNORE links SET a = ? WHERE a = ?").run(keep, id);
      db.prepare("UPDATE OR IGNORE links SET b = ? WHERE b = ?").run(keep, id);
      db.prepare("DELETE FROM links WHERE a = ? OR b = ? OR a = b").run(id, id);
      db.prepare("INSERT OR IGNORE INTO anchors (memory, path, blob, branch, at) SELECT ?, path, blob, branch, at FROM anchors WHERE memory = ?").run(keep, id);
      db.prepare("DELETE FROM anchors WHERE memory = ?").run(id);
    }
  }).immediate();
}

/** A memory's chunk made again, its salience row (its uses) kept. */
function forgetChunkKeepingUse(db: Db, id: string): void {
  const project = prepared(db, "SELECT project FROM events WHERE id = ?").pluck().get(id) as string | undefined;
  if (project === undefined) return;
  const use = db.prepare("SELECT chunk_id, salience, last_used_at, uses FROM salience WHERE chunk_id = ?").get(eventChunkId(project, id)) as { chunk_id: string; salience: number; last_used_at: number; uses: number } | undefined;
  forgetChunkOf(db, id);
  if (use) db.prepare("INSERT OR REPLACE INTO salience (chunk_id, salience, last_used_at, uses) VALUES (?, ?, ?, ?)").run(use.chunk_id, use.salience, use.last_used_at, use.uses);
}

/** The row a merged-away memory went into, when it was merged (not forgotten): a row of its own project, never another's. */
export function mergedInto(db: Db, id: string): Clean<string> | undefined {
  const to = prepared(db, "SELECT k.id FROM events e JOIN events k ON k.id = json_extract(e.metadata, '$.mergedInto') AND k.project = e.project WHERE e.id = ? AND e.deleted_at IS NOT NULL").pluck().get(id) as string | null | undefined;
  return typeof to === "string" ? asStored(to) : undefined;
}

/** A project's live events of a kind, oldest first (ids). */
export function liveOfKind(db: Db, project: string, kind: string): Clean<string>[] {
  return (prepared(db, "SELECT id FROM events INDEXED BY events_live WHERE project = ? AND type = ? AND deleted_at IS NULL ORDER BY time, rowid").pluck().all(project, kind) as string[]).map(asStored);
}

/** The order events were stored in (their rowid), for ties of time. */
export function storedOrder(db: Db, id: string): number {
  return (prepared(db, "SELECT rowid FROM events WHERE id = ?").pluck().get(id) as number | undefined) ?? Number.MAX_SAFE_INTEGER;
}
