/**
 * File side of registering mem's MCP server: which file and key a scope means (as
 * `claude mcp add --scope …` writes them, checked against Claude Code 2.1.330), and the same
 * guarantees as the hooks' install: backup, atomic write, idempotent, a diff under --dry-run.
 *
 *   user     <config>/.claude.json, top-level "mcpServers"
 *   local    <config>/.claude.json, "projects" → <project root> → "mcpServers"
 *   project  <project root>/.mcp.json, "mcpServers"
 *
 * <config> is $CLAUDE_CONFIG_DIR when set, else $HOME (Claude Code keeps `.claude.json` beside
 * `.claude/`, or inside the config dir when one is given).
 */
import { join, resolve } from "node:path";
import { homedir } from "node:os";
import { unifiedDiff } from "./diff.js";
import { dataHome } from "../config/paths.cjs";
import { danglingLink, forgetStepsThere, leftEmpty, noteStepsThere, recordHomes, stepsThereBefore } from "./backup.js";
import { projectRoot, writeChange, type Scope, type Where } from "./files.js";
import { readSettingsFile, type SettingsFile } from "./settings-file.js";
import { badStep, installMcp, isMemMcpEntry, MCP_SERVER_KEY, mcpServerEntry, serversAt, stepsThere, uninstallMcp, type McpStatus, type McpTarget } from "./mcp-config.js";
import { duplicateKey, editTopLevel } from "./json-edit.js";
import { formatSettings, SettingsError } from "./settings-json.js";

/** Claude Code's own state file: `$CLAUDE_CONFIG_DIR/.claude.json`, else `~/.claude.json`. */
export function claudeJsonPath(where: Where): string {
  const dir = where.env.CLAUDE_CONFIG_DIR;
  if (dir !== undefined && dir.trim() !== "") return join(resolve(where.cwd, dir), ".claude.json");
  return join(where.env.HOME || where.env.USERPROFILE || homedir(), ".claude.json");
}

/** The file and the path of keys to the `mcpServers` object a scope registers servers in. */
export function mcpLocation(scope: Scope, where: Where): { file: string; path: string[] } {
  if (scope === "project") return { file: join(projectRoot(where.cwd), ".mcp.json"), path: ["mcpServers"] };
  if (scope === "local") return { file: claudeJsonPath(where), path: ["projects", projectRoot(where.cwd), "mcpServers"] };
  return { file: claudeJsonPath(where), path: ["mcpServers"] };
}

export interface McpReport {
  action: "install" | "uninstall";
  scope: Scope;
  file: string;
  changed: boolean;
  backup: string | null;
  status: McpStatus;
  dryRun: boolean;
  created: boolean;
  diff: string;
  warnings: string[];
}

/** Registers (install) or removes (uninstall) `mcpServers.mem` in the scope's file. */
export function applyMcp(opts: { action: "install" | "uninstall"; scope: Scope; where: Where; target?: McpTarget; dryRun?: boolean; now?: Date }): McpReport {
  const { file, path } = mcpLocation(opts.scope, opts.where);
  const refuse = (why: string) => new SettingsError(`refusing to change ${file}: ${why}; nothing was written`);
  const dangling = opts.action === "install" ? danglingLink(file) : undefined; // uninstall: nothing there to change
  if (dangling !== undefined) throw refuse(dangling);
  let read: SettingsFile;
  try {
    read = readSettingsFile(file);
  } catch (err) {
    throw err instanceof SettingsError ? refuse(err.message) : err;
  }
  const bad = badStep(read.settings, path);
  if (bad) throw refuse(bad);
  const home = dataHome(opts.where.env);
  const records = recordHomes(opts.where.env);
  const r = opts.action === "install" ? installMcp(read.settings, path, mcpServerEntry(opts.target!)) : uninstallMcp(read.settings, path, stepsThereBefore(records, file, path));
  const twice = r.changed && read.exists ? duplicateKey(read.text) : undefined;
  if (twice !== undefined) throw new SettingsError(`refusing to change ${file}: the key ${JSON.stringify(twice.slice(0, 80))} appears twice in one object (only the last one counts); nothing was written. Keep one of them and run the command again`);
  const text = !r.changed ? read.text : read.exists ? (editTopLevel(read.text, read.settings, r.config, read.format) ?? formatSettings(r.config, read.format)) : formatSettings(r.config, read.format);
  // A file left holding nothing (.mcp.json, or a ~/.claude.json install created) goes, a backup
  // kept, when install created it and it is no symlink.
  const emptied = opts.action === "uninstall" && r.changed && Object.keys(r.config).length === 0 ? leftEmpty(records, file) : undefined;
  const removeFile = emptied?.remove === true;
  const report: McpReport = {
    action: opts.action,
    scope: opts.scope,
    file,
    changed: r.changed,
    backup: null,
    status: r.status,
    dryRun: opts.dryRun === true,
    created: r.changed && !read.exists,
    diff: !r.changed ? "" : removeFile ? unifiedDiff(read.text, "", file, "/dev/null") : unifiedDiff(read.text, text, read.exists ? file : "/dev/null", file),
    warnings: [],
  };
  const theirs = serversAt(read.settings, path)?.[MCP_SERVER_KEY];
  if (r.status === "conflict" || r.status === "not-ours") {
    report.warnings.push(`${file} registers another MCP server named "${MCP_SERVER_KEY}" (${JSON.stringify(theirs).slice(0, 200)}); mem left it as it is (remove it, or rename it, then run this again)`);
  }
  if (emptied?.remove === false) report.warnings.push(emptied.warning);
  if (opts.action === "install" && opts.scope === "project" && r.changed) {
    report.warnings.push(".mcp.json is usually committed: this entry holds this machine's absolute paths (node, this mem's directory); interactive sessions ask once before they start a project's server. Consider --scope local, or the plugin");
  }
  if (!r.changed || opts.dryRun) return report;
  writeChange(file, text, read, { remove: removeFile, root: opts.scope === "project" ? projectRoot(opts.where.cwd) : undefined, home, records, ...(opts.now ? { now: opts.now } : {}) }, report);
  // What the path held before install is kept on uninstall (Claude Code's `"mcpServers": {}`, say).
  if (r.status === "registered") noteStepsThere(records, file, path, read.exists ? stepsThere(read.settings, path) : 0);
  if (r.status === "removed") forgetStepsThere(records, file, path);
  return report;
}

/** The scopes (with their files) where mem's MCP server is registered, as seen from `where`. */
export function mcpRegistrations(where: Where): { scope: Scope; file: string; entry: unknown; ours: boolean }[] {
  const out: { scope: Scope; file: string; entry: unknown; ours: boolean }[] = [];
  for (const scope of ["local", "project", "user"] as const) {
    const { file, path } = mcpLocation(scope, where);
    let entry: unknown;
    try {
      const read = readSettingsFile(file);
      if (!read.exists) continue;
      entry = serversAt(read.settings, path)?.[MCP_SERVER_KEY];
    } catch {
      continue;
    }
    if (entry !== undefined) out.push({ scope, file, entry, ours: isMemMcpEntry(entry) });
  }
  return out;
}
