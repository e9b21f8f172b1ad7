import { openApp } from "../app.js";
import { cleanText } from "../redact/clean.cjs";
import { memoriesForPrompt, recordDelivered, type PromptRequest } from "../inject/for-prompt.js";
import { currentUserId } from "../tiers/user.js";
import type { HookIO } from "./run.js";

/** The prompt hook's answer without a daemon: BM25 in-process, no embedder loaded. */
export async function localMemories(req: PromptRequest, io: HookIO): Promise<string | undefined> {
  const app = openApp(io.env, { tolerateConfigErrors: true });
  try {
    const ctx = { db: app.db, config: app.config, vectors: app.vectors, pickProvider: async () => ({ unhealthy: [] }), projectRoot: app.projectRoot, user: currentUserId(io.env, app.config.tiers.user) };
    const found = await memoriesForPrompt(ctx, req, "bm25");
    if (found) recordDelivered(app.db, app.config, cleanText(req.session), found.ids, (io.now ?? Date.now)());
    return found?.text;
  } finally {
    await app.close();
  }
}
