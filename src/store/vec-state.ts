import { asStored, type Clean } from "../redact/clean.cjs";
import type { Db } from "./db.js";
import { prepared } from "./statements.js";

/** A chunk as the vector step embeds it: read from the store, so its id and project are clean. */
export interface ChunkToEmbed {
  id: Clean<string>;
  project: Clean<string>;
  heading: string;
  text: string;
}

export interface VecTableRow {
  name: string;
  provider: string;
  model: string;
  dims: number;
  created_at: number;
  /** Bumped on every row added or removed. */
  version: number;
}

/** What changed in a vector table since a copy of it was taken (VecState.changedSince). */
export interface TableChange {
  /** Ids removed since (some perhaps recorded again since: those are in `recorded` too). */
  gone: ReadonlySet<string>;
  /** Ids recorded since: added, or recorded again (an edited memory keeps its chunk id). */
  recorded: ReadonlySet<string>;
}

/**
 * A chunk written again under its id (an edited memory, a session chunk written over): its rows
 * are no longer recorded, and their LanceDB rows (the old text's vectors) are left for the next
 * embedding to delete (`VecState.redo`) before it embeds the chunk again.
 */
export function redoVectors(db: Db, chunkId: string): void {
  db.prepare("INSERT OR IGNORE INTO vec_redo (table_name, chunk_id) SELECT table_name, chunk_id FROM vec_rows WHERE chunk_id = ?").run(chunkId);
  db.prepare("DELETE FROM vec_rows WHERE chunk_id = ?").run(chunkId);
}

/**
 * SQLite's record of what each LanceDB table holds. SQLite is the source of truth: the indexer
 * embeds chunks missing here and deletes LanceDB rows whose chunks are gone, so an interrupted run
 * is finished by the next one.
 */
export class VecState {
  constructor(readonly db: Db) {}

  register(name: Clean<string>, provider: Clean<string>, model: Clean<string>, dims: number, now: number): void {
    this.db
      .prepare("INSERT INTO vec_tables (name, provider, model, dims, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT(name) DO NOTHING")
      .run(name, provider, model, dims, now);
  }

  tables(): VecTableRow[] {
    return this.db.prepare("SELECT * FROM vec_tables ORDER BY created_at, name").all() as VecTableRow[];
  }

  /** Chunks of `project` that `table` lacks, in source order. */
  missing(table: string, project: string): ChunkToEmbed[] {
    const rows = this.db
      .prepare(
        `SELECT c.id, c.project, c.heading, c.text FROM chunks c
         WHERE c.project = ? AND NOT EXISTS (SELECT 1 FROM vec_rows v WHERE v.table_name = ? AND v.chunk_id = c.id)
         ORDER BY c.source_id, c.seq`,
      )
      .all(project, table) as { id: string; project: string; heading: string; text: string }[];
    return rows.map((r) => ({ ...r, id: asStored(r.id), project: asStored(r.project) }));
  }

  /** Every project with chunks that `table` has no vector for. */
  projectsMissing(table: string): Clean<string>[] {
    return this.db
      .prepare("SELECT DISTINCT c.project FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM vec_rows v WHERE v.table_name = ? AND v.chunk_id = c.id) ORDER BY c.project")
      .pluck()
      .all(table)
      .map((p) => asStored(p as string));
  }

  /** Ids recorded in `table` whose chunk no longer exists. */
  orphans(table: string): string[] {
    return this.db
      .prepare("SELECT v.chunk_id FROM vec_rows v WHERE v.table_name = ? AND NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = v.chunk_id)")
      .pluck()
      .all(table) as string[];
  }

  /** Every chunk id recorded in `table`. */
  ids(table: string): string[] {
    return this.db.prepare("SELECT chunk_id FROM vec_rows WHERE table_name = ?").pluck().all(table) as string[];
  }

