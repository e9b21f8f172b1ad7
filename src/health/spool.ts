/**
 * Captures waiting in the spool (the data home's, or its fallback under the temp directory when
 * the data home could not be written): `mem doctor` says how many and where, so a store that
 * cannot be written is never a silent one. Counts lines of at most the spool's size cap.
 */
import { closeSync, existsSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { fallbackSpoolPath, SPOOL_FILE } from "../maintenance/flags.js";
import type { Check } from "./check.js";

/** Newlines in a file, read in blocks (no line is held); 0 for a file that cannot be read. */
function lines(path: string, max = 64 * 1024 * 1024): number {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const buf = Buffer.alloc(64 * 1024);
    let n = 0;
    for (let read = 0, got = 0; read < max && (got = readSync(fd, buf, 0, buf.length, null)) > 0; read += got) {
      for (let i = 0; i < got; i++) if (buf[i] === 10) n++;
    }
    return n;
  } catch {
    return 0;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The spool's check, or undefined when nothing waits. */
export function spoolCheck(home: string): Check | undefined {
  const waiting = [join(home, SPOOL_FILE), fallbackSpoolPath(home)].filter((p) => existsSync(p)).map((p) => ({ path: p, n: lines(p) }));
  if (waiting.length === 0) return undefined;
  const n = waiting.reduce((s, w) => s + w.n, 0);
  return {
    name: "spool",
    status: "warn",
    detail: `${n} capture(s) wait in the spool (${waiting.map((w) => `${w.path}: ${w.n}`).join("; ")}): the store could not be written when they were made`,
    fix: "the next capture that can write the store writes them (or `mem doctor --repair`); if they stay, the checks above say why the store cannot be written",
  };
}
