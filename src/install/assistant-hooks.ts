/**
 * Pure merge / unmerge of mem's hooks for Codex CLI (hooks.json), Gemini CLI (settings.json) and
 * Copilot CLI (.github/hooks/mem.json, ~/.copilot/hooks/mem.json), and of mem's MCP server entry
 * in their files. No I/O. The events are docs/assistants.md's tables.
 *
 * Codex and Gemini group handlers as Claude Code does (event → [{ matcher?, hooks: [handler] }]);
 * Copilot lists them flat (event → [handler]) under `version: 1`. Every handler runs
 * `'<node>' '<…/bin/mem.cjs>' hook <event> --assistant <name>`: one of mem's is a handler in
 * exactly that form (any node, any checkout), and nothing else is ever touched.
 */
import type { AssistantName } from "../contract/adapter.cjs";
import { shellWords } from "./ours.js";
import { checkTopLevel, describeType, isObject, sameJson, SettingsError, type Json, type JsonObject } from "./settings-json.js";

export interface AssistantHook {
  event: string;
  /** Gemini: milliseconds; Copilot: seconds; Codex: none written (its default). */
  timeout?: number;
}

export const ASSISTANT_HOOKS: Record<AssistantName, readonly AssistantHook[]> = {
  codex: [{ event: "SessionStart" }, { event: "UserPromptSubmit" }, { event: "PostToolUse" }, { event: "PreCompact" }, { event: "Stop" }],
  gemini: [
    { event: "SessionStart", timeout: 10_000 },
    { event: "BeforeAgent", timeout: 5_000 },
    { event: "AfterTool", timeout: 15_000 },
    { event: "AfterAgent", timeout: 10_000 },
    { event: "PreCompress", timeout: 10_000 },
    { event: "SessionEnd", timeout: 5_000 },
  ],
  copilot: [
    { event: "sessionStart", timeout: 10 },
    { event: "userPromptSubmitted", timeout: 5 },
    { event: "postToolUse", timeout: 15 },
    { event: "postToolUseFailure", timeout: 15 },
    { event: "agentStop", timeout: 10 },
    { event: "preCompact", timeout: 10 },
    { event: "sessionEnd", timeout: 5 },
  ],
};

export interface Runner {
  node: string;
  bin: string;
}

/** A word for a POSIX shell: bare when it is plain, else in single quotes. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

export function hookCommand(assistant: AssistantName, event: string, r: Runner): string {
  return [r.node, r.bin, "hook", event, "--assistant", assistant].map(shellQuote).join(" ");
}

/** The handler mem writes for one event. */
export function assistantHandler(assistant: AssistantName, h: AssistantHook, r: Runner): JsonObject {
  const command = hookCommand(assistant, h.event, r);
  if (assistant === "copilot") return { type: "command", bash: command, timeoutSec: h.timeout ?? 30 };
  return { type: "command", command, ...(h.timeout !== undefined ? { timeout: h.timeout } : {}) };
}

const isAbsolute = (p: string) => /^(\/|[A-Za-z]:[\\/])/.test(p);

/** The event a handler of mem's runs for `assistant`, when it is exactly in the form install writes; else undefined. */
export function ourEvent(assistant: AssistantName, handler: unknown): string | undefined {
  if (!isObject(handler) || handler.type !== "command") return undefined;
  const cmd = assistant === "copilot" ? handler.bash : handler.command;
  if (typeof cmd !== "string") return undefined;
  const allowed = assistant === "copilot" ? ["type", "bash", "timeoutSec"] : ["type", "command", "timeout"];
  if (!Object.keys(handler).every((k) => allowed.includes(k))) return undefined;
  const w = shellWords(cmd);
  if (w.length !== 6 || !isAbsolute(w[0]!) || !isAbsolute(w[1]!) || !/[\\/]bin[\\/]mem\.c?js$/.test(w[1]!)) return undefined;
  if (w[2] !== "hook" || w[4] !== "--assistant" || w[5] !== assistant || !/^[A-Za-z]+$/.test(w[3]!)) return undefined;
  return w[3];
}

