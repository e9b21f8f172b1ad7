/**
 * Captures waiting in the spool (the data home's, or its fallback under the temp directory when
 * the data home could not be written): `mem doctor` says how many and where, so a store that
 * cannot be written is never a silent one. A spool place another account made or can write (the
 * fallback's directory is at a name anyone can guess) is named too: it is never read as ours.
 */
import { spooled, type Spooled } from "../maintenance/spool.js";
import type { Check } from "./check.js";

/** The spool's check for captures waiting, or undefined when none waits. */
export function spoolCheck(home: string, found: Spooled[] = spooled(home)): Check | undefined {
  const waiting = found.flatMap((w) => ("captures" in w ? [w] : []));
  if (waiting.length === 0) return undefined;
  const n = waiting.reduce((s, w) => s + w.captures, 0);
  return {
    name: "spool",
    status: "warn",
    detail: `${n} capture(s) wait in the spool (${waiting.map((w) => `${w.path}: ${w.captures}`).join("; ")}): the store could not be written when they were made`,
    fix: "the next capture that can write the store writes them (or `mem doctor --repair`); if they stay, the checks above say why the store cannot be written",
  };
}

/** The spool's checks: captures waiting, then each spool place refused; empty when none waits and nothing is refused. */
export function spoolChecks(home: string): Check[] {
  const found = spooled(home);
  const checks: Check[] = [];
  const waiting = spoolCheck(home, found);
  if (waiting) checks.push(waiting);
  for (const r of found.flatMap((w) => ("refused" in w ? [w] : []))) {
    checks.push({
      name: "spool",
      status: "warn",
      detail: `refused: ${r.refused} (it is not your spool: another account may have planted it)`,
      fix: `look at it, then remove it (\`rm -r ${r.path}\`, as its owner or root); until then, a capture the data home cannot take is not kept`,
    });
  }
  return checks;
}
