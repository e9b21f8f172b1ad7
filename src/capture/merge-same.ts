/**
 * A statement remembered or captured again is the memory already stored (src/memory/same-memory.ts):
 * run after each capture and each put, inside its transaction. Each fresh decision, rejected
 * approach, lesson, preference or note is looked up among the project's live memories of its kind
 * (through the text index, the project's new events chunked first); when its key matches, the rows become
 * one: the oldest stays (so an id once shown keeps working), the others are merged into it
 * (src/store/merge.ts), and it is reinforced and re-anchored as a confirmation is. Either order
 * converges: `mem remember` of what a session captured, or a capture of what was remembered.
 * Never across projects: the lookup is the capture's project only.
 */
import { chunkCapturedEvents, eventChunkId } from "../../indexer/captured.js";
import { ChunkStore } from "../store/chunks.js";
import { reanchorEvents } from "../anchor/anchor.js";
import { mergeRecord, type Statement } from "../memory/merged.js";
import { MERGE_KINDS, memoryKey, sameMemory } from "../memory/same-memory.js";
import { clean, type Clean } from "../redact/clean.cjs";
import { chunksWithAll } from "../retrieve/twins.js";
import type { Db } from "../store/db.js";
import { memoryById, memoryIdsOfChunks } from "../store/memories.js";
import { absorbRows, liveOfKind, storedOrder } from "../store/merge.js";
import { reinforce } from "../store/salience.js";
import type { Captured } from "./captured.js";

/** Words a contraction is spelt out into: not in the stored text as such, so never looked up. */
const SPELT = new Set(["not", "will", "are", "have", "would", "can", "shall"]);

/**
 * The words of a key to look candidates up by (a match holds every one), the most telling first:
 * those with a digit (a number, a version), then the longest. Words a contraction was spelt out
 * into are left out, and words under three letters unless they hold a digit.
 */
export function probeWords(key: string): string[] {
  const words = [...new Set(key.split(/[^\p{L}\p{N}]+/u).filter((w) => (w.length >= 3 || /\p{N}/u.test(w)) && !SPELT.has(w)))];
  const digit = (w: string) => (/\p{N}/u.test(w) ? 0 : 1);
  return words.sort((a, b) => digit(a) - digit(b) || b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
}

/** At most this many candidates of the text index are compared with each fresh statement. */
const CANDIDATES = 1_000;

interface Row extends Statement {
  id: Clean<string>;
  type: string;
  project: string;
}

function live(db: Db, id: string): Row | undefined {
  const r = memoryById(db, id);
  if (!r || r.deleted_at) return undefined;
  return { id: r.id, project: r.project, type: r.type, session: r.session, time: r.time, text: r.text, files: JSON.parse(r.files) as string[], metadata: JSON.parse(r.metadata) as Record<string, unknown> };
}

/** Merges what this capture stated again; returns the ids merged away (fresh or stored). */
export function mergeSame(db: Db, c: Captured): Set<string> {
  const gone = new Set<string>();
  let unindexed = true;
  for (const e of c.events) {
    if (!MERGE_KINDS.has(e.type) || gone.has(e.id)) continue;
    const fresh = live(db, e.id);
    if (!fresh || fresh.project !== c.project) continue;
    const key = memoryKey(fresh.text);
    if (key === undefined) continue;
    // Every live event of the project in the text index first (what this capture stored, a memory
    // merged into just now): chunked here instead of right after, as it would be.
    if (unindexed) chunkCapturedEvents(db, new ChunkStore(db), c.project, c.now);
    unindexed = false;
    const ids = new Set(memoryIdsOfChunks(db, chunksWithAll(db, probeWords(key), c.project, fresh.type, CANDIDATES)).values());
    ids.delete(fresh.id);
    const same = [...ids].flatMap((id) => live(db, id) ?? []).filter((r) => r.project === c.project && r.type === fresh.type && sameMemory({ kind: r.type, text: r.text }, { kind: fresh.type, text: fresh.text }));
    if (same.length === 0) continue;
    // The oldest stays; on a tie, the one stored first.
    const group = [...same, fresh].sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : storedOrder(db, a.id) - storedOrder(db, b.id)));
    const [keep, ...rest] = group as [Row, ...Row[]];
    absorbRows(db, keep.id, rest.map((r) => r.id), clean(mergeRecord(keep, rest)), c.now);
    for (const r of rest) gone.add(r.id);
    unindexed = true;
    reinforce(db, [{ id: eventChunkId(c.project, keep.id), kind: keep.type, source: "captured" as const, createdAt: Date.parse(keep.time) }], c.now);
    reanchorEvents(db, [keep.id], c.now);
  }
  return gone;
}

/**
 * The same statements a store already holds twice (put before this rule, or remembered and
 * captured apart): merged once, by the same rule, each group into its oldest row. Idempotent (a
 * second run finds nothing). Returns how many rows were merged away. Run by `mem reindex`, after
 * its snapshot of the store.
 */
export function mergeStoredTwice(db: Db, projects: readonly string[], now: number): number {
  let merged = 0;
  for (const project of projects) {
    for (const kind of MERGE_KINDS) {
      const groups = new Map<string, Row[]>();
      for (const id of liveOfKind(db, project, kind)) {
        const r = live(db, id);
        const key = r ? memoryKey(r.text) : undefined;
        if (r && key !== undefined) groups.set(key, [...(groups.get(key) ?? []), r]);
      }
      for (const [keep, ...rest] of groups.values()) {
        if (!keep || rest.length === 0) continue;
        absorbRows(db, keep.id, rest.map((r) => r.id), clean(mergeRecord(keep, rest)), now);
        merged += rest.length;
      }
    }
  }
  return merged;
}
