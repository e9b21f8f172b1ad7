/**
 * The memory service as one page of the explorer may use it: bound to the project the address
 * shows (`?project=`, else the one `mem ui` serves), so an id of another project is answered
 * exactly as a missing one (not found; an id start shared with another project's memories is no
 * ambiguity), and a change reaches only that project. After a write, a running daemon is told, as
 * the CLI tells it.
 */
import { nudgeDaemon } from "../daemon/nudge.js";
import type { Project } from "../project/identity.js";
import { MemoryService } from "../service/memory.js";
import type { UiContext } from "./context.js";

export function serviceFor(ctx: UiContext, project: Project): MemoryService {
  const { app } = ctx;
  return new MemoryService({ db: app.db, config: app.config, projectRoot: app.projectRoot, now: ctx.now, scope: { read: [project.id], write: [project.id] } });
}

/** Tells a running daemon the project has chunks to embed (nothing when none runs). */
export function afterWrite(ctx: UiContext, project: string): Promise<void> {
  return nudgeDaemon(project, ctx.app.paths.home);
}
