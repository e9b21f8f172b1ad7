import { anchorCaptured } from "../anchor/anchor.js";
import { clean } from "../redact/clean.cjs";
import { confirmByCapture } from "./confirm.js";
import type { Db } from "../store/db.js";
import { TaskStore } from "../store/tasks.js";
import type { Captured } from "./captured.js";
import { convergeCaptured } from "./converge-step.js";
import { mergeSame } from "./merge-same.js";
import { reinforceEditedAfterShown } from "./used.js";

/**
 * What a capture does beyond storing its events, inside the same transaction: the project's task
 * list follows the session's task changes; events that name files are anchored to those files
 * as they are now; an explicit memory and the captures it describes converge; a statement made
 * again merges into the memory already stored. Each concern lives
 * in its own module; this only calls them in order.
 */
export function afterCapture(db: Db, c: Captured): void {
  new TaskStore(db).sync(c); // the project's task registry (src/store/tasks.ts)
  anchorCaptured(db, c); // before convergence, which re-anchors what converged
  reinforceEditedAfterShown(db, c); // a memory shown to the session whose file it now edits was used
  convergeCaptured(db, c, c.convergeWindowMs);
  // A statement made again is the memory already stored (src/capture/merge-same.ts); what merged
  // is confirmed there, so confirmation looks only at the rest.
  const merged = c.mergeLater ? new Set<string>() : mergeSame(db, c);
  confirmByCapture(db, merged.size === 0 ? c : { ...c, events: clean(c.events.filter((e) => !merged.has(e.id))) });
}
