/**
 * The store side of convergence, run after each capture inside its transaction: the capture's
 * explicit memories and file edits are matched (src/capture/converge.ts) against each other and
 * against the same session's events kept from within the window; each new pair is linked
 * ('convergent'), and both memories are reinforced (salience × 1.2, clock restarted) and
 * re-anchored to their files as they are now. A pair seen again (a transcript read twice) is
 * neither linked nor reinforced again.
 */
import { isAbsolute } from "node:path";
import { eventChunkId } from "../../indexer/captured.js";
import { reanchorEvents } from "../anchor/anchor.js";
import type { AnchorCache } from "../anchor/cache.js";
import { clean } from "../redact/clean.cjs";
import type { Db } from "../store/db.js";
import { addLinks, CONVERGENT } from "../store/links.js";
import { sessionEventsBetween } from "../store/links.js";
import { reinforce } from "../store/salience.js";
import type { Captured } from "./captured.js";
import { convergentPairs, DEFAULT_CONVERGE_WINDOW_MS, eventTime, isExplicit, type Convergence } from "./converge.js";
import type { CapturedEvent } from "../store/event-types.js";

export { CONVERGENT };
const EXPLICIT_TYPES = ["decision", "rejected", "learned", "preference", "task"];

/** Links, reinforces and re-anchors what converged in this capture. Returns the new convergences. */
export function convergeCaptured(db: Db, c: Captured, windowMs = DEFAULT_CONVERGE_WINDOW_MS, cache?: AnchorCache): Convergence[] {
  const fresh = c.events.filter((e) => isExplicit(e) || e.type === "file_modified");
  if (fresh.length === 0 || c.session === "") return [];
  const times = fresh.map((e) => eventTime(e, c.now));
  const from = new Date(Math.min(...times) - windowMs).toISOString();
  const to = new Date(Math.max(...times) + windowMs).toISOString();
  const types = [...(fresh.some(isExplicit) ? ["file_modified"] : []), ...(fresh.some((e) => !isExplicit(e)) ? EXPLICIT_TYPES : [])];
  const stored = sessionEventsBetween(db, c.project, c.session, from, to, types);
  const pairs = convergentPairs(fresh, stored, { windowMs, now: c.now, ...(isAbsolute(c.project) ? { root: c.project } : {}) });
  if (pairs.length === 0) return [];
  const added = addLinks(db, clean(pairs.map((p) => ({ a: p.explicit, b: p.capture, kind: CONVERGENT }))), c.now);
  if (added.length === 0) return [];
  const byId = new Map<string, CapturedEvent>([...stored, ...fresh].map((e) => [e.id, e]));
  const ids = [...new Set(added.flatMap((l) => [l.a, l.b]))];
  reinforce(
    db,
    ids.flatMap((id) => {
      const e = byId.get(id);
      return e ? [{ id: eventChunkId(c.project, id), kind: e.type, source: "captured" as const, createdAt: eventTime(e, c.now) }] : [];
    }),
    c.now,
  );
  reanchorEvents(db, ids, c.now, cache);
  const isNew = new Set(added.map((l) => `${l.a}\0${l.b}`));
  return pairs.filter((p) => isNew.has(`${p.explicit}\0${p.capture}`));
}