export interface HookMerge {
  settings: JsonObject;
  changed: boolean;
  status: "installed" | "updated" | "already-installed" | "uninstalled" | "not-installed";
  events: string[];
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const flat = (a: AssistantName) => a === "copilot";

/** Every handler list of `hooks` (Codex, Gemini: each group's `hooks`; Copilot: each event's list), with its event. */
function lists(assistant: AssistantName, hooks: JsonObject): { event: string; list: Json[]; group?: JsonObject }[] {
  const out: { event: string; list: Json[]; group?: JsonObject }[] = [];
  for (const [event, v] of Object.entries(hooks)) {
    if (!Array.isArray(v)) continue;
    if (flat(assistant)) out.push({ event, list: v });
    else for (const g of v) if (isObject(g) && Array.isArray(g.hooks)) out.push({ event, list: g.hooks, group: g });
  }
  return out;
}

/** Takes every handler of ours out of `hooks` except those in `keep`; drops the groups and events that leaves empty. */
function removeOurs(assistant: AssistantName, hooks: JsonObject, keep: Set<unknown>): string[] {
  const touched = new Set<string>();
  for (const event of Object.keys(hooks)) {
    const v = hooks[event];
    if (!Array.isArray(v)) continue;
    const drop = (h: Json) => !keep.has(h) && ourEvent(assistant, h) !== undefined;
    let next: Json[];
    if (flat(assistant)) next = v.filter((h) => !drop(h));
    else {
      next = [];
      for (const g of v) {
        if (!isObject(g) || !Array.isArray(g.hooks) || !g.hooks.some(drop)) {
          next.push(g);
          continue;
        }
        const kept = g.hooks.filter((h) => !drop(h));
        if (kept.length > 0) next.push({ ...g, hooks: kept });
      }
    }
    if (next.length === v.length && (flat(assistant) || next.every((g, n) => g === v[n]))) continue;
    touched.add(event);
    if (next.length > 0) hooks[event] = next;
    else delete hooks[event];
  }
  return [...touched];
}

function checkHooks(settings: unknown, assistant: AssistantName): asserts settings is JsonObject {
  checkTopLevel(settings);
  if (!isObject(settings.hooks)) return;
  for (const [event, v] of Object.entries(settings.hooks)) {
    if (ASSISTANT_HOOKS[assistant].some((h) => h.event === event) && !Array.isArray(v)) throw new SettingsError(`"hooks.${event}" must be an array, not ${describeType(v)}`);
  }
}

/** mem's hooks for `assistant` merged into `settings` (idempotent; a handler of ours with other paths rewritten in place). @throws SettingsError */
export function installAssistantHooks(assistant: AssistantName, settings: unknown, r: Runner): HookMerge {
  checkHooks(settings, assistant);
  const out = clone(settings);
  const had = isObject(out.hooks) && lists(assistant, out.hooks).some((l) => l.list.some((h) => ourEvent(assistant, h) !== undefined));
  const hooks: JsonObject = isObject(out.hooks) ? out.hooks : {};
  const keep = new Set<unknown>();
  for (const h of ASSISTANT_HOOKS[assistant]) {
    const want = assistantHandler(assistant, h, r);
    const spot = lists(assistant, hooks)
      .filter((l) => l.event === h.event)
      .flatMap((l) => l.list.map((x, n) => ({ l, x, n })))
      .find((c) => !keep.has(c.x) && ourEvent(assistant, c.x) === h.event);
    if (spot) {
      if (!sameJson(spot.x, want)) spot.l.list[spot.n] = want;
      keep.add(spot.l.list[spot.n]);
      continue;
    }
    const list = hooks[h.event];
    const item: JsonObject = flat(assistant) ? want : { hooks: [want] };
    hooks[h.event] = Array.isArray(list) ? [...list, item] : [item];
    keep.add(want);
  }
  removeOurs(assistant, hooks, keep);
  if (flat(assistant) && out.version === undefined && !isObject(out.hooks)) out.version = 1;
  out.hooks = hooks;
  const changed = JSON.stringify(out) !== JSON.stringify(settings);
  return { settings: changed ? out : clone(settings), changed, status: !changed ? "already-installed" : had ? "updated" : "installed", events: ASSISTANT_HOOKS[assistant].map((h) => h.event) };
}

/** mem's hooks for `assistant` taken out; `hooks` too when that empties it (unless it was `{}` before install: `keepEmpty`). @throws SettingsError */
export function uninstallAssistantHooks(assistant: AssistantName, settings: unknown, keepEmpty = false): HookMerge {
  checkHooks(settings, assistant);
  const out = clone(settings);
  const events = isObject(out.hooks) ? removeOurs(assistant, out.hooks, new Set()) : [];
  if (events.length > 0 && !keepEmpty && isObject(out.hooks) && Object.keys(out.hooks).length === 0) delete out.hooks;
  const changed = events.length > 0;
  return { settings: out, changed, status: changed ? "uninstalled" : "not-installed", events };
}

/** The events that have a handler of mem's for `assistant` in `settings`. */
export function foundAssistantHooks(assistant: AssistantName, settings: unknown): string[] {
  if (!isObject(settings) || !isObject(settings.hooks)) return [];
  return [...new Set(lists(assistant, settings.hooks).flatMap((l) => l.list.map((h) => ourEvent(assistant, h)).filter((e): e is string => e !== undefined)))];
}

/** The MCP entry mem writes in Gemini's settings.json (`mcpServers.mem`) and Copilot's mcp-config.json. */
export function assistantMcpEntry(assistant: AssistantName, r: Runner): JsonObject {
  if (assistant === "copilot") return { type: "local", command: r.node, args: [r.bin, "mcp"], tools: ["*"] };
  return { command: r.node, args: [r.bin, "mcp"] };
}
