import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ownFileThere } from "../util/private-place.cjs";

/** File names the hooks check on every run: kept free of heavy imports. */
export const MARKER_FILE = "store-damaged.json";
export const SPOOL_FILE = "capture-spool.jsonl";

/**
 * Where captures wait when the data home's spool cannot be written (its disk is full, it turned
 * read-only): a private directory of this user's under the temp directory (often another file
 * system), one file per data home. Its name can be guessed, so another account may have made it
 * first: it is used only when it is a directory of ours (./spool.ts checks), and a file there is
 * read only when it is ours.
 */
export function fallbackSpoolPath(home: string): string {
  const id = createHash("sha256").update(home).digest("hex").slice(0, 16);
  return join(tmpdir(), `mem-spool-${process.getuid?.() ?? "user"}`, `${id}.jsonl`);
}

/** A damage marker or a capture spool (the data home's, or its fallback) is waiting. */
export function storeFlagged(home: string): boolean {
  return existsSync(join(home, MARKER_FILE)) || existsSync(join(home, SPOOL_FILE)) || ownFileThere(fallbackSpoolPath(home)); // another user's file there is no capture of ours
}
