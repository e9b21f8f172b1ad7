/**
 * Pure edits of Codex's config.toml for `mem install --for codex`: `[features] hooks = true`
 * (Codex runs no hook without it) and mem's MCP server, `[mcp_servers.mem]`. Everything mem
 * writes carries the MARK comment, and uninstall takes out only marked lines and tables: a
 * `hooks = true` the user wrote stays, a server named "mem" of the user's is never touched.
 */
import type { McpStatus } from "./mcp-config.js";
import { isMemMcpEntry } from "./mcp-config.js";
import { appendBlock, findKey, findTable, insertAfter, MARK, removeStatement, removeTable, statements, stringsOf, tableBody, TomlError, tomlString, under, type Statement } from "./toml-edit.js";

export const MCP_PATH = ["mcp_servers", "mem"];

/** added: mem turned the hooks feature on; on: it was on (hooks or the older codex_hooks); off: the user turned it off (left so); removed / none: uninstall. */
export type FeatureStatus = "added" | "on" | "off" | "removed" | "none";

export interface CodexConfigResult {
  text: string;
  changed: boolean;
  features: FeatureStatus;
  mcp: McpStatus;
}

const marked = (s: Statement | undefined): boolean => s?.comment?.startsWith(MARK) === true;

/** `hooks = true` turned on in [features] (or in a dotted `features.…` of the root), or a `[features]` table of ours appended. */
function addFeature(text: string): { text: string; status: FeatureStatus } {
  const list = statements(text);
  const hooks = findKey(list, ["features", "hooks"]);
  const legacy = findKey(list, ["features", "codex_hooks"]);
  if (hooks?.value === "true" || (hooks === undefined && legacy?.value === "true")) return { text, status: "on" };
  if (hooks !== undefined) return { text, status: "off" };
  const inline = findKey(list, ["features"]);
  if (inline !== undefined) throw new TomlError(`"features" is an inline table (line ${inline.line}); add hooks = true to it by hand`);
  const header = findTable(list, ["features"]);
  if (header) {
    const last = tableBody(list, header).at(-1) ?? header;
    return { text: insertAfter(text, last, `hooks = true ${MARK}`), status: "added" };
  }
  const dotted = under(list, ["features"]).filter((s) => s.kind === "kv" && s.table.length === 0);
  if (dotted.length > 0) return { text: insertAfter(text, dotted.at(-1)!, `features.hooks = true ${MARK}`), status: "added" };
  return { text: appendBlock(text, [`[features] ${MARK}`, `hooks = true ${MARK}`]), status: "added" };
}

/** The marked `hooks = true` out, and the `[features]` table of ours when that leaves it empty. */
function removeFeature(text: string): { text: string; status: FeatureStatus } {
  let list = statements(text);
  const line = findKey(list, ["features", "hooks"]) ?? findKey(list, ["features", "codex_hooks"]);
  if (!marked(line) || line?.key?.at(-1) !== "hooks") return { text, status: "none" };
  text = removeStatement(text, line!);
  list = statements(text);
  const header = findTable(list, ["features"]);
  if (header && marked(header) && tableBody(list, header).length === 0) text = removeTable(text, list, header);
  return { text, status: "removed" };
}

/** The entry's command and args as written in the table `[mcp_servers.mem]` (undefined when it is not that simple). */
function entryOf(list: Statement[]): { command: string; args: string[] } | undefined {
  const command = findKey(list, [...MCP_PATH, "command"]);
  const args = findKey(list, [...MCP_PATH, "args"]);
  const c = command && stringsOf(command.value!);
  const a = args ? stringsOf(args.value!) : [];
  return c?.length === 1 && !command!.value!.startsWith("[") && a ? { command: c[0]!, args: a } : undefined;
}

function mcpLines(entry: { command: string; args: string[] }): string[] {
  return [`[mcp_servers.mem] ${MARK}`, `command = ${tomlString(entry.command)}`, `args = [${entry.args.map(tomlString).join(", ")}]`];
}

/** Our table, when `[mcp_servers.mem]` is exactly one marked table holding everything under that name. */
function ourTable(list: Statement[]): Statement | undefined {
  const header = findTable(list, MCP_PATH);
  if (!header || !marked(header)) return undefined;
  const body = new Set(tableBody(list, header));
  return under(list, MCP_PATH).every((s) => s === header || body.has(s)) ? header : undefined;
}

