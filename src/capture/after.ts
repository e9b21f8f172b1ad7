import type { Clean } from "../redact/clean.cjs";
import type { Db } from "../store/db.js";
import { TaskStore } from "../store/tasks.js";
import type { TaskChange } from "./extract/tasks.js";
import type { CapturedEvent } from "./types.js";

/**
 * What a capture does beyond storing its events, inside the same transaction: the project's task
 * list follows the session's task changes; events that name files are anchored to those files
 * as they are now; an explicit memory and the captures it describes converge. Each concern lives
 * in its own module; this only calls them in order.
 */
export interface Captured {
  project: Clean<string>;
  session: Clean<string>;
  now: number;
  /** Every event of this capture (new or seen before). */
  events: Clean<CapturedEvent[]>;
  taskChanges: Clean<TaskChange[]>;
}

export function afterCapture(db: Db, c: Captured): void {
  new TaskStore(db).sync(c); // the project's task registry (src/store/tasks.ts)
  // The steps are added by the modules that own them (tasks, anchors, convergence).
}
