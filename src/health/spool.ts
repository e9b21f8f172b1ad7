/**
 * Captures waiting in the spool (the data home's, or its fallback under the temp directory when
 * the data home could not be written): `mem doctor` says how many and where, so a store that
 * cannot be written is never a silent one.
 */
import { spooled } from "../maintenance/spool.js";
import type { Check } from "./check.js";

/** The spool's check, or undefined when nothing waits. */
export function spoolCheck(home: string): Check | undefined {
  const waiting = spooled(home);
  if (waiting.length === 0) return undefined;
  const n = waiting.reduce((s, w) => s + w.captures, 0);
  return {
    name: "spool",
    status: "warn",
    detail: `${n} capture(s) wait in the spool (${waiting.map((w) => `${w.path}: ${w.captures}`).join("; ")}): the store could not be written when they were made`,
    fix: "the next capture that can write the store writes them (or `mem doctor --repair`); if they stay, the checks above say why the store cannot be written",
  };
}
