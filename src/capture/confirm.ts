import { eventChunkId } from "../../indexer/captured.js";
import { reanchorEvents } from "../anchor/anchor.js";
import { twinCandidates } from "../retrieve/twins.js";
import { DEFAULT_SALIENCE, type SalienceConfig } from "../memory/salience.js";
import type { Db } from "../store/db.js";
import { EventStore } from "../store/events.js";
import { memoryIdsOfChunks } from "../store/memories.js";
import { reinforce } from "../store/salience.js";
import type { Captured } from "./captured.js";
import { CONFIRM_THRESHOLD, contentWords, jaccard } from "./extract/same.js";
import { MIN_DECISION_CONFIDENCE } from "../store/event-types.js";

/**
 * A decision, rejected approach, learned fact or preference captured again (the same statement,
 * Jaccard of content words ≥ 0.7, from another moment or session) confirms the one already stored:
 * that one is reinforced (its salience × 1.2, its clock restarted) and re-anchored to its files as
 * they are now (src/anchor/anchor.ts). The briefing shows the two as one (src/brief/sections/decisions.ts).
 */
const KINDS = new Set(["decision", "rejected", "learned", "preference"]);

/** A statement's distinct words, one per content word (what the text index is asked for). */
export function statementWords(text: string): string[] {
  const byWord = new Map<string, string>();
  for (const raw of text.match(/[\p{L}\p{N}_]{3,}/gu) ?? []) {
    const w = [...contentWords(raw)][0];
    if (w !== undefined && !byWord.has(w)) byWord.set(w, raw.toLowerCase());
  }
  return [...byWord.values()];
}

/** At most this many stored statements of the same kind are compared with each new one. */
export const CONFIRM_CANDIDATES = 1_000;

export function confirmByCapture(db: Db, c: Captured, cfg: SalienceConfig = DEFAULT_SALIENCE): number {
  const fresh = c.events.filter((e) => KINDS.has(e.type) && (e.confidence ?? 1) >= MIN_DECISION_CONFIDENCE);
  if (fresh.length === 0) return 0;
  const ids = new Set(c.events.map((e) => e.id));
  const events = new EventStore(db);
  const confirmed = new Map<string, { id: string; type: string; time: string }>();
  for (const e of fresh) {
    // The candidates come from the text index, so the cost does not grow with the decisions stored.
    const hits = twinCandidates(db, statementWords(e.text), CONFIRM_THRESHOLD, c.project, e.type, CONFIRM_CANDIDATES);
    const stored = events.liveByIds([...memoryIdsOfChunks(db, hits).values()]).filter((d) => !ids.has(d.id) && d.type === e.type);
    const w = contentWords(e.text);
    for (const d of stored) if (jaccard(w, contentWords(d.text)) >= CONFIRM_THRESHOLD) confirmed.set(d.id, d);
  }
  reinforce(db, [...confirmed.values()].map((d) => ({ id: eventChunkId(c.project, d.id), kind: d.type, source: "captured" as const, createdAt: Date.parse(d.time) })), c.now, cfg);
  // Confirmed now: true of the files as they are now, so no longer "possibly outdated".
  if (confirmed.size > 0) reanchorEvents(db, [...confirmed.keys()], c.now);
  return confirmed.size;
}
