/**
 * What `mem install` / `mem uninstall` keep of the files they change: a timestamped backup before
 * each change, and a record of the files install created, so that uninstall removes a file left
 * empty only when mem made it (a `{}` settings file the user had, or committed, stays).
 */
import { createHash } from "node:crypto";
import { chmodSync, constants, copyFileSync, lstatSync, readlinkSync, rmdirSync, statSync, unlinkSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { dataHome } from "../config/paths.cjs";
import { ensurePrivateDir } from "../util/private-dir.cjs";
import { replacePrivate } from "../util/private-file.cjs";
import { privateDir } from "../util/private-place.cjs";
import { readRegular } from "../util/read-regular.cjs";
import { SettingsError } from "./settings-json.js";

const MAX_RECORD_BYTES = 8 * 1024 * 1024;

function stamp(now: Date): string {
  return now.toISOString().replace(/[:.]/g, "-");
}

/**
 * Where the backup of `file` goes, without its `.bak-<time>` suffix: always into the data home
 * `home`, never beside the file (no backup litters the user's home or shows in `git status`). A
 * file of a project (`root`: project and local scope settings, `.mcp.json`) goes to
 * `<home>/backups/install/<project folder>-<hash of its path>/<path in the project>`; any other
 * (the user's settings, `~/.claude.json`; `root` undefined) to
 * `<home>/backups/install/<its folder's name>-<hash of the folder's path>/<file name>`.
 */
export function backupBase(file: string, root: string | undefined, home: string): string {
  const tag = (p: string) => createHash("sha256").update(p).digest("hex").slice(0, 8);
  const rel = root === undefined ? "" : relative(root, resolve(root, file));
  if (root === undefined || rel === "" || rel.startsWith("..") || isAbsolute(rel)) {
    const dir = dirname(resolve(file));
    return join(home, "backups", "install", `${basename(dir) || "root"}-${tag(dir)}`, basename(file));
  }
  return join(home, "backups", "install", `${basename(root)}-${tag(root)}`, rel);
}

/** Where a backup goes: the data home it is kept in, and its path there without the `.bak-<time>` suffix (backupBase). */
export interface BackupPlace {
  home: string;
  base: string;
}

/** Where the backup of `file` goes in the data home `home` (see backupBase). */
export const backupPlace = (file: string, root: string | undefined, home: string): BackupPlace => ({ home, base: backupBase(file, root, home) });

/**
 * Makes the data home `home` and every folder from it down to `dir` private, as the rest of the
 * data home is: 0700 whatever the umask, one an older mem (or a loose umask) left open closed
 * again; a symlink or another user's folder on the way is refused. @throws Error
 */
export function privateFolders(home: string, dir: string): void {
  ensurePrivateDir(home);
  const rel = relative(home, dir);
  if (rel !== "" && (rel.startsWith("..") || isAbsolute(rel))) throw new Error(`${dir} is not in the data home ${home}`);
  let d = home;
  for (const part of rel === "" ? [] : rel.split(sep)) {
    d = join(d, part);
    const v = privateDir(d);
    if (!v.ok) throw new Error(`no backup written: ${v.why}`);
  }
}

/**
 * Copies `file` to `<base>.bak-<timestamp>` in the data home (never overwriting an existing
 * backup); returns the backup's path. The folders from the data home down are 0700 and the copy
 * 0600 whatever the umask: a settings file can hold an API key in its `env`.
 */
export function backupFile(file: string, place: BackupPlace, now: Date = new Date()): string {
  const base = place.base;
  privateFolders(place.home, dirname(base));
  const first = `${base}.bak-${stamp(now)}`;
  for (let n = 1; ; n++) {
    const path = n === 1 ? first : `${first}-${n}`;
    try {
      copyFileSync(file, path, constants.COPYFILE_EXCL);
      chmodSync(path, 0o600);
      return path;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || n > 100) throw err;
    }
  }
}

