/**
 * Which handlers in a Claude Code settings file are mem's own: only those `mem install` wrote.
 * Install rewrites and uninstall removes these and nothing else; every other handler is the
 * user's, kept byte for byte, however much it looks like mem (`env MEM_HOME=… mem hook stop`,
 * `timeout 3 mem hook stop`, a `mem hook notify` of their own).
 *
 * Ours is either
 * - marked: `"_managed_by": "mem"` on the handler object (what install writes since the mark;
 *   Claude Code accepts unknown keys on a handler, HOOKS.md §1.2), or
 * - exactly a form an older install wrote, before the mark: exec form with nothing but `type`,
 *   `command`, `args`, `timeout`, `async`: `<abs node> <abs …/bin/mem.cjs|mem.js> hook <name>`,
 *   `/bin/sh <abs …/bin/mem-hook.sh> <abs node> <abs …/bin/mem.cjs> hook <name>` (or the plugin's
 *   `node ${CLAUDE_PLUGIN_ROOT}/bin/mem.cjs hook <name>` pasted in), or the mcp_tool prompt hook
 *   calling mem's `prompt_context`. Install never wrote a shell string or anything with another key.
 *
 * A handler that only mentions `mem hook <one of ours>` is a look-alike: left alone, and reported
 * (install, uninstall, doctor) so that a user with a hand-made or edited copy knows why.
 */
import { isHookName } from "../contract/hook.cjs";
import { MARK_KEY, MARK_VALUE, memMcpHookName, PLUGIN_ROOT, PROMPT_TOOL, SH } from "./hooks.js";
import { isObject } from "./settings-json.js";

/** Splits a shell command into words: '…' and "…" group; backslashes stay literal (Windows paths). */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let cur = "";
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (quote === '"' && c === "\\" && (command[i + 1] === '"' || command[i + 1] === "\\")) cur += command[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(cur);
      cur = "";
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord) words.push(cur);
  return words;
}

/** `…/bin/mem.cjs` (any checkout, or `${CLAUDE_PLUGIN_ROOT}/bin/mem.cjs`), or the `mem` command itself. */
function isMemExecutable(word: string): boolean {
  if (/(^|[\\/])bin[\\/]mem\.c?js$/.test(word)) return true; // mem.js: what earlier builds installed
  const base = word.split(/[\\/]/).pop() ?? "";
  return base === "mem" || base === "mem.cmd" || base === "mem.exe";
}

/** The words a command handler runs (exec form: command + args; shell form: the string split). */
function wordsOf(handler: Record<string, unknown>): string[] | undefined {
  if (handler.type !== "command" || typeof handler.command !== "string") return undefined;
  if (handler.args === undefined) return shellWords(handler.command);
  if (!Array.isArray(handler.args) || !handler.args.every((a) => typeof a === "string")) return undefined;
  return [handler.command, ...(handler.args as string[])];
}

/**
 * The `<name>` of any `mem hook <name>` this handler runs, wherever in its command (a wrapper, an
 * env prefix), or the prompt's mcp_tool call: what a handler of ours would run. Says nothing
 * about who wrote it.
 */
export function mentionedHookName(handler: unknown): string | undefined {
  if (!isObject(handler)) return undefined;
  if (handler.type === "mcp_tool") return memMcpHookName(handler);
  const words = wordsOf(handler);
  if (!words) return undefined;
  for (let i = 0; i + 2 < words.length; i++) {
    if (isMemExecutable(words[i]!) && words[i + 1] === "hook" && /^[a-z][a-z0-9-]*$/.test(words[i + 2]!)) return words[i + 2];
  }
  return undefined;
}

const isAbsolute = (p: string) => /^(\/|[A-Za-z]:[\\/])/.test(p);
const isMemBin = (p: string) => (isAbsolute(p) || p.startsWith(`${PLUGIN_ROOT}/`)) && /[\\/]bin[\\/]mem\.c?js$/.test(p);
const COMMAND_KEYS = new Set(["type", "command", "args", "timeout", "async"]);
const MCP_KEYS = new Set(["type", "server", "tool", "input", "timeout"]);

/** The hook name when `handler` is exactly a form an install before the mark wrote, else undefined. */
function legacyHookName(handler: Record<string, unknown>): string | undefined {
  const keys = Object.keys(handler);
  if (handler.type === "mcp_tool") return keys.every((k) => MCP_KEYS.has(k)) ? memMcpHookName(handler) : undefined;
  if (!keys.every((k) => COMMAND_KEYS.has(k)) || !Array.isArray(handler.args)) return undefined;
  const [cmd, ...args] = wordsOf(handler) ?? [];
  if (cmd === undefined) return undefined;
  let rest = args;
  if (cmd === SH) {
    if (args.length !== 5 || !isAbsolute(args[0]!) || !/[\\/]bin[\\/]mem-hook\.sh$/.test(args[0]!) || !isAbsolute(args[1]!)) return undefined;
    rest = args.slice(2);
  } else if (!isAbsolute(cmd) && !(cmd === "node" && args[0]?.startsWith(`${PLUGIN_ROOT}/`))) {
    return undefined;
  }
  if (rest.length !== 3 || !isMemBin(rest[0]!) || rest[1] !== "hook" || !isHookName(rest[2]!)) return undefined;
  return rest[2];
}

/** The `mem hook <name>` name when this handler is one of mem's own (marked, or an older install's exact form), else undefined. */
export function memHookName(handler: unknown): string | undefined {
  if (!isObject(handler)) return undefined;
  if (handler[MARK_KEY] === MARK_VALUE) {
    if (handler.type === "mcp_tool") return handler.tool === PROMPT_TOOL ? "user-prompt-submit" : undefined;
    const name = mentionedHookName(handler);
    return name !== undefined && isHookName(name) ? name : undefined;
  }
  return legacyHookName(handler);
}

/** A handler that runs one of mem's hooks but that mem did not write: the user's, never touched. */
export function isLookalike(handler: unknown): boolean {
  const name = mentionedHookName(handler);
  return name !== undefined && isHookName(name) && memHookName(handler) === undefined;
}
