/**
 * The registry of assistant adapters, and how `mem hook <event> --assistant <name>` names one.
 * Without `--assistant` the hook speaks Claude Code's contract (hook.cts), unchanged.
 */
import { codex } from "./codex.cjs";
import { copilot } from "./copilot.cjs";
import { gemini } from "./gemini.cjs";
import { ASSISTANT_KEY, isAssistantName, type Adapter, type AssistantName } from "./adapter.cjs";
import { contextOutput, HOOK_EVENTS, type HookName, type Payload } from "./hook.cjs";

export const ADAPTERS: Record<AssistantName, Adapter> = { codex, gemini, copilot };

/**
 * The assistant named after the event on the command line: `--assistant codex` or
 * `--assistant=codex`. `{ ok: true }` without one (Claude Code); `ok: false` for a flag without
 * a known name, which the hook logs and answers with nothing.
 */
export function assistantArg(args: readonly string[]): { ok: true; adapter?: Adapter } | { ok: false; given: string } {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = a === "--assistant" ? (args[i + 1] ?? "") : a.startsWith("--assistant=") ? a.slice("--assistant=".length) : undefined;
    if (value === undefined) continue;
    if (value === "claude" || value === "claude-code") return { ok: true };
    return isAssistantName(value) ? { ok: true, adapter: ADAPTERS[value] } : { ok: false, given: value.slice(0, 40) };
  }
  return { ok: true };
}

/** What a hook prints for mem's answer: the adapter's format, or Claude Code's (with its user notice). */
export function hookOutput(adapter: Adapter | undefined, name: HookName, context: string | undefined, notice?: string): string | undefined {
  return adapter ? adapter.output(name, context) : contextOutput(HOOK_EVENTS[name], context, notice);
}

/** A Claude Code payload never names another assistant: a stray key is dropped, not trusted. */
export function claudePayload(payload: Payload): Payload {
  if (Object.hasOwn(payload, ASSISTANT_KEY)) delete payload[ASSISTANT_KEY];
  return payload;
}
