import { openForHook } from "./open-store.js";
import { cleanText } from "../redact/clean.cjs";
import { checkToolCall, recordPretool } from "../inject/pretool-check.js";
import type { Payload } from "../contract/hook.cjs";
import { hookLog } from "./log.cjs";
import type { HookIO } from "./io.js";
import { startDaemon } from "./user-prompt.js";
import { pretoolRequest, pretoolViaDaemon } from "./via-daemon.cjs";

/**
 * PreToolUse: the pre-tool check (src/inject/pretool-check.ts). The warm daemon answers it
 * (entry.cts asks before this module is loaded). With no daemon listening, this starts one for the
 * next call and says nothing: checking in this process would cost every tool call the loading of
 * mem and its store (about 0.4 s, `npm run bench:pretool`), too much for a call that is almost
 * never a regression. With MEM_NO_DAEMON=1 (no daemon, by choice) the check runs here, at that
 * cost. The answer is context only, never a permission decision.
 */
export async function preToolUse(payload: Payload, io: HookIO): Promise<string | undefined> {
  const req = pretoolRequest(payload);
  if (!req) return undefined;
  if (io.env.MEM_NO_DAEMON !== "1") {
    if (!io.daemonTried) {
      const r = await pretoolViaDaemon(req, io.env);
      if (r.answered) return r.text;
    }
    await startDaemon(io.env);
    return undefined;
  }
  const app = openForHook(io);
  try {
    const t0 = performance.now();
    const a = checkToolCall(app.db, app.config, req);
    recordPretool(app.db, a, { session: cleanText(req.session), req, ms: performance.now() - t0, at: (io.now ?? Date.now)() }, (l) => hookLog(io.env, `pre-tool-use: ${l}`));
    return a.text;
  } finally {
    await app.close();
  }
}
