import { anchorCaptured } from "../anchor/anchor.js";
import { confirmByCapture } from "./confirm.js";
import type { Db } from "../store/db.js";
import { TaskStore } from "../store/tasks.js";
import type { Captured } from "./captured.js";
import { convergeCaptured } from "./converge-step.js";

/**
 * What a capture does beyond storing its events, inside the same transaction: the project's task
 * list follows the session's task changes; events that name files are anchored to those files
 * as they are now; an explicit memory and the captures it describes converge. Each concern lives
 * in its own module; this only calls them in order.
 */
export function afterCapture(db: Db, c: Captured): void {
  new TaskStore(db).sync(c); // the project's task registry (src/store/tasks.ts)
  anchorCaptured(db, c); // before convergence, which re-anchors what converged
  convergeCaptured(db, c, c.convergeWindowMs);
  confirmByCapture(db, c);
}
