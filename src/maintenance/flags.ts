import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** File names the hooks check on every run: kept free of heavy imports. */
export const MARKER_FILE = "store-damaged.json";
export const SPOOL_FILE = "capture-spool.jsonl";

/**
 * Where captures wait when the data home's spool cannot be written (its disk is full, it turned
 * read-only): a private directory of this user's under the temp directory (often another file
 * system), one file per data home.
 */
export function fallbackSpoolPath(home: string): string {
  const id = createHash("sha256").update(home).digest("hex").slice(0, 16);
  return join(tmpdir(), `mem-spool-${process.getuid?.() ?? "user"}`, `${id}.jsonl`);
}

/** A damage marker or a capture spool (the data home's, or its fallback) is waiting. */
export function storeFlagged(home: string): boolean {
  return existsSync(join(home, MARKER_FILE)) || existsSync(join(home, SPOOL_FILE)) || existsSync(fallbackSpoolPath(home));
}
