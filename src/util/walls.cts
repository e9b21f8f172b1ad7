import { realpathSync, statfsSync } from "node:fs";
import { sep } from "node:path";

/**
 * The walls around what mem reads as notes: a root's real path (and, where the user opted in, the
 * real path of a folder a link leads to), and never the system's own pseudo files. CommonJS and
 * tiny: ./read-regular.cts uses it, and so does the indexer.
 */

/** `path`'s real path, or `path` as given when it cannot be resolved (not there, unreadable): judged as written. */
export function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Is the real path `path` the wall itself or inside it (`wall` a real path too)? */
export function within(path: string, wall: string): boolean {
  if (path === wall) return true;
  return path.startsWith(wall.endsWith(sep) ? wall : wall + sep);
}

/** Where the kernel shows processes, devices and its own state as files: never read as notes, never walked. */
export const SYSTEM_DIRS: readonly string[] = process.platform === "win32" ? [] : ["/proc", "/sys", "/dev"];

/** Is this real path under /proc, /sys or /dev? */
export const systemPath = (real: string): boolean => SYSTEM_DIRS.some((d) => within(real, d));

/**
 * Linux file systems that are the kernel's state shown as files, wherever they are mounted (a
 * container's /proc bind-mounted into a project, say): proc, sysfs, devpts, debugfs, tracefs,
 * securityfs, cgroup, cgroup2, bpf, pstore, configfs, efivarfs, fusectl, binfmt_misc, mqueue.
 */
const PSEUDO_FS = new Set([0x9fa0, 0x62656572, 0x1cd1, 0x64626720, 0x74726163, 0x73636673, 0x27e0eb, 0x63677270, 0xcafe4a11, 0x6165676c, 0x62656570, 0xde5e81e4, 0x65735543, 0x42494e4d, 0x19800202]);

/** Is the directory `real` on one of the kernel's pseudo file systems (Linux; elsewhere: by its path only)? */
export function pseudoDir(real: string): boolean {
  if (systemPath(real)) return true;
  if (process.platform !== "linux") return false;
  try {
    return PSEUDO_FS.has(Number(statfsSync(real).type));
  } catch {
    return false;
  }
}
