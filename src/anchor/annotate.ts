/**
 * What `mem query` (and any other reader of search results) says about each result beside its
 * text: whether the memory is possibly outdated or from another branch (src/anchor/staleness.ts)
 * and whether it converged with another memory (src/capture/converge.ts). Results that are not
 * captured events (markdown notes) get neither.
 */
import { CONVERGENT } from "../capture/converge-step.js";
import { eventsOfChunks } from "../store/anchors.js";
import type { Db } from "../store/db.js";
import { linkedAmong } from "../store/links.js";
import { staleFlags, type StaleFlag, type StaleOptions } from "./staleness.js";

export interface Annotation {
  stale?: StaleFlag;
  convergent?: true;
}

/** Annotations by chunk id, for the results that have any. */
export function annotateResults(db: Db, results: readonly { id: string; project: string }[], projectRoot: (project: string) => string | undefined, now: number, opts: StaleOptions = {}): Map<string, Annotation> {
  const out = new Map<string, Annotation>();
  const events = eventsOfChunks(db, results.map((r) => r.id));
  if (events.size === 0) return out;
  const byProject = new Map<string, string[]>();
  for (const { event, project } of events.values()) byProject.set(project, [...(byProject.get(project) ?? []), event]);
  const flags = new Map<string, StaleFlag>();
  for (const [project, ids] of byProject) for (const [id, f] of staleFlags(db, ids, projectRoot(project), now, opts)) flags.set(id, f);
  const linked = linkedAmong(db, [...events.values()].map((e) => e.event), CONVERGENT);
  for (const [chunk, { event }] of events) {
    const a: Annotation = {};
    const f = flags.get(event);
    if (f) a.stale = f;
    if (linked.has(event)) a.convergent = true;
    if (a.stale || a.convergent) out.set(chunk, a);
  }
  return out;
}

/**
 * The chunks among `chunkIds` about files that changed or went away since (the ranking penalty),
 * each with its phrase. On the prompt's path pass `{ hash: false }`: files the cache does not know
 * yet are judged after the answer (`processCache.warm()`), not now.
 */
export function staleChunks(db: Db, chunkIds: readonly string[], projectRoot: (project: string) => string | undefined, now: number, opts: StaleOptions = {}): Map<string, StaleFlag> {
  const out = new Map<string, StaleFlag>();
  for (const [chunk, a] of annotateResults(db, chunkIds.map((id) => ({ id, project: "" })), projectRoot, now, opts)) if (a.stale) out.set(chunk, a.stale);
  return out;
}
