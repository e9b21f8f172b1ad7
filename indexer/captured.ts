import { createHash } from "node:crypto";
import { clean, cleanText, fromClean, mergeClean, type Clean } from "../src/redact/clean.cjs";
import { eventChunkId } from "../src/store/chunk-ids.js";
import type { ChunkStore, NewChunk } from "../src/store/chunks.js";
import type { Db } from "../src/store/db.js";
import { EventStore, type SessionEvent } from "../src/store/events.js";
import { eventText } from "./events.js";

const WARM = cleanText("warm");
const CAPTURE = cleanText("capture");
/** A captured event's chunk is at most this long, however many files it names (a chunk's hard cap). */
export const MAX_CAPTURED_CHARS = 6_000;
const capped = (t: string) => (t.length > MAX_CAPTURED_CHARS ? `${t.slice(0, MAX_CAPTURED_CHARS - 16)} …[truncated]` : t);
const sha = (...parts: string[]) => createHash("sha256").update(parts.join("\0")).digest("hex").slice(0, 32);

export { eventChunkId };

/** One event's chunk: its id derives from the event's, so chunking it again changes nothing. */
function eventChunk(project: Clean<string>, r: SessionEvent): Clean<NewChunk> {
  const { files, metadata } = r;
  return fromClean<NewChunk>({
    id: eventChunkId(project, r.id),
    kind: r.type,
    tier: WARM,
    heading: r.type,
    startLine: 0, // its place in the session, given as it is appended
    endLine: 0,
    // Stored parts are clean; what they are joined into is redacted again, as any new text.
    text: cleanText(capped(eventText({ type: r.type, text: r.text, files }))),
    tags: clean(Array.isArray(metadata.tags) ? metadata.tags.filter((t): t is string => typeof t === "string") : []), // an explicit memory's tags
    date: r.time || null,
    // Stored fields side by side (none joined to another): clean as they are.
    metadata: mergeClean(fromClean<{ source: string; eventId: string; session: string | null; files: string[] }>({ source: CAPTURE, eventId: r.id, session: r.session, files }), metadata),
  });
}

/**
 * Turns the captured events of a project that are not chunks yet into chunks, one source per
 * session (`session:<id>`), one chunk per event, appended in time order. Only the new events are
 * read and written, so a capture or a put costs the same in a session of ten events or of a
 * hundred thousand. Returns the number of events chunked.
 */
export function chunkCapturedEvents(db: Db, store: ChunkStore, project: Clean<string>, now: number): number {
  const events = new EventStore(db);
  let n = 0;
  for (const session of events.sessionsToChunk(project)) {
    db.transaction(() => {
      const rows = events.unchunkedOf(project, session);
      const source = clean({ project, path: `session:${session || "unknown"}`, kind: "events", tier: "warm", mtimeMs: 0, metadata: { session } });
      // A notification is kept as an event only: "waiting for your input" is nothing to recall.
      const chunked = rows.filter((r) => r.type !== "notification");
      if (chunked.length > 0) store.appendToSource(source, chunked.map((r) => eventChunk(project, r)), (previous) => sha(previous, ...chunked.map((r) => r.id)), now);
      n += events.markChunked(project, session);
    }).immediate();
  }
  return n;
}
