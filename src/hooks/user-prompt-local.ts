import { openForHook } from "./open-store.js";
import { GLOBAL_PROJECT } from "../config/config.js";
import { indexDecisionFolders, refreshForHook } from "../freshness/refresh.js";
import { recordFolders } from "../config/team-folder.js";
import { projectAt } from "../project/scope.js";
import { hookLog } from "./log.cjs";
import { cleanText } from "../redact/clean.cjs";
import type { PromptRequest } from "../inject/for-prompt.js";
import { answerPrompt, delivered } from "../inject/prompt-run.js";
import { currentUserId } from "../tiers/user.js";
import type { HookIO } from "./io.js";

/**
 * The prompt hook's answer without a daemon: BM25 in-process, no embedder loaded. `refresh`: no
 * daemon is being started (MEM_NO_DAEMON=1), so after answering, a cheap check re-indexes changed
 * roots in the background (a daemon does that itself).
 */
export async function localMemories(req: PromptRequest, io: HookIO, refresh = false): Promise<string | undefined> {
  const app = openForHook(io);
  try {
    const ctx = { db: app.db, config: app.config, vectors: app.vectors, pickProvider: async () => ({ unhealthy: [] }), projectRoot: app.projectRoot, user: currentUserId(io.env, app.config.tiers.user) };
    const t0 = performance.now();
    const a = await answerPrompt(ctx, req, "bm25");
    const ms = performance.now() - t0;
    // The answer goes back as this returns: its chunks count as shown, and the run is logged (never failing the hook).
    if (a) delivered(app.db, a, { session: cleanText(req.session), prompt: req.prompt, ms, mode: "bm25", at: (io.now ?? Date.now)() }, (l) => hookLog(io.env, `user-prompt-submit: ${l}`));
    if (refresh && app.config.index.watch) {
      const { id: project, root } = projectAt(app.db, req.cwd, app.config.project.enclosing);
      const projects = [project, ...(app.config.query.includeGlobal ? [GLOBAL_PROJECT] : [])];
      // A decision folder a pull created (the team's first shared record): indexed in the background too.
      indexDecisionFolders(app.db, { home: app.paths.home, env: io.env, project, root, folders: recordFolders(app.config), now: Date.now(), log: (l) => hookLog(io.env, `user-prompt-submit: ${l}`) });
      refreshForHook(app.db, { home: app.paths.home, env: io.env, projects, now: Date.now(), chunks: app.config.index, folders: recordFolders(app.config), log: (l) => hookLog(io.env, `user-prompt-submit: ${l}`) });
    }
    return a?.injection?.text;
  } finally {
    await app.close();
  }
}
