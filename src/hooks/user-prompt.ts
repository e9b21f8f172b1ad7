import { fileURLToPath } from "node:url";
import { withCaCertsBack } from "./ca-env.js";
import { SERVE_FOR_HOOK } from "../daemon/paths.cjs";
import type { Payload } from "../contract/hook.cjs";
import { hookLog } from "./log.cjs";
import type { HookIO } from "./io.js";
import { promptRequest, promptViaDaemon } from "./via-daemon.cjs";

/**
 * UserPromptSubmit. The warm daemon answers (entry.cts asks it before this module is ever
 * loaded); with no daemon listening this starts one, detached, for next time, and answers this
 * prompt from an in-process BM25 query (no embedder is loaded).
 */
const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));

export async function startDaemon(env: NodeJS.ProcessEnv): Promise<void> {
  try {
    const { spawn } = await import("node:child_process");
    // MALLOC_MMAP_THRESHOLD_ (glibc; ignored elsewhere): LanceDB's read buffers (a few MB each) are
    // then always mapped apart and given back when freed. Otherwise glibc raises its threshold after
    // the first such free and keeps the freed buffers in its heap: reading a 1M-row table into the
    // vector copy left about 600 MiB of RSS behind (docs/benchmarks.md, Scale). A value the user set wins.
    spawn(process.execPath, [BIN, "serve", "--quiet"], { detached: true, stdio: "ignore", env: { MALLOC_MMAP_THRESHOLD_: "131072", ...withCaCertsBack(env), [SERVE_FOR_HOOK]: "1" } }).unref();
  } catch (err) {
    hookLog(env, `could not start the daemon: ${(err as Error).message}`);
  }
}

export async function userPromptSubmit(payload: Payload, io: HookIO): Promise<string | undefined> {
  const req = promptRequest(payload);
  if (!req) return undefined;
  if (io.env.MEM_NO_DAEMON !== "1") {
    if (!io.daemonTried) {
      const r = await promptViaDaemon(req, io.env);
      if (r.answered) return r.text;
    }
    // For next time, once this prompt is answered: started before, it took the cores (measured: six such
    // first prompts at once on a loaded two-core machine, 10 of 12 missed their 1.5 s deadline; after, none).
    if (io.afterAnswer) io.afterAnswer(() => startDaemon(io.env));
    else await startDaemon(io.env);
  }
  const { localMemories } = await import("./user-prompt-local.js");
  return localMemories(req, io, io.env.MEM_NO_DAEMON === "1");
}
