import type { HookTarget } from "./hooks.js";
import { findMemHooks, installHooks } from "./settings.js";
import type { JsonObject } from "./settings-json.js";

export interface HookDrift {
  /** mem's hooks found in the settings (0: not installed there). */
  found: number;
  /** The prompt's hook is an mcp_tool hook (--prompt-transport mcp), kept so in the comparison. */
  viaMcp: boolean;
  /** Events whose hook of ours `mem install` would add, rewrite, or remove as a duplicate. */
  added: string[];
  updated: string[];
  removed: string[];
  events: string[];
  /** Installing from here would change the settings. */
  changed: boolean;
}

/**
 * How mem's hooks in one settings file's object differ from what installing `target` would write
 * (the prompt's transport as installed). Pure.
 * @throws SettingsError when the settings have the wrong shape.
 */
export function hookDrift(settings: JsonObject, target: HookTarget): HookDrift {
  const found = findMemHooks(settings);
  const mcp = found.find((f) => f.name === "user-prompt-submit" && f.handler.type === "mcp_tool");
  const r = installHooks(settings, mcp ? { ...target, promptServer: String(mcp.handler.server) } : target);
  return { found: found.length, viaMcp: mcp !== undefined, added: r.added, updated: r.updated, removed: r.removed, events: r.events, changed: r.changed };
}
