import type { Clean } from "../redact/clean.cjs";
import type { Db } from "./db.js";

/** The `meta` table: small named values the stores keep about themselves. */
export function getMeta(db: Db, key: string): string | undefined {
  return db.prepare("SELECT value FROM meta WHERE key = ?").pluck().get(key) as string | undefined;
}

export function setMeta(db: Db, key: Clean<string>, value: Clean<string>): void {
  db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(key, value);
}
