/**
 * What `mem install` / `mem uninstall` keep of the files they change: a timestamped backup before
 * each change, and a record of the files install created, so that uninstall removes a file left
 * empty only when mem made it (a `{}` settings file the user had, or committed, stays).
 */
import { createHash } from "node:crypto";
import { chmodSync, constants, copyFileSync, lstatSync, mkdirSync, readlinkSync, rmdirSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
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

/**
 * Copies `file` to `<base>.bak-<timestamp>` (never overwriting an existing backup; `base` defaults
 * to the file's own path); returns the backup's path. The folders it makes are 0700 and the copy
 * 0600 whatever the umask: a settings file can hold an API key in its `env`.
 */
export function backupFile(file: string, now: Date = new Date(), base: string = file): string {
  mkdirSync(dirname(base), { recursive: true, mode: 0o700 });
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
export function leftEmpty(home: string, file: string): { remove: true } | { remove: false; warning: string } {
  const link = isSymlink(file);
  if (!link && createdByMem(home, file)) return { remove: true };
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
export function removeBackedUp(file: string, expected: string, now: Date | undefined, base: string, home: string, report: { backup: string | null }): void {
  const again = readRegular(file, 16 * 1024 * 1024);
  if (!again.ok || again.data.toString("utf8") !== expected) throw new SettingsError(`refusing to change ${file}: it changed while mem was updating it; nothing was written, run the command again`);
  report.backup = backupFile(file, now, base);
  unlinkSync(file);
  forgetCreated(home, file);
  if (basename(dirname(file)) === ".claude") {
    try {
      rmdirSync(dirname(file));
    } catch {
      // not empty: other settings, agents, commands
    }
  }
}

const recordPath = (home: string) => join(home, "install-created.json");

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
    mkdirSync(home, { recursive: true });
    writeFileSync(recordPath(home), `${JSON.stringify(files.filter((f) => f.length <= 4_096).slice(-1_000), null, 1)}\n`);
  } catch {
    // best effort: without the record, uninstall leaves the file holding `{}`
  }
}

/** Install created `file` (it did not exist): uninstall may remove it once it holds nothing. */
export function noteCreated(home: string, file: string): void {
  const files = readRecord(home).filter((f) => f !== file);
  writeRecord(home, [...files, file]);
}

/** Whether install created `file` (and uninstall has not removed it since). */
export function createdByMem(home: string, file: string): boolean {
  return readRecord(home).includes(file);
}

/** `file` (or a fact recorded with noteCreated) leaves the record. */
export function forgetCreated(home: string, file: string): void {
  const files = readRecord(home);
  if (files.includes(file)) writeRecord(home, files.filter((f) => f !== file));
}

/** The entry recording that `file` held an empty `hooks` object before mem's install added to it. */
const emptyHooksEntry = (file: string) => `hooks {} before install: ${file}`;

/** Install added its hooks to an empty `hooks` the user had: uninstall leaves `"hooks": {}` in place. */
export function noteEmptyHooks(home: string, file: string): void {
  const files = readRecord(home).filter((f) => f !== emptyHooksEntry(file));
  writeRecord(home, [...files, emptyHooksEntry(file)]);
}

/** Whether `file` held an empty `hooks` before mem's install (and uninstall has not run since). */
export function hadEmptyHooks(home: string, file: string): boolean {
  return readRecord(home).includes(emptyHooksEntry(file));
}

/** Uninstall has given the empty `hooks` back: the record of it goes. */
export function forgetEmptyHooks(home: string, file: string): void {
  forgetCreated(home, emptyHooksEntry(file));
}
