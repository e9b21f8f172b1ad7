import { asStored, type Clean } from "../redact/clean.cjs";
import { chunkIdents } from "./chunk-idents.js";
import type { Db } from "./db.js";
import { prepared } from "./statements.js";
import { redoVectors } from "./vec-state.js";

export interface SourceRow {
  id: number;
  project: string;
  path: string;
  kind: string;
  tier: string | null;
  size: number;
  mtime_ms: number;
  content_hash: string;
  metadata: string;
  indexed_at: number;
}

export interface NewChunk {
  id: string;
  kind: string;
  tier: string | null;
  heading: string;
  startLine: number;
  endLine: number;
  text: string;
  tags: string[];
  date: string | null;
  metadata: Record<string, unknown>;
}

export interface ChunkRow {
  rowid: number;
  id: string;
  source_id: number;
  project: string;
  path: string;
  kind: string;
  tier: string | null;
  heading: string;
  start_line: number;
  end_line: number;
  text: string;
  tags: string;
  date: string | null;
  metadata: string;
}

/** A source as `replaceSource` records it. */
export interface SourceInput {
  project: string;
  path: string;
  kind: string;
  tier: string | null;
  size: number;
  mtimeMs: number;
  hash: string;
  metadata: Record<string, unknown>;
}

export interface ReplaceResult {
  added: number;
  removed: number;
  kept: number;
}

/** Throws when the FTS5 index disagrees with the chunks it indexes (FTS5's own integrity check). */
export function checkFtsIntegrity(db: Db): void {
  db.prepare("INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('integrity-check', 1)").run();
}

/**
 * The distinct projects of a table, walked through an index that leads with `project` one value at
 * a time (a recursive CTE named `name`), so 100k rows of a few projects cost a few lookups, not a
 * scan. `sources` (UNIQUE (project, path)), `events` and `tasks` have such indexes.
 */
const walk = (name: string, table: "sources" | "events" | "tasks") =>
  `${name}(p) AS (SELECT min(project) FROM ${table} UNION ALL SELECT (SELECT min(project) FROM ${table} WHERE project > ${name}.p) FROM ${name} WHERE ${name}.p IS NOT NULL)`;

/** Every project with indexed sources, sorted. */
export function storedProjects(db: Db): Clean<string>[] {
  return (prepared(db, `WITH RECURSIVE ${walk("s", "sources")} SELECT p FROM s WHERE p IS NOT NULL ORDER BY 1`).pluck().all() as string[]).map(asStored);
}

/** Every project something was ever stored under: indexed files, memories or tasks, sorted. */
export function knownProjects(db: Db): Clean<string>[] {
  const sql = `WITH RECURSIVE ${walk("s", "sources")}, ${walk("e", "events")}, ${walk("t", "tasks")}
    SELECT p FROM s WHERE p IS NOT NULL UNION SELECT p FROM e WHERE p IS NOT NULL UNION SELECT p FROM t WHERE p IS NOT NULL ORDER BY 1`;
  return (prepared(db, sql).pluck().all() as string[]).map(asStored);
}

/** Whether anything was ever stored under `project`: indexed files, memories or tasks. */
export function projectHoldsAnything(db: Db, project: string): boolean {
  const sql = "SELECT EXISTS (SELECT 1 FROM sources WHERE project = ?) OR EXISTS (SELECT 1 FROM events WHERE project = ?) OR EXISTS (SELECT 1 FROM tasks WHERE project = ?)";
  return db.prepare(sql).pluck().get(project, project, project) === 1;
}

