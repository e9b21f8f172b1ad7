/**
 * PostToolUse / PostToolUseFailure: the payload goes to the warm daemon, which makes the event
 * durable in SQLite before it replies. With no daemon, or no reply in time, the hook writes it
 * itself (capture is idempotent on the tool_use_id, so a late daemon write and ours never make
 * two events). Stores and extractors load only on that fallback.
 */
import { dataHome } from "../config/paths.js";
import { ask } from "../daemon/client.js";
import { HOOK_EVENTS, type Payload } from "./contract.js";
import type { HookIO } from "./run.js";

export const CAPTURE_BUDGET_MS = 1_000;

export async function captureTool(payload: Payload, io: HookIO): Promise<undefined> {
  if (io.env.MEM_NO_DAEMON !== "1") {
    const event = payload.hook_event_name === HOOK_EVENTS["post-tool-use-failure"] ? HOOK_EVENTS["post-tool-use-failure"] : HOOK_EVENTS["post-tool-use"];
    const r = await ask(dataHome(io.env), { op: "capture", event, payload }, CAPTURE_BUDGET_MS);
    if (r.kind === "reply" && r.reply.ok) return undefined;
  }
  const { postToolUse } = await import("./capture-hooks.js");
  return postToolUse(payload, io);
}
