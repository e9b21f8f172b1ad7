/**
 * The Claude Code hooks mem registers: one table shared by `mem install` (settings files, absolute
 * paths) and the plugin's `hooks/hooks.json` (`${CLAUDE_PLUGIN_ROOT}`). See HOOKS.md §1.2, §1.4, §2.4, §8.
 *
 * Every handler uses the exec form (`command` = the executable, `args` = its arguments; no shell,
 * no quoting problems, Claude Code 2.1.139+): `<node> <…/bin/mem.cjs> hook <name>`, or
 * `/bin/sh <…/bin/mem-hook.sh> <node> <…/bin/mem.cjs> hook <name>`: for the hot hooks, whose
 * curl client asks a warm daemon without starting Node, and for every hook where the hooks must
 * not pay for NODE_EXTRA_CA_CERTS (see that script).
 */
import { DAEMON_HOOKS, isHookName } from "../contract/hook.cjs";

export interface MemHook {
  /** Claude Code event name (case-sensitive key under `hooks`). */
  event: string;
  /** The `mem hook <name>` argument. */
  name: string;
  /** Omitted for events without matcher support and where every value should match. */
  matcher?: string;
  /** SECONDS (HOOKS.md §2.4). Above the hook's own internal deadline. */
  timeout: number;
  /** Background hook: cannot block, never delays Claude (HOOKS.md §2.5). */
  async?: true;
}

export const MEM_HOOKS: readonly MemHook[] = [
  // Briefing on every source (startup, resume, clear, compact, fork): the hook itself decides by `source`.
  { event: "SessionStart", name: "session-start", timeout: 10 },
  // Retrieval; the client keeps its own small budget, this is only the outer guard.
  { event: "UserPromptSubmit", name: "user-prompt-submit", timeout: 5 },
  // The pre-tool check: only the tools it reads; synchronous (its warning must reach the model before the call), never blocking.
  { event: "PreToolUse", name: "pre-tool-use", matcher: "Edit|MultiEdit|Write|Bash", timeout: 5 },
  { event: "PostToolUse", name: "post-tool-use", matcher: "*", async: true, timeout: 30 },
  { event: "PostToolUseFailure", name: "post-tool-use-failure", matcher: "*", async: true, timeout: 30 },
  { event: "Stop", name: "stop", timeout: 10 },
  { event: "SubagentStop", name: "subagent-stop", timeout: 10 },
  { event: "PreCompact", name: "pre-compact", timeout: 10 },
  // SessionEnd hooks share a 1.5 s budget, raised to the largest settings-file timeout: 2 s gives
  // node's start-up some room. Plugin timeouts do not raise it (HOOKS.md §2.4, §1.4).
  { event: "SessionEnd", name: "session-end", timeout: 2 },
  // Capture only: a permission prompt, waiting for input. Async, so it never delays anything.
  { event: "Notification", name: "notification", async: true, timeout: 10 },
];

/** The plugin root placeholder Claude Code substitutes in plugin hook commands (HOOKS.md §1.4). */
export const PLUGIN_ROOT = "${CLAUDE_PLUGIN_ROOT}";

export const PLUGIN_HOOKS_DESCRIPTION = "mem: local-first semantic memory (briefing, retrieval and capture hooks)";

export interface CommandHandler {
  type: "command";
  command: string;
  args: string[];
  async?: true;
  timeout: number;
}

/**
 * UserPromptSubmit through mem's MCP server instead of a process (`--prompt-transport mcp`,
 * HOOKS.md §1.5): Claude Code calls the server's `prompt_context` tool, `${…}` in `input` filled
 * from the hook's JSON input, and parses the tool's text like a command's stdout.
 */
export interface McpToolHandler {
  type: "mcp_tool";
  server: string;
  tool: string;
  input: Record<string, string>;
  timeout: number;
}

export const PROMPT_TOOL = "prompt_context";
/**
 * SECONDS. Also how long Claude Code holds a prompt for an MCP server still connecting (then it
 * says "MCP server 'mem' not connected" and the prompt goes on): `mem mcp` connects in about 0.5 s.
 */
export const PROMPT_TOOL_TIMEOUT = 3;
export const PROMPT_TOOL_INPUT = { prompt: "${prompt}", cwd: "${cwd}", session_id: "${session_id}" } as const;

/** `mem` (settings, `.mcp.json`, `~/.claude.json`), or `plugin:mem:mem` for the plugin's bundled server. */
export const isMemMcpServerName = (s: unknown): boolean => s === "mem" || s === "plugin:mem:mem";