/**
 * Why `file`, a symlink, leads to no file ("a symlink to /x, which does not exist", "… a loop of
 * symlinks"), and the fix; undefined for anything else (a dotfile manager's link before its file exists).
 */
export function danglingLink(file: string): string | undefined {
  if (!isSymlink(file)) return undefined;
  try {
    statSync(file);
    return undefined;
  } catch (err) {
    let target = "(unreadable)";
    try {
      target = resolve(dirname(file), readlinkSync(file));
    } catch {
      // keep "(unreadable)"
    }
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "does not exist" : code === "ELOOP" ? "is a loop of symlinks" : `cannot be read (${code ?? "error"})`;
    return `it is a symlink to ${target}, which ${why}; create that file (\`{}\` will do) or fix the link`;
  }
}

/**
 * What uninstall does with a file it left holding nothing (`{}`): removes it when install created
 * it and it is no symlink (`remove`), else keeps it and says why (`warning`).
 */
export function leftEmpty(homes: RecordHomes, file: string): { remove: true } | { remove: false; warning: string } {
  const link = isSymlink(file);
  if (!link && createdByMem(homes, file)) return { remove: true };
  return { remove: false, warning: `${file} now holds nothing ({}); it stays, as ${link ? "it is a symlink" : "mem's install did not create it (or did with another data home)"}: remove it if nothing needs it` };
}

export function isSymlink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Removes `file` after backing it up, unless it no longer holds `expected` (then nothing is
 * touched and an error is thrown); a `.claude` folder left empty goes too. The file leaves the
 * record of those install created.
 */
export function removeBackedUp(file: string, expected: string, now: Date | undefined, place: BackupPlace, homes: RecordHomes, report: { backup: string | null }): void {
  const again = readRegular(file, 16 * 1024 * 1024);
  if (!again.ok || again.data.toString("utf8") !== expected) throw new SettingsError(`refusing to change ${file}: it changed while mem was updating it; nothing was written, run the command again`);
  report.backup = backupFile(file, place, now);
  unlinkSync(file);
  forgetCreated(homes, file);
  if (basename(dirname(file)) === ".claude") {
    try {
      rmdirSync(dirname(file));
    } catch {
      // not empty: other settings, agents, commands
    }
  }
}

const recordPath = (home: string) => join(home, "install-created.json");

/** Where the record is kept: one data home, or several (each written, their union read). */
export type RecordHomes = string | readonly string[];
const homesOf = (h: RecordHomes): string[] => [...new Set(typeof h === "string" ? [h] : h)];

/**
 * The data homes that keep install's record: this environment's, and the one Claude Code's hooks
 * use (the default, without MEM_HOME) when MEM_HOME points elsewhere, so that an install run from
 * a shell with a throwaway MEM_HOME is still known to an uninstall run from another shell. The
 * default one only when it lies in $HOME: an environment that moved HOME elsewhere (a sandbox, a
 * test) never writes into a data home outside it.
 */
export function recordHomes(env: NodeJS.ProcessEnv): string[] {
  const own = dataHome(env);
  const usual = dataHome({ ...env, MEM_HOME: "" });
  const home = env.HOME ? resolve(env.HOME) : undefined;
  const inHome = home !== undefined && !relative(home, usual).startsWith("..") && !isAbsolute(relative(home, usual));
  return homesOf(inHome ? [own, usual] : [own]);
}

function hasEntry(homes: RecordHomes, entry: string): boolean {
  return homesOf(homes).some((h) => readRecord(h).includes(entry));
}

function addEntry(homes: RecordHomes, entry: string): void {
  for (const h of homesOf(homes)) writeRecord(h, [...readRecord(h).filter((f) => f !== entry), entry]);
}

function dropEntry(homes: RecordHomes, entry: string): void {
  for (const h of homesOf(homes)) {
    const files = readRecord(h);
    if (files.includes(entry)) writeRecord(h, files.filter((f) => f !== entry));
  }
}

