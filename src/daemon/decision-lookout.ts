import { recordFolders } from "../config/team-folder.js";
import type { Config } from "../config/config.js";
import { indexDecisionFolders } from "../freshness/refresh.js";
import { projectAt } from "../project/scope.js";
import type { Db } from "../store/db.js";

/**
 * A decision folder a pull just created (the team's first shared record, a new docs/adr) is no
 * indexed root yet, so the watch cannot see it. After a prompt, the daemon looks for such folders
 * in the prompt's project, at most once every `everyMs` a project, and indexes them in the
 * background; the new root is watched from the watch's next sync. Never on the prompt's path.
 */
export class DecisionLookout {
  private readonly last = new Map<string, number>();

  constructor(private readonly o: { db: Db; config: Config; home: string; env: NodeJS.ProcessEnv; log: (line: string) => void; everyMs?: number }) {}

  /** After a prompt from `cwd` (absolute) was answered. Never throws. */
  look(cwd: string, now = Date.now()): void {
    if (!this.o.config.index.watch) return;
    try {
      const { id: project, root } = projectAt(this.o.db, cwd, this.o.config.project.enclosing);
      const seen = this.last.get(project);
      if (seen !== undefined && now - seen < (this.o.everyMs ?? 10_000)) return;
      this.last.set(project, now);
      if (this.last.size > 1_000) this.last.delete(this.last.keys().next().value as string);
      indexDecisionFolders(this.o.db, { home: this.o.home, env: this.o.env, project, root, folders: recordFolders(this.o.config), now, log: this.o.log });
    } catch (err) {
      this.o.log(`looking for decision records failed: ${(err as Error).message}`);
    }
  }
}
