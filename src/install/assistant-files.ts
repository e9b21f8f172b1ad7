/**
 * File side of `mem install --for codex|gemini|copilot` and the matching uninstall: each file
 * read and its change worked out first (a file that cannot be read or parsed refuses the whole
 * run before anything is written), then written the way Claude Code's settings are: backup into
 * the data home, atomic write, a file install created removed once it holds nothing of anyone
 * else's, and a folder install created removed once empty.
 */
import { readdirSync, rmdirSync, statSync } from "node:fs";
import { dirname, relative, sep } from "node:path";
import { dataHome } from "../config/paths.cjs";
import type { AssistantName } from "../contract/adapter.cjs";
import { readRegular } from "../util/read-regular.cjs";
import { assistantFiles, type AssistantScope } from "./assistant-paths.js";
import { assistantMcpEntry, installAssistantHooks, uninstallAssistantHooks, type Runner } from "./assistant-hooks.js";
import { createdByMem, danglingLink, forgetCreated, forgetEmptyHooks, forgetStepsThere, hadEmptyHooks, leftEmpty, noteCreated, noteEmptyHooks, noteStepsThere, stepsThereBefore } from "./backup.js";
import { addTrust, installCodexConfig, removeTrust, uninstallCodexConfig } from "./codex-config.js";
import { unifiedDiff } from "./diff.js";
import { projectRoot, writeChange, type Action, type Where } from "./files.js";
import { readSettingsFile, refuseReadOnly, type SettingsFile } from "./settings-file.js";
import { duplicateKey, editTopLevel } from "./json-edit.js";
import { badStep, installMcp, stepsThere, uninstallMcp, type McpStatus } from "./mcp-config.js";
import { formatSettings, isObject, SettingsError, type JsonObject } from "./settings-json.js";
import { MARK, statements, TomlError } from "./toml-edit.js";

export interface AssistantFileReport {
  assistant: AssistantName;
  scope: AssistantScope;
  file: string;
  /** What mem keeps in it: "hooks", "MCP server", "hooks, MCP server", "hooks feature, MCP server". */
  holds: string;
  changed: boolean;
  created: boolean;
  removed: boolean;
  backup: string | null;
  diff: string;
  /** install: installed | updated | already-installed; uninstall: uninstalled | not-installed. */
  status: "installed" | "updated" | "already-installed" | "uninstalled" | "not-installed";
  events: string[];
  mcp?: McpStatus;
  warnings: string[];
}

export interface Plan {
  report: AssistantFileReport;
  before: { text: string; exists: boolean };
  after: string;
  /** Facts to record once written: the user's empty `hooks`, a text without a final line end. */
  onWrite: (() => void)[];
}

export interface AssistantOptions {
  action: Action;
  assistant: AssistantName;
  scope: AssistantScope;
  where: Where;
  runner?: Runner;
  withMcp: boolean;
  now?: Date;
}

const MAX_BYTES = 16 * 1024 * 1024;
const refuse = (file: string, why: string) => new SettingsError(`refusing to change ${file}: ${why}; nothing was written`);

function readJson(file: string, action: Action): SettingsFile {
  const dangling = action === "install" ? danglingLink(file) : undefined;
  if (dangling !== undefined) throw refuse(file, dangling);
  try {
    return readSettingsFile(file);
  } catch (err) {
    throw err instanceof SettingsError ? refuse(file, err.message) : err;
  }
}

const installStatus = (changed: boolean, had: boolean) => (!changed ? "already-installed" : had ? "updated" : "installed");

function base(o: AssistantOptions, file: string, holds: string): AssistantFileReport {
  return { assistant: o.assistant, scope: o.scope, file, holds, changed: false, created: false, removed: false, backup: null, diff: "", status: o.action === "install" ? "already-installed" : "not-installed", events: [], warnings: [] };
}

