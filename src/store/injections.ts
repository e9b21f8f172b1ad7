import type { Clean } from "../redact/clean.cjs";
import type { Db } from "./db.js";
import { prepared } from "./statements.js";

/** Chunks already put before a prompt of a session, so later prompts of it do not repeat them. */
export function injectedIn(db: Db, session: string): Set<string> {
  return new Set(prepared(db, "SELECT chunk_id FROM injections WHERE session = ?").pluck().all(session) as string[]);
}

/**
 * Marks chunks as injected into a session. Only ids of stored chunks are recorded, and the id
 * written is the one read from the chunks table, so no text but the (clean) session comes in.
 */
export function recordInjected(db: Db, session: Clean<string>, ids: readonly string[], now: number): void {
  const ins = prepared(db, "INSERT OR IGNORE INTO injections (session, chunk_id, at) SELECT ?, id, ? FROM chunks WHERE id = ?");
  db.transaction(() => {
    for (const id of ids) ins.run(session, now, id);
  }).immediate();
}

/**
 * The session's context was compacted or cleared: what it was shown before is no longer in front
 * of the model, so any of it may be injected again. Returns how many injections were let go.
 */
export function contextReset(db: Db, session: Clean<string>): number {
  return prepared(db, "DELETE FROM injections WHERE session = ?").run(session).changes;
}
