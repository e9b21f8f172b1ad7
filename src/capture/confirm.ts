import { eventChunkId } from "../../indexer/captured.js";
import { reanchorEvents } from "../anchor/anchor.js";
import { DEFAULT_SALIENCE, type SalienceConfig } from "../memory/salience.js";
import type { Db } from "../store/db.js";
import { EventStore } from "../store/events.js";
import { reinforce } from "../store/salience.js";
import type { Captured } from "./after.js";
import { CONFIRM_THRESHOLD, contentWords, jaccard } from "./extract/same.js";
import { MIN_DECISION_CONFIDENCE } from "./types.js";

/**
 * A decision, rejected approach, learned fact or preference captured again (the same statement,
 * Jaccard of content words ≥ 0.7, from another moment or session) confirms the one already stored:
 * that one is reinforced (its salience × 1.2, its clock restarted) and re-anchored to its files as
 * they are now (src/anchor/anchor.ts). The briefing shows the two as one (src/brief/sections/decisions.ts).
 */
const KINDS = new Set(["decision", "rejected", "learned", "preference"]);

export function confirmByCapture(db: Db, c: Captured, cfg: SalienceConfig = DEFAULT_SALIENCE): number {
  const fresh = c.events.filter((e) => KINDS.has(e.type) && (e.confidence ?? 1) >= MIN_DECISION_CONFIDENCE);
  if (fresh.length === 0) return 0;
  const ids = new Set(c.events.map((e) => e.id));
  const stored = new EventStore(db).decisionsOf(c.project, { decision: 0, rejected: 0, learned: 0, preference: 0 }).filter((d) => !ids.has(d.id));
  const words = new Map(stored.map((d) => [d.id, contentWords(d.text)]));
  const confirmed = new Map<string, (typeof stored)[number]>();
  for (const e of fresh) {
    const w = contentWords(e.text);
    for (const d of stored) if (d.type === e.type && jaccard(w, words.get(d.id)!) >= CONFIRM_THRESHOLD) confirmed.set(d.id, d);
  }
  reinforce(db, [...confirmed.values()].map((d) => ({ id: eventChunkId(c.project, d.id), kind: d.type, source: "captured" as const, createdAt: Date.parse(d.time) })), c.now, cfg);
  // Confirmed now: true of the files as they are now, so no longer "possibly outdated".
  if (confirmed.size > 0) reanchorEvents(db, [...confirmed.keys()], c.now);
  return confirmed.size;
}
