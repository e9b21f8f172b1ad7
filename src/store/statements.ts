import type { Statement } from "better-sqlite3";
import type { Db } from "./db.js";

const cache = new WeakMap<Db, Map<string, Statement>>();

/**
 * A prepared statement reused per connection: preparing a query (an FTS5 one above all) costs
 * more than running a small one, and the daemon runs the same few shapes on every prompt.
 */
export function prepared(db: Db, sql: string): Statement {
  let m = cache.get(db);
  if (!m) cache.set(db, (m = new Map()));
  let st = m.get(sql);
  if (!st) {
    if (m.size > 64) m.clear();
    m.set(sql, (st = db.prepare(sql)));
  }
  return st;
}