function setMcp(text: string, entry: { command: string; args: string[] }): { text: string; status: McpStatus } {
  const list = statements(text);
  const found = under(list, MCP_PATH);
  if (found.length === 0 && findKey(list, ["mcp_servers"]) !== undefined) throw new TomlError(`"mcp_servers" is an inline table (line ${findKey(list, ["mcp_servers"])!.line}); add mem's server to it by hand`);
  if (found.length === 0) return { text: appendBlock(text, mcpLines(entry)), status: "registered" };
  const header = ourTable(list);
  const have = entryOf(list);
  if (!header) return { text, status: have && isMemMcpEntry(have) ? "already-registered" : "conflict" };
  if (have && have.command === entry.command && have.args.length === entry.args.length && have.args.every((a, n) => a === entry.args[n])) return { text, status: "already-registered" };
  // Rewritten in place: the same lines, new paths.
  const body = tableBody(list, header);
  const last = body.at(-1) ?? header;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const tail = text.slice(last.start, last.end).endsWith("\n") ? eol : "";
  return { text: text.slice(0, header.start) + mcpLines(entry).join(eol) + tail + text.slice(last.end), status: "updated" };
}

function dropMcp(text: string): { text: string; status: McpStatus } {
  const list = statements(text);
  if (under(list, MCP_PATH).length === 0) return { text, status: "not-registered" };
  const header = ourTable(list);
  if (!header) return { text, status: "not-ours" };
  return { text: removeTable(text, list, header), status: "removed" };
}

/** config.toml with the hooks feature on and mem's server (`entry`) registered. @throws TomlError */
export function installCodexConfig(text: string, entry: { command: string; args: string[]; withMcp: boolean }): CodexConfigResult {
  const f = addFeature(text);
  const m = entry.withMcp ? setMcp(f.text, entry) : { text: f.text, status: "not-registered" as McpStatus };
  return { text: m.text, changed: m.text !== text, features: f.status, mcp: m.status };
}

/** config.toml without what mem's install wrote into it (and the trust it recorded for the hooks in `hooksFile`). @throws TomlError */
export function uninstallCodexConfig(text: string, withMcp = true, hooksFile?: string): CodexConfigResult {
  const untrusted = hooksFile ? removeTrust(text, hooksFile) : text;
  const m = withMcp ? dropMcp(untrusted) : { text: untrusted, status: "not-registered" as McpStatus };
  const f = removeFeature(m.text);
  return { text: f.text, changed: f.text !== text, features: f.status, mcp: m.status };
}

/** What config.toml holds of mem's, for doctor: the hooks feature and mem's server (ours or a user's that runs mem). */
export function codexConfigState(text: string): { hooksOn: boolean; mcp: "ours" | "runs-mem" | "other" | "none" } {
  const list = statements(text);
  const hooks = findKey(list, ["features", "hooks"]);
  const legacy = findKey(list, ["features", "codex_hooks"]);
  const hooksOn = hooks ? hooks.value === "true" : legacy?.value === "true";
  if (under(list, MCP_PATH).length === 0) return { hooksOn, mcp: "none" };
  const e = entryOf(list);
  return { hooksOn, mcp: ourTable(list) ? "ours" : e && isMemMcpEntry(e) ? "runs-mem" : "other" };
}

/** Codex records a hook's trust as `[hooks.state."<hooks.json path>:<event>:<group>:<handler>"] trusted_hash = "sha256:…"`. */
export const trustKeyOf = (hooksFile: string) => `${hooksFile}:`;

/**
 * config.toml with a marked `[hooks.state."<key>"]` table per hook (its `trusted_hash` as Codex
 * computed it), each replacing a marked one of the same key; a key the user's own table already
 * holds is left (and not in `added`). @throws TomlError
 */
export function addTrust(text: string, entries: { key: string; hash: string }[]): { text: string; added: string[] } {
  const added: string[] = [];
  for (const e of entries) {
    const list = statements(text);
    const header = findTable(list, ["hooks", "state", e.key]);
    if (header && !marked(header)) continue;
    if (header) text = removeTable(text, list, header);
    text = appendBlock(text, [`[hooks.state.${tomlString(e.key)}] ${MARK}`, `trusted_hash = ${tomlString(e.hash)}`]);
    added.push(e.key);
  }
  return { text, added };
}

/** config.toml without the marked trust tables of the hooks in `hooksFile`. @throws TomlError */
export function removeTrust(text: string, hooksFile: string): string {
  for (;;) {
    const list = statements(text);
    const header = list.find((s) => s.kind === "table" && s.table.length === 3 && s.table[0] === "hooks" && s.table[1] === "state" && s.table[2]!.startsWith(trustKeyOf(hooksFile)) && marked(s));
    if (!header) return text;
    text = removeTable(text, list, header);
  }
}