  /**
   * Records rows found in `table` but not here, when their chunk exists and its id is its content
   * hash (the table is one model's, so the vector is right); returns the other ids, to delete (and
   * their chunks, unrecorded, are embedded again). An event's chunk is never adopted: its id is the
   * event's, which keeps it when its text is edited, so the row may hold the old text's vector.
   * The project recorded is the chunk's own, read from the store.
   */
  adopt(table: string, ids: string[]): string[] {
    const projectOf = this.db.prepare("SELECT project FROM chunks WHERE id = ? AND json_extract(metadata, '$.eventId') IS NULL").pluck();
    const ins = this.db.prepare("INSERT OR IGNORE INTO vec_rows (table_name, chunk_id, project) VALUES (?, ?, ?)");
    const strays: string[] = [];
    this.db.transaction(() => {
      for (const id of ids) {
        const project = projectOf.get(id) as string | undefined;
        if (project === undefined) strays.push(id);
        else ins.run(table, id, project);
      }
    }).immediate();
    return strays;
  }

  mark(table: string, rows: { id: Clean<string>; project: Clean<string> }[]): void {
    const ins = this.db.prepare("INSERT OR IGNORE INTO vec_rows (table_name, chunk_id, project) VALUES (?, ?, ?)");
    this.db.transaction(() => {
      for (const r of rows) ins.run(table, r.id, r.project);
    }).immediate();
  }

  /**
   * Records vectors just written to `table`, each made from the chunk text given. A chunk written
   * again under its id while it was being embedded (an edit landing mid-run) now holds other text,
   * or is gone: its row is listed to redo instead, so the old text's vector is deleted and the new text
   * embedded. Returns the ids listed to redo.
   */
  markEmbedded(table: string, rows: readonly ChunkToEmbed[]): string[] {
    const now = this.db.prepare("SELECT heading, text FROM chunks WHERE id = ?");
    const ins = this.db.prepare("INSERT OR IGNORE INTO vec_rows (table_name, chunk_id, project) VALUES (?, ?, ?)");
    const redo = this.db.prepare("INSERT OR IGNORE INTO vec_redo (table_name, chunk_id) VALUES (?, ?)");
    const unrecord = this.db.prepare("DELETE FROM vec_rows WHERE table_name = ? AND chunk_id = ?");
    const stale: string[] = [];
    this.db.transaction(() => {
      for (const r of rows) {
        const c = now.get(r.id) as { heading: string; text: string } | undefined;
        // Gone meanwhile (a memory edited is first forgotten, then chunked again under its id): the
        // row is redone too, or the chunk to come would be taken as embedded.
        if (!c || c.heading !== r.heading || c.text !== r.text) {
          redo.run(table, r.id);
          unrecord.run(table, r.id); // should another run have recorded the new text's, this upsert wrote over it
          stale.push(r.id);
        } else ins.run(table, r.id, r.project);
      }
    }).immediate();
    return stale;
  }

  /** Rows of `table` whose chunk was written again under its id: to delete from LanceDB, then `redone`. */
  redo(table: string): string[] {
    return this.db.prepare("SELECT chunk_id FROM vec_redo WHERE table_name = ?").pluck().all(table) as string[];
  }

  /** Those rows are gone from LanceDB: no longer to delete, nor recorded (should another run have embedded one meanwhile, it is embedded again). */
  redone(table: string, ids: string[]): void {
    const done = this.db.prepare("DELETE FROM vec_redo WHERE table_name = ? AND chunk_id = ?");
    this.db.transaction(() => {
      for (const id of ids) done.run(table, id);
      this.unmark(table, ids);
    }).immediate();
  }

  unmark(table: string, ids: string[]): void {
    const del = this.db.prepare("DELETE FROM vec_rows WHERE table_name = ? AND chunk_id = ?");
    this.db.transaction(() => {
      for (const id of ids) del.run(table, id);
    }).immediate();
  }

  /** Forgets a table's contents (all projects, or one). */
  clear(table: string, project?: string): number {
    return project === undefined
      ? this.db.prepare("DELETE FROM vec_rows WHERE table_name = ?").run(table).changes
      : this.db.prepare("DELETE FROM vec_rows WHERE table_name = ? AND project = ?").run(table, project).changes;
  }

