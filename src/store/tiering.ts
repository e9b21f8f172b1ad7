import type { Db } from "./db.js";

/**
 * What the weekly job reads and writes about a chunk's tier and use: chunks of files whose layout
 * makes them warm (their source's tier), with when they were made, written and last used; the
 * tier of chunks set (the source's own tier stays what the layout says, so a chunk used again can
 * go back to it); salience rows of chunks that are gone removed. Ids and tier names only.
 */
export interface TierRow {
  id: string;
  kind: string;
  /** The chunk's tier now. */
  tier: string | null;
  /** The chunk's date (an event's time, a note's frontmatter date). */
  date: string | null;
  /** The file's mtime (0 for a captured session). */
  mtime_ms: number;
  /** When the chunk was last used (reinforced), if ever. */
  last_used_at: number | null;
  /** When the memory behind a captured chunk was last edited, if ever. */
  updated_at: number | null;
}

/** Chunks whose source's layout tier is warm (notes, session logs, reference files, captured sessions). */
export function warmLayoutChunks(db: Db): TierRow[] {
  return db
    .prepare(
      `SELECT c.id, c.kind, c.tier, c.date, s.mtime_ms, sal.last_used_at, e.updated_at
       FROM chunks c JOIN sources s ON s.id = c.source_id LEFT JOIN salience sal ON sal.chunk_id = c.id
       LEFT JOIN events e ON c.path LIKE 'session:%' AND e.id = json_extract(c.metadata, '$.eventId')
       WHERE s.tier = 'warm'`,
    )
    .all() as TierRow[];
}

/** Sets the tier of chunks (ids are content hashes; the tier a fixed name). Returns how many changed. */
export function setChunkTiers(db: Db, ids: readonly string[], tier: "warm" | "cold"): number {
  if (ids.length === 0) return 0;
  const upd = db.prepare("UPDATE chunks SET tier = ? WHERE id = ? AND tier IS NOT ?");
  return db.transaction(() => ids.reduce((n, id) => n + upd.run(tier, id, tier).changes, 0)).immediate();
}

/** What salience needs of every chunk, with its recorded use (none: never used). */
export interface UseRow {
  kind: string;
  path: string;
  tier: string | null;
  date: string | null;
  metadata: string;
  salience: number | null;
  last_used_at: number | null;
  uses: number | null;
}

export function chunkUses(db: Db): UseRow[] {
  return db
    .prepare("SELECT c.kind, c.path, c.tier, c.date, c.metadata, sal.salience, sal.last_used_at, sal.uses FROM chunks c LEFT JOIN salience sal ON sal.chunk_id = c.id")
    .all() as UseRow[];
}

/**
 * Removes the use recorded for chunks that no longer exist (a note's passage edited away, a file
 * deleted): rows last touched before `before`, so a memory reinforced just before its event became
 * a chunk keeps its row. Returns how many went.
 */
export function removeOrphanUses(db: Db, before: number): number {
  return db.prepare("DELETE FROM salience WHERE last_used_at < ? AND NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = salience.chunk_id)").run(before).changes;
}
