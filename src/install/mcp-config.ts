/**
 * Pure merge / unmerge of mem's MCP server entry (`mcpServers.mem`) into a parsed Claude Code
 * config object (HOOKS.md §6.1): `~/.claude.json` (user scope: top-level `mcpServers`; local
 * scope: `projects.<project root>.mcpServers`) or a project's `.mcp.json`. No I/O.
 *
 * Only the entry named `mem` is ever touched, and only when it runs mem (`…/bin/mem.cjs mcp`,
 * or `mem mcp`): a server of someone else's under that name is left alone and reported.
 * Everything else keeps its place and its key order.
 */
import { isObject, sameJson, type Json, type JsonObject } from "./settings-json.js";

export const MCP_SERVER_KEY = "mem";

/** node and `bin/mem.cjs`, absolute (the plugin uses `node` and `${CLAUDE_PLUGIN_ROOT}/bin/mem.cjs`). */
export interface McpTarget {
  node: string;
  bin: string;
}

/** The entry `claude mcp add --scope user mem -- <node> <bin> mcp` writes. */
export function mcpServerEntry(t: McpTarget): JsonObject {
  return { type: "stdio", command: t.node, args: [t.bin, "mcp"], env: {} };
}

/** Whether a server entry runs `mem mcp` (any checkout, any node, or the `mem` command). */
export function isMemMcpEntry(entry: unknown): boolean {
  if (!isObject(entry) || typeof entry.command !== "string") return false;
  const args = Array.isArray(entry.args) ? entry.args.filter((a): a is string => typeof a === "string") : [];
  const words = [entry.command, ...args];
  for (let i = 0; i + 1 < words.length; i++) {
    const w = words[i]!;
    const base = w.split(/[\\/]/).pop() ?? "";
    if ((/(^|[\\/])bin[\\/]mem\.c?js$/.test(w) || base === "mem" || base === "mem.cmd" || base === "mem.exe") && words[i + 1] === "mcp") return true;
  }
  return false;
}

export type McpStatus = "registered" | "updated" | "already-registered" | "conflict" | "removed" | "not-registered" | "not-ours";

export interface McpMergeResult {
  /** A new object; the input is never modified. */
  config: JsonObject;
  changed: boolean;
  status: McpStatus;
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** The object at `path` (["mcpServers"] or ["projects", root, "mcpServers"]), if every step is an object. */
export function serversAt(config: JsonObject, path: readonly string[]): JsonObject | undefined {
  let cur: Json | undefined = config;
  for (const k of path) {
    if (!isObject(cur)) return undefined;
    cur = cur[k];
  }
  return isObject(cur) ? cur : undefined;
}

/** A step of `path` that exists but is not an object: the file cannot be merged safely. */
export function badStep(config: JsonObject, path: readonly string[]): string | undefined {
  let cur: Json | undefined = config;
  for (let i = 0; i < path.length; i++) {
    if (!isObject(cur)) return undefined;
    cur = cur[path[i]!];
    if (cur !== undefined && !isObject(cur)) return `"${path.slice(0, i + 1).join(".")}" must be an object, not ${Array.isArray(cur) ? "an array" : cur === null ? "null" : `a ${typeof cur}`}`;
  }
  return undefined;
}

/** Adds (or rewrites in place) `mcpServers.mem` at `path`. Idempotent. */
export function installMcp(config: JsonObject, path: readonly string[], entry: JsonObject): McpMergeResult {
  const had = serversAt(config, path)?.[MCP_SERVER_KEY];
  if (had !== undefined && !isMemMcpEntry(had)) return { config: clone(config), changed: false, status: "conflict" };
  if (had !== undefined && sameJson(had, entry)) return { config: clone(config), changed: false, status: "already-registered" };
  const out = clone(config);
  let cur: JsonObject = out;
  for (const k of path) {
    if (!isObject(cur[k])) cur[k] = {};
    cur = cur[k] as JsonObject;
  }
  cur[MCP_SERVER_KEY] = entry;
  return { config: out, changed: true, status: had === undefined ? "registered" : "updated" };
}

/** How many steps of `path` are objects in `config` already (install creates the others). Pure. */
export function stepsThere(config: JsonObject, path: readonly string[]): number {
  let cur: Json | undefined = config;
  let n = 0;
  for (const k of path) {
    if (!isObject(cur) || !isObject(cur[k])) break;
    cur = cur[k];
    n++;
  }
  return n;
}

/**
 * Removes `mcpServers.mem` at `path` when it runs mem; then the objects along `path` that this
 * leaves empty, past the first `keep` steps (an install that created them leaves nothing behind;
 * the ones the file had before install, such as Claude Code's own `"mcpServers": {}`, stay).
 */
export function uninstallMcp(config: JsonObject, path: readonly string[], keep = 0): McpMergeResult {
  const had = serversAt(config, path)?.[MCP_SERVER_KEY];
  if (had === undefined) return { config: clone(config), changed: false, status: "not-registered" };
  if (!isMemMcpEntry(had)) return { config: clone(config), changed: false, status: "not-ours" };
  const out = clone(config);
  const chain: JsonObject[] = [out];
  for (const k of path) chain.push(chain[chain.length - 1]![k] as JsonObject);
  delete chain[chain.length - 1]![MCP_SERVER_KEY];
  for (let i = path.length; i > keep; i--) {
    if (Object.keys(chain[i]!).length > 0) break;
    delete chain[i - 1]![path[i - 1]!];
  }
  return { config: out, changed: true, status: "removed" };
}
