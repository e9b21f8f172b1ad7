import type { Clean } from "../redact/clean.cjs";
import type { TaskChange } from "../tasks/state.js";
import type { CapturedEvent } from "../store/event-types.js";

/**
 * One capture as the steps after it see it (capture/after.ts calls them in order: tasks, anchors,
 * convergence, confirmation). Its own file so those steps never import the module that calls them.
 */
export interface Captured {
  project: Clean<string>;
  session: Clean<string>;
  now: number;
  /** Every event of this capture (new or seen before). */
  events: Clean<CapturedEvent[]>;
  taskChanges: Clean<TaskChange[]>;
  /** A bulk import merges the same statements once all its lines are in (src/service/import.ts), not one by one. */
  mergeLater?: true;
  /** `memory.convergeWindowMs` (default 10 minutes). */
  convergeWindowMs?: number;
}
