import type { Db } from "./db.js";
import { prepared } from "./statements.js";

/**
 * A stamp of the store's content as one connection sees it: it changes when another connection
 * (another process, or another of this one's) commits a change (SQLite's `data_version`) and
 * when this connection changes a row (`total_changes()`). A cache of what was read from the
 * store holds while its stamp is the same. Two cheap reads, no table touched.
 */
export function storeStamp(db: Db): string {
  const version = db.pragma("data_version", { simple: true }) as number;
  const own = prepared(db, "SELECT total_changes() AS n").get() as { n: number };
  return `${version}:${own.n}`;
}