/** A JSON file's plan: hooks (when `hooks`), and `mcpServers.mem` (when `mcp`). */
function planJson(o: AssistantOptions, file: string, parts: { hooks: boolean; mcp: boolean }, home: string): Plan {
  const read = readJson(file, o.action);
  const r = base(o, file, [parts.hooks && "hooks", parts.mcp && "MCP server"].filter(Boolean).join(", "));
  let obj: JsonObject = read.settings;
  const facts: (() => void)[] = [];
  let had = false;
  try {
    if (parts.hooks) {
      const emptyBefore = o.action === "install" ? isObject(obj.hooks) && Object.keys(obj.hooks).length === 0 : hadEmptyHooks(home, file);
      const m = o.action === "install" ? installAssistantHooks(o.assistant, obj, o.runner!) : uninstallAssistantHooks(o.assistant, obj, emptyBefore);
      had = m.status === "updated";
      r.events = m.events;
      obj = m.settings;
      if (m.changed && emptyBefore) facts.push(() => (o.action === "install" ? noteEmptyHooks(home, file) : forgetEmptyHooks(home, file)));
    }
    if (parts.mcp) {
      const bad = badStep(obj, ["mcpServers"]);
      if (bad) throw new SettingsError(bad);
      // The user's own `"mcpServers": {}` stays when mem's entry goes: how much of the path was there is recorded at install.
      const path = ["mcpServers"];
      const m = o.action === "install" ? installMcp(obj, path, assistantMcpEntry(o.assistant, o.runner!)) : uninstallMcp(obj, path, stepsThereBefore(home, file, path));
      r.mcp = m.status;
      if (m.status === "registered") {
        const there = read.exists ? stepsThere(obj, path) : 0;
        facts.push(() => noteStepsThere(home, file, path, there));
      } else if (m.status === "removed") facts.push(() => forgetStepsThere(home, file, path));
      obj = m.config;
      if (m.status === "updated") had = true;
      if (m.status === "conflict" || m.status === "not-ours") r.warnings.push(`${file} has an MCP server named "mem" that is not mem's; left as it is (remove or rename it, then run this again)`);
    }
  } catch (err) {
    throw err instanceof SettingsError ? refuse(file, err.message) : err;
  }
  const changed = JSON.stringify(obj) !== JSON.stringify(read.settings) || (o.action === "install" && !read.exists);
  const twice = changed && read.exists ? duplicateKey(read.text) : undefined;
  if (twice !== undefined) throw refuse(file, `the key ${JSON.stringify(twice.slice(0, 80))} appears twice in one object (only the last one counts)`);
  const text = !changed ? read.text : read.exists ? (editTopLevel(read.text, read.settings, obj, read.format) ?? formatSettings(obj, read.format)) : formatSettings(obj, read.format);
  // Copilot's hooks file holds `version` beside mem's hooks: without them it is empty.
  const empty = Object.keys(obj).length === 0 || (o.assistant === "copilot" && parts.hooks && Object.keys(obj).every((k) => k === "version"));
  const emptied = o.action === "uninstall" && changed && empty ? leftEmpty(home, file) : undefined;
  if (emptied?.remove === false && Object.keys(obj).length === 0) r.warnings.push(emptied.warning);
  r.removed = emptied?.remove === true;
  r.changed = changed;
  r.created = o.action === "install" && !read.exists;
  r.status = o.action === "install" ? installStatus(changed, had) : changed ? "uninstalled" : "not-installed";
  r.diff = !changed ? "" : r.removed ? unifiedDiff(read.text, "", file, "/dev/null") : unifiedDiff(read.text, text, read.exists ? file : "/dev/null", file);
  return { report: r, before: { text: read.text, exists: read.exists }, after: text, onWrite: facts };
}

const NO_FINAL_EOL = (file: string) => `no final line end before install: ${file}`;

type TomlEdit = (before: string) => { text: string; status: AssistantFileReport["status"]; mcp?: McpStatus; warnings?: string[] };

/** A TOML file's plan (Codex's config.toml), through `edit`; a text without a final line end gets it back at uninstall. */
function planToml(o: AssistantOptions, file: string, home: string, holds: string, edit: TomlEdit): Plan {
  const dangling = o.action === "install" ? danglingLink(file) : undefined;
  if (dangling !== undefined) throw refuse(file, dangling);
  const got = readRegular(file, MAX_BYTES);
  if (!got.ok && got.why !== "absent") throw refuse(file, got.reason);
  const before = got.ok ? got.data.toString("utf8") : "";
  const r = base(o, file, holds);
  let after: string;
  const facts: (() => void)[] = [];
  try {
    statements(before);
    const c = edit(before);
    after = c.text;
    r.status = c.status;
    if (c.mcp) r.mcp = c.mcp;
    r.warnings.push(...(c.warnings ?? []));
    if (o.action === "install" && after !== before && before !== "" && !before.endsWith("\n")) facts.push(() => noteCreated(home, NO_FINAL_EOL(file)));
    if (o.action === "uninstall" && after !== before) {
      if (createdByMem(home, NO_FINAL_EOL(file)) && !after.includes(MARK)) after = after.replace(/\r?\n$/, "");
      if (!after.includes(MARK)) facts.push(() => forgetCreated(home, NO_FINAL_EOL(file)));
    }
    if (r.mcp === "conflict" || r.mcp === "not-ours") r.warnings.push(`${file} has an MCP server named "mem" that is not mem's; left as it is`);
    if (after !== before) statements(after);
  } catch (err) {
    if (err instanceof TomlError) throw refuse(file, `not valid TOML: ${err.message}`);
    throw err;
  }
  r.changed = after !== before || (o.action === "install" && !got.ok);
  r.created = o.action === "install" && !got.ok;
  const emptied = o.action === "uninstall" && r.changed && after.trim() === "" ? leftEmpty(home, file) : undefined;
  r.removed = emptied?.remove === true;
  r.diff = !r.changed ? "" : r.removed ? unifiedDiff(before, "", file, "/dev/null") : unifiedDiff(before, after, got.ok ? file : "/dev/null", file);
  return { report: r, before: { text: before, exists: got.ok }, after, onWrite: facts };
}

