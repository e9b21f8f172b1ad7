import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { ScheduleError } from "./command.js";
import type { Part } from "./part.js";

/**
 * Files a scheduling method owns (unit files, a plist): written only over a file that is absent,
 * the same, or carries mem's marker; removed only when it carries the marker. What is written or
 * removed is recorded in the part, whole.
 */
export function readIfAny(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

export function putFile(p: Part, path: string, content: string, marker: string, dryRun: boolean): void {
  const old = readIfAny(path);
  if (old === content) return;
  if (old !== undefined && !old.includes(marker)) throw new ScheduleError(`${path} exists and was not written by mem; not touching it (move it away, then install again)`);
  p.changed = true;
  p.writes.push({ target: path, content });
  if (dryRun) return;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content, { mode: 0o644 });
}

/** Removes `path` when it carries the marker; true when it did (or would). */
export function takeFile(p: Part, path: string, marker: string, dryRun: boolean): boolean {
  const old = readIfAny(path);
  if (old === undefined) return false;
  if (!old.includes(marker)) {
    p.warnings.push(`${path} was not written by mem; left as it is`);
    return false;
  }
  p.changed = true;
  p.removes.push({ target: path, content: old });
  if (!dryRun) rmSync(path, { force: true });
  return true;
}
