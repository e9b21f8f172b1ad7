import type { Db } from "./db.js";

/**
 * SQLite (events, explicit memories, sessions, tasks) and the markdown files are the truth; chunks,
 * the FTS5 index and the vectors are derived from them. Clears the derived data (the text index
 * follows the chunks through its triggers), so that a rebuild makes it again from the truth alone.
 * Returns what it held.
 */
export function clearDerived(db: Db): { chunks: number; sources: number; vectors: number; tables: string[] } {
  return db.transaction(() => {
    const tables = db.prepare("SELECT name FROM vec_tables ORDER BY name").pluck().all() as string[];
    db.prepare("DELETE FROM vec_tables").run(); // first: the rows' removal is then not journaled (vec_gone)
    const vectors = db.prepare("DELETE FROM vec_rows").run().changes;
    db.prepare("DELETE FROM vec_redo").run();
    db.prepare("DELETE FROM vec_gone").run();
    // Calibrations and hub shares describe the tables dropped: the rebuild's vector step makes them again.
    db.prepare("DELETE FROM fusion_calibration").run();
    db.prepare("DELETE FROM vec_hub").run();
    const chunks = db.prepare("DELETE FROM chunks").run().changes;
    const sources = db.prepare("DELETE FROM sources").run().changes;
    db.prepare("UPDATE events SET chunked = 0").run();
    db.prepare("DELETE FROM meta WHERE key LIKE 'chunking:%'").run();
    return { chunks, sources, vectors, tables };
  }).immediate();
}

/**
 * Where the stores disagree: events not chunked yet, events marked chunked with no chunk, chunks of
 * events gone or forgotten, vector rows of chunks gone. Indexed lookups only.
 */
export function drift(db: Db): { unchunked: number; lostChunks: number; strayChunks: number; strayVectors: number } {
  const n = (sql: string) => db.prepare(sql).pluck().get() as number;
  const strayChunks = n("SELECT count(*) FROM chunks c WHERE c.path LIKE 'session:%' AND NOT EXISTS (SELECT 1 FROM events e WHERE e.id = json_extract(c.metadata, '$.eventId') AND e.deleted_at IS NULL)");
  const eventChunks = n("SELECT count(*) FROM chunks WHERE path LIKE 'session:%'");
  const chunked = n("SELECT count(*) FROM events WHERE chunked = 1 AND deleted_at IS NULL");
  return {
    unchunked: n("SELECT count(*) FROM events WHERE chunked = 0 AND deleted_at IS NULL"),
    lostChunks: Math.max(0, chunked - (eventChunks - strayChunks)),
    strayChunks,
    strayVectors: n("SELECT count(*) FROM vec_rows v WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = v.chunk_id)"),
  };
}
