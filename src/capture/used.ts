import { isAbsolute, resolve } from "node:path";
import { anchorsOf, eventsOfChunks } from "../store/anchors.js";
import type { Db } from "../store/db.js";
import { prepared } from "../store/statements.js";
import { reinforceChunks, usesOf } from "../store/salience.js";
import type { Captured } from "./captured.js";

/**
 * Reinforcement from real use: a memory put before this session (the prompt's memories, the
 * briefing) whose anchored file the session then edits was used, and is reinforced (salience
 * × reinforce, clock restarted), once per time it was shown: not again for the next edit of the
 * same file unless it is shown again. Being shown alone never reinforces (src/inject/for-prompt.ts),
 * so a query or an injection never reorders tomorrow's results; an edit after one is use.
 */
const EDIT_TYPES = new Set(["file_modified"]);

/** The absolute paths a capture's edits touched (relative ones against the project's folder). */
function editedFiles(c: Captured): Set<string> {
  const root = isAbsolute(c.project) ? c.project : undefined;
  const out = new Set<string>();
  for (const e of c.events) {
    if (!EDIT_TYPES.has(e.type)) continue;
    for (const f of e.files) {
      if (isAbsolute(f)) out.add(resolve(f));
      else if (root) out.add(resolve(root, f));
    }
  }
  return out;
}

/** Returns the chunk ids reinforced. */
export function reinforceEditedAfterShown(db: Db, c: Captured): string[] {
  if (c.session === "") return [];
  const edited = editedFiles(c);
  if (edited.size === 0) return [];
  const shown = prepared(db, "SELECT chunk_id AS id, at FROM injections WHERE session = ? AND at <= ?").all(c.session, c.now) as { id: string; at: number }[];
  if (shown.length === 0) return [];
  const at = new Map(shown.map((s) => [s.id, s.at]));
  const events = eventsOfChunks(db, [...at.keys()]);
  const anchors = anchorsOf(db, [...events.values()].filter((e) => e.project === c.project).map((e) => e.event));
  const uses = usesOf(db, [...events.keys()]);
  const used: string[] = [];
  for (const [chunk, e] of events) {
    if (e.project !== c.project || !(anchors.get(e.event) ?? []).some((a) => edited.has(a.path))) continue;
    // Once for each showing: a use recorded since it was shown is this one already.
    if ((uses.get(chunk)?.lastUsedAt ?? Number.NEGATIVE_INFINITY) >= at.get(chunk)!) continue;
    used.push(chunk);
  }
  if (used.length > 0) reinforceChunks(db, used, c.now);
  return used;
}
