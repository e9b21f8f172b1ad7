import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { dataHome } from "../config/paths.js";
import { ask } from "../daemon/client.js";
import { skipReason } from "../inject/prompt-filter.js";
import { str, type Payload } from "./contract.js";
import { hookLog, type HookIO } from "./run.js";

/**
 * UserPromptSubmit. The hot path imports nothing heavy: it asks the warm daemon and waits at most
 * `daemon.clientBudgetMs` (250 ms); past that it injects nothing and the prompt goes on. With no
 * daemon listening it starts one, detached, for next time, and answers this prompt from an
 * in-process BM25 query (no embedder is loaded).
 */
const BIN = fileURLToPath(new URL("../../../bin/mem.js", import.meta.url));

function clientBudget(home: string): number {
  try {
    const c = JSON.parse(readFileSync(join(home, "config.json"), "utf8")) as { daemon?: { clientBudgetMs?: unknown } };
    const v = c.daemon?.clientBudgetMs;
    return typeof v === "number" && v > 0 ? v : 250;
  } catch {
    return 250;
  }
}

export async function startDaemon(env: NodeJS.ProcessEnv): Promise<void> {
  try {
    const { spawn } = await import("node:child_process");
    spawn(process.execPath, [BIN, "serve", "--quiet"], { detached: true, stdio: "ignore", env }).unref();
  } catch (err) {
    hookLog(env, `could not start the daemon: ${(err as Error).message}`);
  }
}

export async function userPromptSubmit(payload: Payload, io: HookIO): Promise<string | undefined> {
  const prompt = str(payload, "prompt");
  if (!prompt || skipReason(prompt)) return undefined;
  const req = { op: "prompt", prompt, cwd: str(payload, "cwd") ?? process.cwd(), session: str(payload, "session_id") ?? "" };
  if (io.env.MEM_NO_DAEMON !== "1") {
    const home = dataHome(io.env);
    const r = await ask(home, req, clientBudget(home));
    if (r.kind === "reply") return r.reply.ok && typeof r.reply.text === "string" ? r.reply.text : undefined;
    if (r.kind === "timeout") {
      hookLog(io.env, "user-prompt-submit: the daemon did not answer within budget; injected nothing");
      return undefined;
    }
    if (r.kind === "error") hookLog(io.env, `user-prompt-submit: daemon error: ${r.error}`);
    await startDaemon(io.env);
  }
  const { localMemories } = await import("./user-prompt-local.js");
  return localMemories(req, io);
}
