import { openApp } from "../app.js";
import { memoriesForPrompt, type PromptRequest } from "../inject/for-prompt.js";
import type { HookIO } from "./run.js";

/** The prompt hook's answer without a daemon: BM25 in-process, no embedder loaded. */
export async function localMemories(req: PromptRequest, io: HookIO): Promise<string | undefined> {
  const app = openApp(io.env, { tolerateConfigErrors: true });
  try {
    const ctx = { db: app.db, config: app.config, vectors: app.vectors, pickProvider: async () => ({ unhealthy: [] }), projectRoot: app.projectRoot };
    return await memoriesForPrompt(ctx, req, "bm25", (io.now ?? Date.now)());
  } finally {
    await app.close();
  }
}
