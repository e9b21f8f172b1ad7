/**
 * What goes into the model's context for a prompt: the evidence of the results that clear the
 * relevance floor (./floor.ts), chosen line by line within a character budget (./select.ts),
 * as compact markdown items with provenance (./items.ts) inside the recall frame. Pure.
 */
import { RECALL, frameOverhead, framed } from "../render/frame.js";
import { passesFloor } from "./floor.js";
import { DEFAULT_SELECT, selectEvidence } from "./select.js";
import { contentStems } from "./terms.js";
import type { Candidate, Describe, InjectOptions } from "./types.js";

export { DEFAULT_INJECT, type Candidate, type Describe, type InjectOptions } from "./types.js";
export { passesFloor, stem, termCoverage } from "./floor.js";
export { SHORT_ID_CHARS, shortId } from "./items.js";

/**
 * Formats the memories for a prompt whose search terms are `queryTerms` inside the recall frame;
 * undefined when nothing passes the floor or fits. Every field is redacted and rendered on one
 * line with markup defused, so a stored path, heading or body can neither add a line that looks
 * like another memory nor close the frame.
 */
export function formatInjection(cands: readonly Candidate[], queryTerms: readonly string[], o: InjectOptions, redact: (s: string) => string, d: Describe = {}): { text: string; ids: string[] } | undefined {
  const stems = contentStems(queryTerms);
  const kept = cands.filter((c) => passesFloor(c, stems, o));
  if (kept.length === 0) return undefined;
  const items = selectEvidence(kept, stems, { ...DEFAULT_SELECT, roomChars: o.budgetChars - frameOverhead(RECALL), maxItems: o.maxItems }, { redact, describe: d });
  // Redaction of the rendered items may have changed their length: the budget holds all the same.
  let used = frameOverhead(RECALL);
  const fit = items.filter((item) => (used += item.line.length + 1) <= o.budgetChars);
  if (fit.length === 0) return undefined;
  return { text: framed(RECALL, fit.map((i) => i.line)), ids: [...new Set(fit.flatMap((i) => i.ids))] };
}