function readRecord(home: string): string[] {
  const r = readRegular(recordPath(home), MAX_RECORD_BYTES);
  if (!r.ok) return [];
  try {
    const v = JSON.parse(r.data.toString("utf8")) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

function writeRecord(home: string, files: string[]): void {
  try {
    if (files.length === 0) {
      // Nothing left to remember: no file of `[]` left behind, nor a folder made only to hold it.
      try {
        unlinkSync(recordPath(home));
        rmdirSync(home);
      } catch {
        // no record there, or a data home in use (not empty)
      }
      return;
    }
    // Private as the rest of the data home (0600 in a 0700 folder, whatever the umask): it names the user's files.
    ensurePrivateDir(home);
    replacePrivate(recordPath(home), `${JSON.stringify(files.filter((f) => f.length <= 4_096).slice(-1_000), null, 1)}\n`);
  } catch {
    // best effort: without the record, uninstall leaves the file holding `{}`
  }
}

/** Install created `file` (it did not exist): uninstall may remove it once it holds nothing. */
export function noteCreated(homes: RecordHomes, file: string): void {
  addEntry(homes, file);
}

/** Whether install created `file` (and uninstall has not removed it since). */
export function createdByMem(homes: RecordHomes, file: string): boolean {
  return hasEntry(homes, file);
}

/** `file` (or a fact recorded with noteCreated) leaves the record. */
export function forgetCreated(homes: RecordHomes, file: string): void {
  dropEntry(homes, file);
}

/** The entry recording that `file` held an empty `hooks` object before mem's install added to it. */
const emptyHooksEntry = (file: string) => `hooks {} before install: ${file}`;

/** Install added its hooks to an empty `hooks` the user had: uninstall leaves `"hooks": {}` in place. */
export function noteEmptyHooks(homes: RecordHomes, file: string): void {
  addEntry(homes, emptyHooksEntry(file));
}

/** Whether `file` held an empty `hooks` before mem's install (and uninstall has not run since). */
export function hadEmptyHooks(homes: RecordHomes, file: string): boolean {
  return hasEntry(homes, emptyHooksEntry(file));
}

/** Uninstall has given the empty `hooks` back: the record of it goes. */
export function forgetEmptyHooks(homes: RecordHomes, file: string): void {
  dropEntry(homes, emptyHooksEntry(file));
}

/** The entry recording how many steps of the path to mem's MCP entry `file` had before install made the rest. */
const stepsEntry = (file: string, path: readonly string[]) => `mcp path steps before install: ${JSON.stringify([file, ...path])} `;

/**
 * Install registered mem's MCP server in `file` at `path`, whose first `steps` objects were there
 * already: uninstall keeps them, even left empty, so that the file goes back as it was.
 */
export function noteStepsThere(homes: RecordHomes, file: string, path: readonly string[], steps: number): void {
  const key = stepsEntry(file, path);
  for (const h of homesOf(homes)) {
    const files = readRecord(h);
    const kept = files.filter((f) => !f.startsWith(key));
    if (steps > 0) writeRecord(h, [...kept, `${key}${steps}`]);
    else if (kept.length !== files.length) writeRecord(h, kept);
  }
}

/** How many steps of `path` in `file` were there before install (0: none, or no record of it). */
export function stepsThereBefore(homes: RecordHomes, file: string, path: readonly string[]): number {
  const key = stepsEntry(file, path);
  const hit = homesOf(homes)
    .flatMap((h) => readRecord(h))
    .find((f) => f.startsWith(key));
  const n = hit === undefined ? 0 : Number(hit.slice(key.length));
  return Number.isInteger(n) && n >= 0 && n <= path.length ? n : 0;
}

/** Uninstall has removed mem's entry: the record of the steps goes. */
export function forgetStepsThere(homes: RecordHomes, file: string, path: readonly string[]): void {
  noteStepsThere(homes, file, path, 0);
}
