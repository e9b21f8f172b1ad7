import { prose } from "../../render/line.js";
import { ago } from "../render.js";
import type { Section } from "./section.js";

/**
 * The one line the briefing carries while the last `mem reindex` (the weekly maintenance job)
 * failed: when, and why (a missing root, a skipped vector step, a step that threw), rendered like
 * every stored value (one line, markup defused). It stays until a run succeeds. Pure.
 */
export interface MaintenanceFailure {
  /** When the failed run finished (ms). */
  at: number;
  problems: string[];
}

export const MAINTENANCE_TITLE = "Maintenance";

export function maintenanceSection(f: MaintenanceFailure | undefined, now: number): Section | undefined {
  if (!f) return undefined;
  const why = f.problems.length > 0 ? f.problems.join("; ") : "no reason recorded";
  const when = ago(f.at, now);
  return { title: MAINTENANCE_TITLE, items: [`- the last \`mem reindex\`${when ? ` (${when})` : ""} failed: ${prose(why, 400)}. Run \`mem reindex\` to see it and try again.`] };
}
