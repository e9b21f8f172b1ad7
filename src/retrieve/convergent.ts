/**
 * An explicit memory and the edit it describes (linked 'convergent', src/capture/converge.ts) are
 * one piece of knowledge seen twice: when both are among a search's results, they are shown as
 * one, the explicit memory, with the edit among the results it stands for (`duplicates`), as a
 * near-duplicate is. Alone, the edit is shown (flagged convergent by the reader).
 */
import { eventsOfChunks } from "../store/anchors.js";
import type { Db } from "../store/db.js";
import { CONVERGENT } from "../store/links.js";
import { prepared } from "../store/statements.js";

/** `groups` (in rank order) with each capture whose explicit memory is among them folded into it. */
export function foldConvergent<G extends { item: { id: string }; duplicates: string[] }>(db: Db, groups: G[]): G[] {
  if (groups.length < 2) return groups;
  const events = eventsOfChunks(db, groups.map((g) => g.item.id));
  if (events.size < 2) return groups;
  const byEvent = new Map<string, G>();
  for (const g of groups) {
    const e = events.get(g.item.id);
    if (e) byEvent.set(`${e.project}\0${e.event}`, g);
  }
  // Links run from the explicit memory (a) to the capture (b).
  const explicitOf = prepared(db, "SELECT a FROM links WHERE b = ? AND kind = ?").pluck();
  const folded = new Set<G>();
  for (const g of groups) {
    const e = events.get(g.item.id);
    if (!e) continue;
    for (const a of explicitOf.all(e.event, CONVERGENT) as string[]) {
      const into = byEvent.get(`${e.project}\0${a}`);
      if (!into || into === g || folded.has(into)) continue;
      into.duplicates.push(g.item.id, ...g.duplicates);
      folded.add(g);
      break;
    }
  }
  return folded.size === 0 ? groups : groups.filter((g) => !folded.has(g));
}
