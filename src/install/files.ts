/**
 * File side of `mem install` / `mem uninstall`: which settings file a scope means, and the change
 * of it (read, merged or taken out, backed up, written: ./settings-file.ts reads and writes it).
 * Every function takes its paths and environment explicitly, so tests never touch the real ~/.claude.
 */
import { execFileSync } from "node:child_process";
import { homedir } from "node:os";
import { join, relative, resolve } from "node:path";
import { dataHome } from "../config/paths.cjs";
import { resolveProject } from "../project/identity.js";
import { duplicateKey, editTopLevel } from "./json-edit.js";
import { backupFile, backupPlace, danglingLink, forgetEmptyHooks, hadEmptyHooks, leftEmpty, noteCreated, noteEmptyHooks, recordHomes, removeBackedUp } from "./backup.js";
import { unifiedDiff } from "./diff.js";
import type { HookTarget } from "./hooks.js";
import { findMemHooks, installHooks, lookalikeWarning, uninstallHooks, type InstallStatus, type MergeResult, type UninstallStatus } from "./settings.js";
import { formatSettings, isObject, sameJson, SettingsError, type JsonObject } from "./settings-json.js";
import { readSettingsFile, refuseReadOnly, writeFileAtomic, type SettingsFile } from "./settings-file.js";

export const SCOPES = ["user", "project", "local"] as const;
export type Scope = (typeof SCOPES)[number];

/** The environment and working directory the scope paths are resolved from. */
export interface Where {
  env: Record<string, string | undefined>;
  cwd: string;
}

/** `$CLAUDE_CONFIG_DIR` when set (it replaces `~/.claude`, HOOKS.md §5.1), else `$HOME/.claude`. */
export function userConfigDir(where: Where): string {
  const dir = where.env.CLAUDE_CONFIG_DIR;
  if (dir !== undefined && dir.trim() !== "") return resolve(where.cwd, dir);
  const home = where.env.HOME || where.env.USERPROFILE || homedir();
  return join(home, ".claude");
}

/** The git top level enclosing `cwd` (a `.git` directory or file), else `cwd` itself. */
export function projectRoot(cwd: string): string {
  return resolveProject(cwd).root ?? resolve(cwd);
}

/** The settings file a scope writes (HOOKS.md §1.1). */
export function settingsPath(scope: Scope, where: Where): string {
  if (scope === "user") return join(userConfigDir(where), "settings.json");
  return join(projectRoot(where.cwd), ".claude", scope === "project" ? "settings.json" : "settings.local.json");
}

export type Action = "install" | "uninstall";

export interface ApplyReport {
  action: Action;
  scope: Scope;
  file: string;
  /** The file differs (or would differ, under --dry-run) from what was there. */
  changed: boolean;
  /** The backup of the previous file; null when nothing was written or there was no file. */
  backup: string | null;
  /** install: the events our hooks are registered for; uninstall: the events they were removed from. */
  events: string[];
  status: "installed" | "updated" | "already-installed" | "uninstalled" | "not-installed";
  dryRun: boolean;
  /** The file did not exist (install creates it). */
  created: boolean;
  /** Unified diff of the change ("" when unchanged). */
  diff: string;
  /** uninstall: the file held nothing but mem's hooks and was removed (its backup kept). */
  removed: boolean;
  warnings: string[];
}

export interface ApplyOptions {
  scope: Scope;
  where: Where;
  /** Defaults to the scope's file. */
  file?: string;
  dryRun?: boolean;
  now?: Date;
}

function apply(action: Action, opts: ApplyOptions, target?: HookTarget): ApplyReport {
  const file = opts.file ?? settingsPath(opts.scope, opts.where);
  const dangling = action === "install" ? danglingLink(file) : undefined; // uninstall: nothing there to change
  if (dangling !== undefined) throw new SettingsError(`refusing to change ${file}: ${dangling}; nothing was written`);
  let read: SettingsFile;
  try {
    read = readSettingsFile(file);
  } catch (err) {
    if (err instanceof SettingsError) throw new SettingsError(`refusing to change ${file}: ${err.message}; nothing was written`);
    throw err;
  }
  const home = dataHome(opts.where.env);
  const records = recordHomes(opts.where.env);
  // A user's own empty `"hooks": {}` is still there after uninstall.
  const emptyHooks = action === "install" ? isObject(read.settings.hooks) && Object.keys(read.settings.hooks).length === 0 : hadEmptyHooks(records, file);
  let result: MergeResult<InstallStatus> | MergeResult<UninstallStatus>;
  try {
    result = action === "install" ? installHooks(read.settings, target!) : uninstallHooks(read.settings, emptyHooks);
  } catch (err) {
    if (err instanceof SettingsError) throw new SettingsError(`refusing to change ${file}: ${err.message}; nothing was written`);
    throw err;
  }
  const changed = result.changed || (action === "install" && !read.exists);
  const twice = changed && read.exists ? duplicateKey(read.text) : undefined;
  if (twice !== undefined) throw new SettingsError(`refusing to change ${file}: the key ${JSON.stringify(twice.slice(0, 80))} appears twice in one object (only the last one counts); nothing was written. Keep one of them and run the command again`);
  const text = !changed ? read.text : read.exists ? (editTopLevel(read.text, read.settings, result.settings, read.format) ?? formatSettings(result.settings, read.format)) : formatSettings(result.settings, read.format);
  // A settings file that held nothing but mem's hooks goes with them (a backup is kept) when mem's
  // install created it, and it is not a symlink (a dotfile manager's link stays, holding `{}`).
  const emptied = action === "uninstall" && result.changed && Object.keys(result.settings).length === 0 ? leftEmpty(records, file) : undefined;
  const removeFile = emptied?.remove === true;
  const report: ApplyReport = {
    action,
    scope: opts.scope,
    file,
    changed,
    backup: null,
    events: result.events,
    status: result.status,
    dryRun: opts.dryRun === true,
    created: action === "install" && !read.exists,
    diff: !changed ? "" : removeFile ? unifiedDiff(read.text, "", file, "/dev/null") : unifiedDiff(read.text, text, read.exists ? file : "/dev/null", file),
    removed: removeFile,
    warnings: [...warnings(action, opts, file, result.settings, target), ...(emptied?.remove === false ? [emptied.warning] : [])],
  };
  if (!changed || opts.dryRun) return report;
  writeChange(file, text, read, { remove: removeFile, root: opts.scope === "user" ? undefined : projectRoot(opts.where.cwd), home, records, ...(opts.now ? { now: opts.now } : {}) }, report);
  if (action === "install" && emptyHooks) noteEmptyHooks(records, file);
  if (action === "uninstall" && emptyHooks) forgetEmptyHooks(records, file);
  return report;
}

