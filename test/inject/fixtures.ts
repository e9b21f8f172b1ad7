/** Candidates for the selection's tests (select.test.ts, why-trace.test.ts): a stored note, changed as a test needs. */
import type { Candidate } from "../../src/inject/types.js";

let next = 0;

/** A candidate with a fresh id (its first 8 hex digits count up; `fill` makes the rest). */
export const candidate = (fill: string, over: Partial<Candidate>): Candidate => ({
  id: `${(next++).toString(16).padStart(8, "0")}${fill.repeat(24)}`,
  text: "We chose SQLite over Postgres because mem runs on a laptop.",
  path: "/p/memory/storage.md",
  startLine: 1,
  endLine: 1,
  headingPath: ["Storage"],
  kind: "note",
  date: null,
  project: "/p",
  legs: { bm25: { rank: 1, score: 5 } },
  ...over,
});

/** A line about nothing a test prompt asks. */
export const FILLER = (i: number) => `- On day ${i} the weather was mild and the team talked about lunch, trains and the garden.`;
