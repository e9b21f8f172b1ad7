import type { Db } from "../store/db.js";
import { idOf } from "./convert.js";
import { compactText, forgetProjectRecords, forgetSessionRecord, liveIds, purgeTombstones, tombstone } from "../store/memories.js";
import { VecState } from "../store/vec-state.js";
import { forgetPromptRuns } from "../store/prompt-log.js";
import type { VectorStore } from "../store/vectors.js";
import type { MemoryService } from "./memory.js";
import { MemoryError } from "../util/memory-error.js";

/**
 * Forgetting. A forgotten memory is a tombstone at once: gone from the chunks (so from search, the
 * prompt's memories and the briefing) and from every list and export from the moment the call
 * returns; its text is purged from SQLite, FTS5 and the LanceDB tables by `purge` (the weekly
 * reindex job, or `mem forget --purge`).
 */
/** Forgets one memory by any id it is known by; returns its one id (src/store/one-id.ts). */
export function forgetMemory(db: Db, service: MemoryService, id: string, now: number): { id: string } {
  const m = service.get(id, { liveFirst: false, writing: true }); // a prefix that forgotten memories share too is ambiguous here
  if (m.source === "markdown") throw new MemoryError("markdown", `memory ${idOf(m)} comes from ${m.path}:${m.startLine}-${m.endLine}: delete it from the file, then \`mem index\``);
  tombstone(db, [m.id], now);
  return { id: idOf(m) };
}

export function forgetSession(db: Db, project: string, session: string, now: number): number {
  const n = tombstone(db, liveIds(db, { project, session }), now);
  forgetSessionRecord(db, project, session);
  forgetPromptRuns(db, { project, session });
  return n;
}

export function forgetProject(db: Db, project: string, now: number): { memories: number; sources: number; tasks: number; sessions: number } {
  const memories = tombstone(db, liveIds(db, { project }), now);
  forgetPromptRuns(db, { project });
  return { memories, ...forgetProjectRecords(db, project) };
}

/** What a purge of the store did, with the time each step took (ms). */
export interface PurgeReport {
  memories: number;
  vectors: number;
  /** Rows of LanceDB written again so that the fragments that held a deleted row could go. */
  rewritten: number;
  /** "truncated": the WAL is 0 bytes; "busy": another process was reading, so it is truncated at a later checkpoint. */
  wal: "truncated" | "busy";
  ms: { store: number; vectors: number; wal: number };
}

/**
 * Purges forgotten memories: their text out of SQLite (overwritten, not only unlinked), the text
 * index compacted, the WAL truncated; vectors of chunks that no longer exist deleted from every
 * LanceDB table, the fragments that held them written anew, and old versions and files removed.
 */
export async function purge(db: Db, vectors: () => Promise<VectorStore>): Promise<PurgeReport> {
  let t = performance.now();
  const lap = () => {
    const ms = Math.round(performance.now() - t);
    t = performance.now();
    return ms;
  };
  const memories = purgeTombstones(db);
  const storeMs = lap();
  const { tables, removed, rewritten } = await dropGoneVectors(db, vectors);
  if (tables.length > 0) {
    const store = await vectors();
    for (const t of tables) await store.optimize(t, new Date());
  }
  const vectorMs = lap();
  const busy = compactText(db);
  return { memories, vectors: removed, rewritten, wal: busy ? "busy" : "truncated", ms: { store: storeMs, vectors: vectorMs, wal: lap() } };
}

/**
 * Deletes from every LanceDB table the vectors of chunks that no longer exist (forgotten, or gone
 * with their file), rewriting the fragments that held them (VectorStore.purgeRows). Returns the
 * tables present on disk and how many rows went; old versions, which still hold the rows, are left
 * to the caller's `optimize`.
 */
export async function dropGoneVectors(db: Db, vectors: () => Promise<VectorStore>): Promise<{ tables: string[]; removed: number; rewritten: number }> {
  const state = new VecState(db);
  const tables = state.tables();
  if (tables.length === 0) return { tables: [], removed: 0, rewritten: 0 };
  const store = await vectors();
  const live = new Set(db.prepare("SELECT id FROM chunks").pluck().all() as string[]);
  const present: string[] = [];
  let removed = 0;
  let rewritten = 0;
  for (const t of tables) {
    if (!(await store.has(t.name))) continue;
    present.push(t.name);
    const gone = (await store.ids(t.name)).filter((id) => !live.has(id));
    if (gone.length > 0) rewritten += await store.purgeRows(t.name, gone);
    state.unmark(t.name, gone);
    removed += gone.length;
  }
  return { tables: present, removed, rewritten };
}
