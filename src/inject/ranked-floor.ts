/**
 * The relevance floor read in the ranking's order. Pure.
 *
 * The floor answers two questions at once: whether the prompt is about anything stored, and which
 * results are. Once one result passed (./floor.ts, ./record-floor.ts), the first is answered; the
 * second is the ranking's. A result the search ranked above the first one that passed, and that
 * holds at least two of the prompt's words itself (one word alone cannot tell its sense, as the
 * floor says), passes too: the search put it first on the same words, and leaving it out for a
 * lower one injected the wrong record (a decision record whose question was asked in other words
 * than its own, while a sibling that shares the prompt's common words passed by them).
 *
 * It never makes a prompt that got nothing get something: a prompt about nothing stored, whose
 * results all fail, still gets nothing.
 */
import type { FloorVerdict } from "./floor.js";
import { MIN_OWN_WORDS } from "./record-floor.js";

/** The verdicts, with the results ranked above the first that passed and holding two of the prompt's words passed (`by: "ranked"`). */
export function rankedFloor(verdicts: readonly FloorVerdict[]): FloorVerdict[] {
  const first = verdicts.findIndex((v) => v.pass);
  if (first <= 0) return [...verdicts];
  return verdicts.map((v, i) => {
    if (i >= first || v.pass || v.matched.length < MIN_OWN_WORDS) return v;
    return { ...v, pass: true, by: "ranked", reason: `${v.reason}; ranked above result ${first + 1}, which passed: the prompt is about what is stored, and the search put this first on ${v.matched.length} of its words` };
  });
}