/**
 * Writes what install or uninstall made of `file` (its text before: `read`): removes it (after a
 * backup) when `o.remove`, else writes `text` atomically, backing up what was there (into the data
 * home for a file of the project at `o.root`); a file install created is recorded.
 */
export function writeChange(file: string, text: string, read: { text: string; exists: boolean }, o: { remove: boolean; root: string | undefined; home: string; records?: readonly string[]; now?: Date }, report: { backup: string | null; created: boolean }): void {
  refuseReadOnly(file);
  const place = backupPlace(file, o.root, o.home);
  if (o.remove) {
    removeBackedUp(file, read.text, o.now, place, o.records ?? o.home, report);
    return;
  }
  writeFileAtomic(file, text, read.text, () => {
    if (read.exists) report.backup = backupFile(file, place, o.now);
  });
  if (report.created) noteCreated(o.records ?? o.home, file);
}

/** Merges our hooks into the scope's settings file (idempotent; backup; atomic). */
export function installToFile(opts: ApplyOptions & { target: HookTarget }): ApplyReport {
  return apply("install", opts, opts.target);
}

/** Removes our hooks from the scope's settings file (backup; atomic). */
export function uninstallFromFile(opts: ApplyOptions): ApplyReport {
  return apply("uninstall", opts);
}

function tryRead(file: string): JsonObject | undefined {
  try {
    const r = readSettingsFile(file);
    return r.exists ? r.settings : undefined;
  } catch {
    return undefined;
  }
}

/** Things the user should know: duplicates in other scopes, the plugin, disabled hooks, shared files. */
function warnings(action: Action, opts: ApplyOptions, file: string, after: JsonObject, target: HookTarget | undefined): string[] {
  const out: string[] = [];
  const ours = findMemHooks(after);
  const files = new Map<Scope, string>();
  for (const s of SCOPES) files.set(s, s === opts.scope ? file : settingsPath(s, opts.where));
  for (const [scope, other] of files) {
    const settings = scope === opts.scope ? after : other === file ? undefined : tryRead(other);
    if (!settings) continue;
    const plugins = settings.enabledPlugins;
    if (action === "install" && isObject(plugins) && Object.entries(plugins).some(([k, v]) => /^mem@/.test(k) && v === true)) {
      out.push(`the mem plugin is enabled in ${other}: its hooks run in addition to these, so every event would be handled twice; install one or the other`);
    }
    if (scope === opts.scope) continue;
    const theirs = findMemHooks(settings);
    if (theirs.length === 0) continue;
    if (action === "uninstall") out.push(`mem hooks are still installed in ${other} (run \`mem uninstall --scope ${scope}\` to remove them)`);
    else if (!theirs.every((t) => ours.some((o) => o.event === t.event && sameJson(o.handler, t.handler)))) {
      out.push(`mem hooks with other paths or settings are also installed in ${other}; both would run (remove them with \`mem uninstall --scope ${scope}\`)`);
    }
  }
  const lookalikes = lookalikeWarning(file, after);
  if (lookalikes) out.push(lookalikes);
  if (action === "install" && after.disableAllHooks === true) out.push(`${file} sets "disableAllHooks": true, so no hook in it runs`);
  if (action === "install" && opts.scope === "project" && target) {
    out.push("project settings are usually committed: these hooks hold this machine's absolute paths (node, this mem's directory); teammates without them would see hook errors. Consider --scope local, or the plugin");
  }
  if (action === "install" && opts.scope === "local") {
    const root = projectRoot(opts.where.cwd);
    const rel = relative(root, file);
    try {
      const env = { ...process.env };
      for (const [k, v] of Object.entries(opts.where.env)) if (v !== undefined) env[k] = v;
      execFileSync("git", ["check-ignore", "-q", "--", rel], { cwd: root, env, stdio: "ignore", timeout: 5_000 });
    } catch (err) {
      // exit 1: not ignored; anything else (no git, not a repo) says nothing
      if ((err as { status?: number }).status === 1) out.push(`${rel} is not git-ignored; add it to .gitignore (it holds machine-specific paths)`);
    }
  }
  return out;
}
