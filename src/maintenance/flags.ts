import { existsSync } from "node:fs";
import { join } from "node:path";

/** File names the hooks check on every run: kept free of heavy imports. */
export const MARKER_FILE = "store-damaged.json";
export const SPOOL_FILE = "capture-spool.jsonl";

/** A damage marker or a capture spool is waiting in the data home. */
export function storeFlagged(home: string): boolean {
  return existsSync(join(home, MARKER_FILE)) || existsSync(join(home, SPOOL_FILE));
}
