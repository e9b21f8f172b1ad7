import { createHash } from "node:crypto";
import type { ChunkStore, NewChunk } from "../src/store/chunks.js";
import type { Db } from "../src/store/db.js";
import type { EventRow as StoredRow } from "../src/store/events.js";
import { eventText } from "./events.js";

type EventRow = Omit<StoredRow, "project">;

const sha = (...parts: string[]) => createHash("sha256").update(parts.join("\0")).digest("hex").slice(0, 32);


/**
 * Turns the captured events of a project that are not chunks yet into chunks, one source per
 * session (`session:<id>`), one chunk per event. Chunk ids derive from event ids, so re-running
 * changes nothing. Returns the number of events chunked.
 */
export function chunkCapturedEvents(db: Db, store: ChunkStore, project: string, now: number): number {
  const sessions = db.prepare("SELECT DISTINCT coalesce(session, '') FROM events WHERE project = ? AND chunked = 0").pluck().all(project) as string[];
  let n = 0;
  for (const session of sessions) {
    const rows = db
      .prepare("SELECT id, session, type, time, files, text, metadata FROM events WHERE project = ? AND coalesce(session, '') = ? ORDER BY time, rowid")
      .all(project, session) as EventRow[];
    const chunks = rows.map((r, i): NewChunk => {
      const files = JSON.parse(r.files) as string[];
      return {
        id: sha(project, "event", r.id),
        kind: r.type,
        tier: "warm",
        heading: r.type,
        startLine: i + 1,
        endLine: i + 1,
        text: eventText({ type: r.type, text: r.text, files }),
        tags: [],
        date: r.time || null,
        metadata: { source: "capture", eventId: r.id, session: r.session, files, ...(JSON.parse(r.metadata) as Record<string, unknown>) },
      };
    });
    db.transaction(() => {
      store.replaceSource(
        { project, path: `session:${session || "unknown"}`, kind: "events", tier: "warm", size: rows.length, mtimeMs: 0, hash: sha(...rows.map((r) => r.id)), metadata: { session, events: rows.length } },
        chunks,
        now,
      );
      n += db.prepare("UPDATE events SET chunked = 1 WHERE project = ? AND coalesce(session, '') = ? AND chunked = 0").run(project, session).changes;
    })();
  }
  return n;
}