/** Codex's config.toml of the scope: the hooks feature and `[mcp_servers.mem]` (uninstall: and the trust mem recorded there). */
function codexConfig(o: AssistantOptions, file: string, hooksFile: string, home: string): Plan {
  return planToml(o, file, home, o.withMcp ? "hooks feature, MCP server" : "hooks feature", (before) => {
    if (o.action === "uninstall") {
      const c = uninstallCodexConfig(before, o.withMcp, hooksFile);
      return { text: c.text, status: c.changed ? "uninstalled" : "not-installed", ...(o.withMcp ? { mcp: c.mcp } : {}) };
    }
    const c = installCodexConfig(before, { command: o.runner!.node, args: [o.runner!.bin, "mcp"], withMcp: o.withMcp });
    const warnings = c.features === "off" ? [`${file} sets [features] hooks = false: Codex runs no hook; mem left it so (set it to true to use mem's hooks)`] : [];
    return { text: c.text, status: installStatus(c.changed, c.mcp === "updated"), ...(o.withMcp ? { mcp: c.mcp } : {}), warnings };
  });
}

/**
 * The trust of mem's Codex hooks in the user's config.toml (where Codex keeps it): install records
 * `entries` (their hashes as Codex itself computed them, codex-trust.ts); uninstall takes out what
 * mem recorded for the scope's hooks.json.
 */
export function codexTrustPlan(o: AssistantOptions, entries: { key: string; hash: string }[] = []): Plan {
  const home = dataHome(o.where.env);
  const file = assistantFiles("codex", "user", o.where).mcp;
  const hooksFile = assistantFiles("codex", o.scope, o.where).hooks;
  return planToml(o, file, home, "hook trust", (before) => {
    if (o.action === "uninstall") {
      const text = removeTrust(before, hooksFile);
      return { text, status: text !== before ? "uninstalled" : "not-installed" };
    }
    const t = addTrust(before, entries);
    return { text: t.text, status: installStatus(t.text !== before, false) };
  });
}

/** Every file one assistant's install or uninstall changes, worked out, nothing written. @throws SettingsError */
export function planAssistant(o: AssistantOptions): Plan[] {
  const home = dataHome(o.where.env);
  const f = assistantFiles(o.assistant, o.scope, o.where);
  if (o.assistant === "gemini") return [planJson(o, f.hooks, { hooks: true, mcp: o.withMcp }, home)];
  const hooks = planJson(o, f.hooks, { hooks: true, mcp: false }, home);
  if (o.assistant === "codex") {
    const config = codexConfig(o, f.mcp, f.hooks, home);
    // Project scope: the trust mem recorded is in the user's config.toml.
    const trust = o.action === "uninstall" && o.scope === "project" ? [codexTrustPlan(o)].filter((p) => p.report.changed) : [];
    return [hooks, config, ...trust];
  }
  return o.withMcp ? [hooks, planJson(o, f.mcp, { hooks: false, mcp: true }, home)] : [hooks];
}

/** The folders above `file`, up to `stop`, that do not exist yet (deepest first). */
function missingDirs(file: string, stop: string): string[] {
  const out: string[] = [];
  for (let d = dirname(file); d !== stop && d !== dirname(d) && !relative(stop, d).startsWith(".."); d = dirname(d)) {
    try {
      statSync(d);
      break;
    } catch {
      out.push(d);
    }
  }
  return out;
}

/** The folders above a removed `file` that install created, removed while empty. */
function removeDirs(file: string, home: string): void {
  for (let d = dirname(file); d !== dirname(d); d = dirname(d)) {
    if (!createdByMem(home, d + sep)) return;
    try {
      if (readdirSync(d).length > 0) return;
      rmdirSync(d);
      forgetCreated(home, d + sep);
    } catch {
      return;
    }
  }
}

/** Refuses (nothing written) when a file to change is read-only; call for every plan before `commit`. */
export function checkWritable(plans: Plan[]): void {
  for (const p of plans) if (p.report.changed) refuseReadOnly(p.report.file);
}

/** Writes the plans (unless `dryRun`); returns their reports. */
export function commit(plans: Plan[], o: { where: Where; dryRun: boolean; now?: Date }): AssistantFileReport[] {
  const home = dataHome(o.where.env);
  for (const p of plans) {
    const r = p.report;
    if (!r.changed || o.dryRun) continue;
    const stop = r.scope === "project" ? projectRoot(o.where.cwd) : dirname(assistantFiles(r.assistant, "user", o.where).base);
    const dirs = r.created ? missingDirs(r.file, stop) : [];
    writeChange(r.file, p.after, p.before, { remove: r.removed, root: r.scope === "project" ? projectRoot(o.where.cwd) : undefined, home, ...(o.now ? { now: o.now } : {}) }, r);
    for (const d of dirs) noteCreated(home, d + sep);
    for (const f of p.onWrite) f();
    if (r.removed) removeDirs(r.file, home);
  }
  return plans.map((p) => p.report);
}