/** "user-prompt-submit" for our mcp_tool prompt handler, else undefined. */
export function memMcpHookName(h: { type?: unknown; server?: unknown; tool?: unknown }): string | undefined {
  return h.type === "mcp_tool" && isMemMcpServerName(h.server) && h.tool === PROMPT_TOOL ? "user-prompt-submit" : undefined;
}

export interface MatcherGroup {
  matcher?: string;
  hooks: (CommandHandler | McpToolHandler)[];
}

/**
 * Where the hook runs: `node` (an absolute path for settings files) and `bin/mem.cjs`; with
 * `caWrapper` (`bin/mem-hook.sh`), every hook through it and `/bin/sh`; with `hookClient` (the
 * same script), the hot hooks (a prompt, a tool call, a stop) through it.
 */
export interface HookTarget {
  node: string;
  bin: string;
  caWrapper?: string;
  hookClient?: string;
  /** The prompt hook as an mcp_tool call to this MCP server (its registered name) instead of a command. */
  promptServer?: string;
}

/** The shell that runs `bin/mem-hook.sh` (POSIX: always there, and needs no exec bit on the script). */
export const SH = "/bin/sh";

/** Our handler for an event: the command, or for the prompt with `promptServer` the mcp_tool call. */
export function handlerFor(hook: MemHook, target: HookTarget): CommandHandler | McpToolHandler {
  if (hook.name === "user-prompt-submit" && target.promptServer !== undefined) {
    return { type: "mcp_tool", server: target.promptServer, tool: PROMPT_TOOL, input: { ...PROMPT_TOOL_INPUT }, timeout: PROMPT_TOOL_TIMEOUT };
  }
  return commandHandlerFor(hook, target);
}

/** The script a hook runs through, if any: the CA wrapper for every hook, the curl client for the hot ones. */
export function wrapperFor(name: string, target: HookTarget): string | undefined {
  return target.caWrapper ?? (target.hookClient !== undefined && isHookName(name) && DAEMON_HOOKS.has(name) ? target.hookClient : undefined);
}

/** `<node> <bin> hook <name>` in exec form (through bin/mem-hook.sh when `wrapperFor` says so). */
export function commandHandlerFor(hook: MemHook, target: HookTarget): CommandHandler {
  const direct = [target.bin, "hook", hook.name];
  const wrapper = wrapperFor(hook.name, target);
  return {
    type: "command",
    command: wrapper ? SH : target.node,
    args: wrapper ? [wrapper, target.node, ...direct] : direct,
    ...(hook.async ? { async: true as const } : {}),
    timeout: hook.timeout,
  };
}

/**
 * The mark on every handler `mem install` writes into a settings file: install and uninstall touch
 * only marked handlers (and the exact forms older installs wrote, src/install/ours.ts). Claude Code
 * accepts unknown keys on a handler (HOOKS.md §1.2). The plugin's hooks.json needs none.
 */
export const MARK_KEY = "_managed_by";
export const MARK_VALUE = "mem";

/** Our handler for an event as `mem install` writes it into a settings file: with the mark. */
export function markedHandlerFor(hook: MemHook, target: HookTarget): (CommandHandler | McpToolHandler) & { [MARK_KEY]: string } {
  return { [MARK_KEY]: MARK_VALUE, ...handlerFor(hook, target) };
}

/** A matcher group holding our handler for `hook` (marked for a settings file when `marked`). */
export function groupFor(hook: MemHook, target: HookTarget, marked = false): MatcherGroup {
  return { ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}), hooks: [marked ? markedHandlerFor(hook, target) : handlerFor(hook, target)] };
}

/** The `hooks` object for a target: event → [one matcher group with our handler]. */
export function hooksObject(target: HookTarget, hooks: readonly MemHook[] = MEM_HOOKS): Record<string, MatcherGroup[]> {
  const out: Record<string, MatcherGroup[]> = {};
  for (const h of hooks) (out[h.event] ??= []).push(groupFor(h, target));
  return out;
}

/** The plugin's `hooks/hooks.json`: `node "${CLAUDE_PLUGIN_ROOT}/bin/mem.cjs" hook <name>` in exec form. */
export function pluginHooksFile(): { description: string; hooks: Record<string, MatcherGroup[]> } {
  return { description: PLUGIN_HOOKS_DESCRIPTION, hooks: hooksObject({ node: "node", bin: `${PLUGIN_ROOT}/bin/mem.cjs` }) };
}

/** The text of `hooks/hooks.json`, as a regeneration script would write it. */
export function pluginHooksText(): string {
  return `${JSON.stringify(pluginHooksFile(), null, 2)}\n`;
}