/** A chunk's row, its identifier words (./chunk-idents.ts) last: both writers of new chunks use it. */
const INSERT_CHUNK = `INSERT INTO chunks (id, source_id, project, path, kind, tier, heading, start_line, end_line, text, tags, date, metadata, seq, idents)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** SQLite access for sources and chunks (FTS5 follows through triggers; identifier words, ./chunk-idents.ts, are written with the text). */
export class ChunkStore {
  constructor(readonly db: Db) {}

  getSource(project: string, path: string): SourceRow | undefined {
    return this.db.prepare("SELECT * FROM sources WHERE project = ? AND path = ?").get(project, path) as SourceRow | undefined;
  }

  sourcesOf(project: string): SourceRow[] {
    return this.db.prepare("SELECT * FROM sources WHERE project = ? ORDER BY path").all(project) as SourceRow[];
  }

  /** Records a new size and mtime for a source whose content was just read and found unchanged, at `now`. */
  touchSource(id: number, size: number, mtimeMs: number, now: number): void {
    this.db.prepare("UPDATE sources SET size = ?, mtime_ms = ?, indexed_at = ? WHERE id = ?").run(size, mtimeMs, now, id);
  }

  /**
   * Writes a source and its chunks (both through the redaction boundary) in one transaction: chunks whose id (content hash) is unchanged
   * are kept (only their position is updated), new ones inserted, vanished ones deleted. A chunk whose
   * id is kept with other text (an event edited in an event log) is written again, its vector redone.
   */
  replaceSource(src: Clean<SourceInput>, chunks: Clean<NewChunk[]> | readonly Clean<NewChunk>[], now: number): ReplaceResult {
    return this.db.transaction((): ReplaceResult => {
      const existing = this.getSource(src.project, src.path);
      let sourceId: number;
      if (existing) {
        sourceId = existing.id;
        this.db
          .prepare("UPDATE sources SET kind = ?, tier = ?, size = ?, mtime_ms = ?, content_hash = ?, metadata = ?, indexed_at = ? WHERE id = ?")
          .run(src.kind, src.tier, src.size, src.mtimeMs, src.hash, JSON.stringify(src.metadata), now, sourceId);
      } else {
        sourceId = Number(
          this.db
            .prepare("INSERT INTO sources (project, path, kind, tier, size, mtime_ms, content_hash, metadata, indexed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
            .run(src.project, src.path, src.kind, src.tier, src.size, src.mtimeMs, src.hash, JSON.stringify(src.metadata), now).lastInsertRowid,
        );
      }
      const old = new Map((this.db.prepare("SELECT id, heading, text FROM chunks WHERE source_id = ?").all(sourceId) as { id: string; heading: string; text: string }[]).map((c) => [c.id, c]));
      const wanted = new Set(chunks.map((c) => c.id));
      const del = this.db.prepare("DELETE FROM chunks WHERE id = ?");
      let removed = 0;
      for (const id of old.keys()) if (!wanted.has(id)) removed += del.run(id).changes;
      const ins = this.db.prepare(INSERT_CHUNK);
      const upd = this.db.prepare("UPDATE chunks SET start_line = ?, end_line = ?, seq = ?, kind = ?, tier = ?, tags = ?, date = ?, metadata = ? WHERE id = ?");
      let added = 0;
      let kept = 0;
      chunks.forEach((c, seq) => {
        const tags = JSON.stringify(c.tags);
        const meta = JSON.stringify(c.metadata);
        const had = old.get(c.id);
        if (had && had.heading === c.heading && had.text === c.text) {
          upd.run(c.startLine, c.endLine, seq, c.kind, c.tier, tags, c.date, meta, c.id);
          kept++;
        } else {
          // An id that is not a content hash (an event's, in an event log) keeps it when its text is edited: written over.
          if (had && del.run(c.id).changes > 0) redoVectors(this.db, c.id);
          ins.run(c.id, sourceId, src.project, src.path, c.kind, c.tier, c.heading, c.startLine, c.endLine, c.text, tags, c.date, meta, seq, chunkIdents(c.heading, c.text));
          added++;
        }
      });
      return { added, removed, kept };
    }).immediate();
  }

  /**
   * Adds chunks at the end of a source (created if new) without reading the ones it has: a
   * session's events become chunks one capture at a time, so the cost does not grow with the
   * session. A chunk whose id is already stored is written over. The source's size grows by the
   * chunks added and its hash chains theirs (`hashOf(previous)`). Returns how many were added.
   */
  appendToSource(src: Clean<Omit<SourceInput, "size" | "hash">>, chunks: readonly Clean<NewChunk>[], hashOf: (previous: string) => string, now: number): number {
    return this.db.transaction((): number => {
      const existing = this.getSource(src.project, src.path);
      const size = (existing?.size ?? 0) + chunks.length;
      const hash = hashOf(existing?.content_hash ?? "");
      const metadata = JSON.stringify({ ...src.metadata, events: size });
      let sourceId: number;
      if (existing) {
        this.db.prepare("UPDATE sources SET size = ?, content_hash = ?, metadata = ?, indexed_at = ? WHERE id = ?").run(size, hash, metadata, now, existing.id);
        sourceId = existing.id;
      } else {
        sourceId = Number(
          this.db
            .prepare("INSERT INTO sources (project, path, kind, tier, size, mtime_ms, content_hash, metadata, indexed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
            .run(src.project, src.path, src.kind, src.tier, size, src.mtimeMs, hash, metadata, now).lastInsertRowid,
        );
      }
      const next = ((this.db.prepare("SELECT max(seq) FROM chunks WHERE source_id = ?").pluck().get(sourceId) as number | null) ?? -1) + 1;
      const del = this.db.prepare("DELETE FROM chunks WHERE id = ?");
      const ins = this.db.prepare(INSERT_CHUNK);
      chunks.forEach((c, i) => {
        if (del.run(c.id).changes > 0) redoVectors(this.db, c.id); // written over: its text-index entry goes, its vector is made again
        ins.run(c.id, sourceId, src.project, src.path, c.kind, c.tier, c.heading, next + i + 1, next + i + 1, c.text, JSON.stringify(c.tags), c.date, JSON.stringify(c.metadata), next + i, chunkIdents(c.heading, c.text));
      });
      return chunks.length;
    }).immediate();
  }

  /** Deletes a source and its chunks (FTS rows go with them); returns the number of chunks removed. */
  deleteSource(id: number): number {
    return this.db.transaction(() => {
      const n = this.db.prepare("DELETE FROM chunks WHERE source_id = ?").run(id).changes;
      this.db.prepare("DELETE FROM sources WHERE id = ?").run(id);
      return n;
    }).immediate();
  }

  /** Chunks stored (of `project`): read from the counts the triggers keep. */
  countChunks(project?: string): number {
    return project === undefined
      ? ((this.db.prepare("SELECT sum(n) FROM chunk_counts").pluck().get() as number | null) ?? 0)
      : ((this.db.prepare("SELECT n FROM chunk_counts WHERE project = ?").pluck().get(project) as number | undefined) ?? 0);
  }
}