  /** Vectors `table` holds (of `project`): read from the counts the triggers keep. */
  count(table: string, project?: string): number {
    return project === undefined
      ? ((this.db.prepare("SELECT sum(n) FROM vec_counts WHERE table_name = ?").pluck().get(table) as number | null) ?? 0)
      : ((this.db.prepare("SELECT n FROM vec_counts WHERE table_name = ? AND project = ?").pluck().get(table, project) as number | undefined) ?? 0);
  }

  /** True when `table` holds at least one vector (cheaper than counting). */
  has(table: string): boolean {
    return prepared(this.db, "SELECT 1 FROM vec_rows WHERE table_name = ? LIMIT 1").get(table) !== undefined;
  }

  /**
   * A token that changes whenever a row of `table` is added or removed (also when the table is
   * forgotten and built again); undefined for an unknown table.
   */
  version(table: string): string | undefined {
    const r = prepared(this.db, "SELECT created_at, version FROM vec_tables WHERE name = ?").get(table) as { created_at: number; version: number } | undefined;
    return r ? `${r.created_at}:${r.version}` : undefined;
  }

  /**
   * What changed in `table` since it was at `version` (a `version()` token): the ids removed (the
   * journal the vec_rows_gone trigger writes) and those recorded, rows changed just before it
   * perhaps too (a row's stamp may be the version its own change made). Undefined when a copy at
   * `version` cannot be brought up to date from these: the table was made again since, the
   * journal was pruned past it, or more than `most` rows changed (a full read costs about as much).
   */
  changedSince(table: string, version: string, most = Number.POSITIVE_INFINITY): TableChange | undefined {
    const now = this.db.prepare("SELECT created_at, gone_floor FROM vec_tables WHERE name = ?").get(table) as { created_at: number; gone_floor: number } | undefined;
    const [made, n] = version.split(":");
    if (!now || String(now.created_at) !== made || !/^\d+$/.test(n ?? "") || Number(n) < now.gone_floor) return undefined;
    const at = Number(n);
    const count = (sql: string) => this.db.prepare(sql).pluck().get(table, at) as number;
    if (count("SELECT count(*) FROM vec_gone WHERE table_name = ? AND at_version >= ?") + count("SELECT count(*) FROM vec_rows WHERE table_name = ? AND at_version >= ?") > most) return undefined;
    const ids = (sql: string) => new Set(this.db.prepare(sql).pluck().all(table, at) as string[]);
    return {
      gone: ids("SELECT chunk_id FROM vec_gone WHERE table_name = ? AND at_version >= ?"),
      recorded: ids("SELECT chunk_id FROM vec_rows WHERE table_name = ? AND at_version >= ?"),
    };
  }

  /**
   * Drops the removals journaled before `before` (epoch seconds) and raises each table's floor past
   * them: a copy older than its floor is read whole. Returns how many were dropped.
   */
  pruneGone(before: number): number {
    return this.db.transaction(() => {
      this.db
        .prepare(
          `UPDATE vec_tables SET gone_floor = max(gone_floor, (SELECT max(at_version) + 1 FROM vec_gone g WHERE g.table_name = vec_tables.name AND g.at < ?))
           WHERE EXISTS (SELECT 1 FROM vec_gone g WHERE g.table_name = vec_tables.name AND g.at < ?)`,
        )
        .run(before, before);
      return this.db.prepare("DELETE FROM vec_gone WHERE at < ?").run(before).changes;
    }).immediate();
  }

  forget(table: string): void {
    this.db.transaction(() => {
      // The table's row first: its rows' removal is then not journaled (nothing of a copy carries over).
      this.db.prepare("DELETE FROM vec_tables WHERE name = ?").run(table);
      this.db.prepare("DELETE FROM vec_rows WHERE table_name = ?").run(table);
      this.db.prepare("DELETE FROM vec_redo WHERE table_name = ?").run(table);
      this.db.prepare("DELETE FROM vec_gone WHERE table_name = ?").run(table);
    }).immediate();
  }
}
