/**
 * A settings file of Claude Code's (or another assistant's) as install and uninstall read and
 * write it: read only when it is a regular file of a sane size, written atomically (a temp file
 * in the same folder, then a rename) and only if nobody changed it meanwhile, and never when its
 * owner made it read-only.
 */
import { closeSync, fchmodSync, fsyncSync, lstatSync, mkdirSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { readRegular } from "../util/read-regular.cjs";
import { parseSettingsText, SettingsError, type JsonObject, type TextFormat } from "./settings-json.js";

export interface SettingsFile {
  file: string;
  exists: boolean;
  /** The file's text ("" when absent). */
  text: string;
  settings: JsonObject;
  format: TextFormat;
}

/** A settings file larger than this is not Claude Code's. */
const MAX_SETTINGS_BYTES = 16 * 1024 * 1024;

/**
 * Reads and parses a settings file; an absent file is an empty object.
 * @throws SettingsError when it is not valid JSON, not an object, or has a non-object `hooks`.
 */
export function readSettingsFile(file: string): SettingsFile {
  // Only a regular file is read (a FIFO or a device there would hang or exhaust the command).
  const r = readRegular(file, MAX_SETTINGS_BYTES);
  if (!r.ok) {
    if (r.why === "absent") return { file, exists: false, text: "", ...parseSettingsText("") };
    throw new SettingsError(r.why === "special" && r.reason.includes("directory") ? "it is a directory" : r.reason);
  }
  const text = r.data.toString("utf8");
  return { file, exists: true, text, ...parseSettingsText(text) };
}

/** The path to write: the target of a symlink (dotfile managers link settings.json), else the path. */
function writePath(file: string): string {
  try {
    if (lstatSync(file).isSymbolicLink()) return realpathSync(file);
  } catch {
    // absent
  }
  return file;
}

/**
 * Writes `text` to `file` atomically: a temp file in the same directory (same mode as the old
 * file), fsync, then rename over it. `expected` is the text read before: when the file changed
 * meanwhile (Claude Code writes settings too), nothing is written and an error is thrown.
 * `beforeRename` runs just before the rename (the backup).
 */
export function writeFileAtomic(file: string, text: string, expected?: string, beforeRename?: () => void): void {
  const target = writePath(file);
  const dir = dirname(target);
  mkdirSync(dir, { recursive: true });
  let mode: number | undefined;
  try {
    mode = statSync(target).mode & 0o7777;
  } catch {
    // new file: default mode (umask applies)
  }
  const tmp = join(dir, `.${basename(target)}.mem-tmp-${process.pid}-${Math.random().toString(36).slice(2, 10)}`);
  const fd = openSync(tmp, "wx", mode ?? 0o666);
  try {
    try {
      if (mode !== undefined) fchmodSync(fd, mode);
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (expected !== undefined) {
      const again = readRegular(target, MAX_SETTINGS_BYTES);
      const now = again.ok ? again.data.toString("utf8") : "";
      if (now !== expected) throw new Error(`${file} changed while mem was updating it; nothing was written, run the command again`);
    }
    beforeRename?.();
    renameSync(tmp, target);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // already renamed or gone
    }
    throw err;
  }
  if (process.platform !== "win32") {
    try {
      const dfd = openSync(dir, "r");
      try {
        fsyncSync(dfd);
      } finally {
        closeSync(dfd);
      }
    } catch {
      // best effort
    }
  }
}

/**
 * A settings file its owner may not write (no `u+w`: made read-only on purpose, a dotfile
 * manager's copy) is never replaced or removed, though a rename in its folder could: refused with
 * the fix, nothing written. Through a symlink, its target's mode counts.
 * @throws SettingsError
 */
export function refuseReadOnly(file: string): void {
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch {
    return; // absent: created
  }
  if ((mode & 0o200) === 0) throw new SettingsError(`refusing to change ${file}: it is read-only (mode ${(mode & 0o777).toString(8).padStart(3, "0")}); nothing was written. Make it writable (chmod u+w '${file}') and run the command again`);
}
