import { reinforced, type SalienceConfig, type SalienceSubject, type Use } from "../memory/salience.js";
import { subjectOfChunk } from "../memory/subject.js";
import { asStored, type Clean } from "../redact/clean.cjs";
import type { Db } from "./db.js";
import { prepared } from "./statements.js";

/** The recorded use of each of `ids` (chunk ids) that has one. */
export function usesOf(db: Db, ids: readonly string[]): Map<string, Use> {
  const out = new Map<string, Use>();
  if (ids.length === 0) return out;
  const rows = prepared(db, "SELECT chunk_id AS id, salience, last_used_at AS lastUsedAt, uses FROM salience WHERE chunk_id IN (SELECT value FROM json_each(?))").all(JSON.stringify([...new Set(ids)])) as (Use & { id: string })[];
  for (const { id, ...u } of rows) out.set(id, u);
  return out;
}

/**
 * Reinforces memories (chunk ids, known before or after they are chunked): × reinforce, capped at
 * 1, clock restarted. Ids are hashes, so nothing but numbers and the id is written.
 */
export function reinforce(db: Db, items: readonly (SalienceSubject & { id: Clean<string> })[], now: number, cfg?: SalienceConfig): void {
  if (items.length === 0) return;
  const uses = usesOf(db, items.map((i) => i.id));
  const put = prepared(db, "INSERT INTO salience (chunk_id, salience, last_used_at, uses) VALUES (?, ?, ?, ?) ON CONFLICT (chunk_id) DO UPDATE SET salience = excluded.salience, last_used_at = excluded.last_used_at, uses = excluded.uses");
  db.transaction(() => {
    for (const i of items) {
      const u = reinforced(i, uses.get(i.id), now, cfg);
      uses.set(i.id, u);
      put.run(i.id, u.salience, u.lastUsedAt, u.uses);
    }
  }).immediate();
}

/** Reinforces stored chunks by id (what was injected, or shown by `mem query`); ids not stored are skipped. */
export function reinforceChunks(db: Db, ids: readonly string[], now: number, cfg?: SalienceConfig): void {
  const row = prepared(db, "SELECT id, kind, path, tier, date, metadata FROM chunks WHERE id = ?");
  const items: (SalienceSubject & { id: Clean<string> })[] = [];
  for (const id of new Set(ids)) {
    const r = row.get(id) as { id: string; kind: string; path: string; tier: string | null; date: string | null; metadata: string } | undefined;
    if (r) items.push({ ...subjectOfChunk(r), id: asStored(r.id) });
  }
  reinforce(db, items, now, cfg);
}
