import { asStored, asStoredRow, type Clean, type CleanFields } from "../redact/clean.cjs";
import { eventChunkId } from "./chunk-ids.js";
import { prepared } from "./statements.js";
import { withholdForgotten } from "./prompt-log.js";
import { redoVectors } from "./vec-state.js";
import type { Db } from "./db.js";
import type { EventRow } from "./events.js";

/**
 * Explicit memory in SQLite: a memory is an `events` row (whatever made it: a `mem remember`, a
 * `[MEMORY:]` tag, a capture). Here: putting one under a client's key, editing it (its previous
 * version kept in `memory_history`), forgetting it (a tombstone at once: it leaves the chunks, so
 * search, injection and briefing never see it again; its text is purged later), and purging.
 * Every value written comes through the redaction boundary.
 */
/** A memory as `memoryById` reads it: an events row with its explicit-memory columns. */
export type MemoryRow = Required<EventRow>;

export interface NewMemory {
  id: string;
  project: string;
  session: string | null;
  kind: string;
  time: string;
  text: string;
  files: string[];
  metadata: Record<string, unknown>;
  /** A client's idempotency key (not named like a secret: the redaction boundary would take a random-looking one for one). */
  idempotencyKey: string | null;
  /** ms, when it was last edited (an imported memory keeps its own). */
  updatedAt?: number | null;
}

export interface HistoryRow {
  version: number;
  at: number;
  kind: string;
  text: string;
  tags: string;
}

export function memoryById(db: Db, id: string): CleanFields<MemoryRow> | undefined {
  const r = prepared(db, "SELECT id, project, session, type, time, files, text, metadata, updated_at, deleted_at, client_key FROM events WHERE id = ?").get(id) as MemoryRow | undefined;
  return r ? asStoredRow(r) : undefined;
}

export function memoryByKey(db: Db, project: string, key: string): CleanFields<MemoryRow> | undefined {
  const r = prepared(db, "SELECT id, project, session, type, time, files, text, metadata, updated_at, deleted_at, client_key FROM events WHERE project = ? AND client_key = ?").get(project, key) as MemoryRow | undefined;
  return r ? asStoredRow(r) : undefined;
}

/** Inserts a memory; false when its id (or its client key in the project) is taken. Durable when it returns (its own transaction). */
export function insertMemory(db: Db, m: Clean<NewMemory>): boolean {
  return (
    prepared(db, "INSERT OR IGNORE INTO events (id, project, session, type, time, files, text, metadata, client_key, updated_at, chunked) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)")
      .run(m.id, m.project, m.session, m.kind, m.time, JSON.stringify(m.files), m.text, JSON.stringify(m.metadata), m.idempotencyKey, m.updatedAt ?? null).changes === 1
  );
}

/** Replaces a memory's text, kind and metadata, keeping the previous version in its history; the chunk is made again. */
export function patchMemory(db: Db, id: string, next: Clean<{ kind: string; text: string; metadata: Record<string, unknown> }>, now: number): void {
  db.transaction(() => {
    const before = db.prepare("SELECT type, text, metadata FROM events WHERE id = ?").get(id) as { type: string; text: string; metadata: string } | undefined;
    if (!before) return;
    const version = ((db.prepare("SELECT max(version) FROM memory_history WHERE memory = ?").pluck().get(id) as number | null) ?? 0) + 1;
    const tags = JSON.stringify((JSON.parse(before.metadata) as { tags?: unknown }).tags ?? []);
    db.prepare("INSERT INTO memory_history (memory, version, at, kind, text, tags) VALUES (?, ?, ?, ?, ?, ?)").run(id, version, now, before.type, before.text, tags);
    db.prepare("UPDATE events SET type = ?, text = ?, metadata = ?, updated_at = ?, chunked = 0 WHERE id = ?").run(next.kind, next.text, JSON.stringify(next.metadata), now, id);
    forgetChunkOf(db, id);
  }).immediate();
}

/** An imported memory's earlier versions; a version already there is kept. */
export function insertHistory(db: Db, id: string, rows: Clean<HistoryRow[]>): void {
  const put = db.prepare("INSERT OR IGNORE INTO memory_history (memory, version, at, kind, text, tags) VALUES (?, ?, ?, ?, ?, ?)");
  for (const h of rows) put.run(id, h.version, h.at, h.kind, h.text, h.tags);
}

export function historyOf(db: Db, id: string): CleanFields<HistoryRow>[] {
  return (db.prepare("SELECT version, at, kind, text, tags FROM memory_history WHERE memory = ? ORDER BY version").all(id) as HistoryRow[]).map(asStoredRow);
}

/**
 * The chunk an event became, gone at once (with its text-index entry and vector bookkeeping): a
 * forgotten memory is never found again, an edited one is chunked and embedded again.
 */
export function forgetChunkOf(db: Db, eventId: string): void {
  const project = db.prepare("SELECT project FROM events WHERE id = ?").pluck().get(eventId) as string | undefined;
  if (project === undefined) return;
  const c = eventChunkId(project, eventId);
  db.prepare("DELETE FROM chunks WHERE id = ?").run(c);
  redoVectors(db, c);
  db.prepare("DELETE FROM salience WHERE chunk_id = ?").run(c);
}

/** Tombstones memories (event ids) at `now`: invisible from this moment; returns how many were live. */
export function tombstone(db: Db, ids: readonly string[], now: number): number {
  return securely(db, () => db.transaction(() => {
    let n = 0;
    const chunks: string[] = [];
    let since = now;
    for (const id of ids) {
      const row = db.prepare("SELECT project, time FROM events WHERE id = ? AND deleted_at IS NULL").get(id) as { project: string; time: string } | undefined;
      const changed = db.prepare("UPDATE events SET deleted_at = ?, chunked = 0 WHERE id = ? AND deleted_at IS NULL").run(now, id).changes;
      if (changed) forgetChunkOf(db, id);
      if (changed && row) {
        chunks.push(eventChunkId(row.project, id));
        const t = Date.parse(row.time);
        since = Math.min(since, Number.isFinite(t) ? t : 0);
      }
      n += changed;
    }
    // What the prompt log kept of their text goes with them (src/store/prompt-log.ts).
    withholdForgotten(db, chunks, since);
    return n;
  }).immediate());
}

/**
 * Runs `fn` with SQLite's secure_delete on: what it deletes is overwritten, not only unlinked, so a
 * forgotten chunk's text is not left in a free page for a purge to miss.
 */
export function securely<T>(db: Db, fn: () => T): T {
  const was = db.pragma("secure_delete", { simple: true }) as number;
  db.pragma("secure_delete = ON");
  try {
    return fn();
  } finally {
    db.pragma(`secure_delete = ${was ? "ON" : "OFF"}`);
  }
}

/** The live memories of a session, or of a whole project (ids). */
export function liveIds(db: Db, where: { project: string; session?: string }): Clean<string>[] {
  const rows = where.session === undefined
    ? db.prepare("SELECT id FROM events WHERE project = ? AND deleted_at IS NULL").pluck().all(where.project)
    : db.prepare("SELECT id FROM events WHERE project = ? AND session = ? AND deleted_at IS NULL").pluck().all(where.project, where.session);
  return (rows as string[]).map(asStored);
}

/**
 * Purges forgotten memories: their text, files, metadata and history overwritten and deleted
 * (secure_delete), only a bare tombstone left so that a capture read again never brings one back.
 * Returns how many were purged.
 */
export function purgeTombstones(db: Db): number {
  return securely(db, () =>
    db.transaction(() => {
      // A row merged into a live memory (src/store/merge.ts) is kept: it says where its id went.
      const ids = db
        .prepare("SELECT id FROM events e WHERE deleted_at IS NOT NULL AND (text != '' OR files != '[]' OR metadata != '{}') AND NOT EXISTS (SELECT 1 FROM events k WHERE k.id = json_extract(e.metadata, '$.mergedInto') AND k.deleted_at IS NULL)")
        .pluck()
        .all() as string[];
      for (const id of ids) {
        db.prepare("UPDATE events SET text = '', files = '[]', metadata = '{}', client_key = NULL WHERE id = ?").run(id);
        db.prepare("DELETE FROM memory_history WHERE memory = ?").run(id);
        db.prepare("DELETE FROM links WHERE a = ? OR b = ?").run(id, id);
        db.prepare("DELETE FROM anchors WHERE memory = ?").run(id);
      }
      return ids.length;
    }).immediate(),
  );
}

/**
 * Forgets a session's own records beyond its memories, in `project` only: its task list, summary
 * and transcript path, and those of its subagents (`<session>/agent-<id>`). The id is compared
 * as text (no LIKE: a `%` or `_` in it matches only itself).
 */
export function forgetSessionRecord(db: Db, project: string, session: string): number {
  const agents = `${session}/agent-`;
  return db
    .prepare("UPDATE sessions SET task_state = NULL, summary = NULL, transcript_path = NULL WHERE project = ? AND (session = ? OR (length(session) > length(?) AND substr(session, 1, length(?)) = ?))")
    .run(project, session, agents, agents, agents).changes;
}

/** Forgets what a project holds beyond its events: tasks, session records, indexed sources and roots, vector bookkeeping and calibration. */
export function forgetProjectRecords(db: Db, project: string): { sources: number; tasks: number; sessions: number } {
  return securely(db, () => db.transaction(() => {
    const sessions = db.prepare("UPDATE sessions SET task_state = NULL, summary = NULL, transcript_path = NULL WHERE project = ?").run(project).changes;
    const tasks = db.prepare("DELETE FROM tasks WHERE project = ?").run(project).changes;
    db.prepare("DELETE FROM vec_rows WHERE project = ?").run(project);
    db.prepare("DELETE FROM vec_hub WHERE chunk_id IN (SELECT id FROM chunks WHERE project = ?)").run(project);
    db.prepare("DELETE FROM fusion_calibration WHERE project = ?").run(project);
    db.prepare("DELETE FROM chunks WHERE project = ?").run(project);
    const sources = db.prepare("DELETE FROM sources WHERE project = ?").run(project).changes;
    db.prepare("DELETE FROM roots WHERE project = ?").run(project);
    db.prepare("DELETE FROM meta WHERE key = ?").run(`chunking:${project}`);
    return { sources, tasks, sessions };
  }).immediate());
}

/**
 * After deletions: the text index rebuilt compactly and the WAL truncated, so no deleted text is
 * left in the files. True when the checkpoint was busy (another connection reading: the WAL is
 * truncated at a later checkpoint).
 */
export function compactText(db: Db): boolean {
  securely(db, () => db.prepare("INSERT INTO chunks_fts(chunks_fts) VALUES ('optimize')").run());
  const r = db.pragma("wal_checkpoint(TRUNCATE)") as { busy: number }[];
  return (r[0]?.busy ?? 0) !== 0;
}

/** A markdown chunk (a note's passage) with its file's indexing time. */
export interface MarkdownRow {
  id: string;
  project: string;
  path: string;
  kind: string;
  text: string;
  tags: string;
  date: string | null;
  start_line: number;
  end_line: number;
  indexed_at: number;
}

const MARKDOWN_SELECT = "SELECT c.id, c.project, c.path, c.kind, c.text, c.tags, c.date, c.start_line, c.end_line, s.indexed_at FROM chunks c JOIN sources s ON s.id = c.source_id";

/** A markdown chunk by id (chunks of captured sessions are not markdown). */
export function markdownById(db: Db, id: string): CleanFields<MarkdownRow> | undefined {
  const r = db.prepare(`${MARKDOWN_SELECT} WHERE c.id = ? AND c.path NOT LIKE 'session:%'`).get(id) as MarkdownRow | undefined;
  return r ? asStoredRow(r) : undefined;
}

/** A project's markdown chunks by file and line, filtered like the events list; `total` counts all that match. */
export function markdownChunks(db: Db, project: string, f: { kinds?: readonly string[]; tags?: readonly string[]; text?: string; since?: string; until?: string; limit: number; offset: number }): { total: number; rows: CleanFields<MarkdownRow>[] } {
  const where = ["c.project = ?", "c.path NOT LIKE 'session:%'"];
  const params: unknown[] = [project];
  if (f.kinds && f.kinds.length > 0) {
    where.push(`c.kind IN (${f.kinds.map(() => "?").join(", ")})`);
    params.push(...f.kinds);
  }
  for (const t of f.tags ?? []) {
    where.push("EXISTS (SELECT 1 FROM json_each(c.tags) WHERE value = ?)");
    params.push(t);
  }
  for (const w of (f.text ?? "").split(/\s+/).filter(Boolean)) {
    where.push("instr(lower(c.text), lower(?)) > 0");
    params.push(w);
  }
  if (f.since) {
    where.push("c.date >= ?");
    params.push(f.since);
  }
  if (f.until) {
    where.push("c.date < ?");
    params.push(f.until);
  }
  const sql = where.join(" AND ");
  const total = db.prepare(`SELECT count(*) FROM chunks c WHERE ${sql}`).pluck().get(...params) as number;
  const rows = f.limit > 0 ? (db.prepare(`${MARKDOWN_SELECT} WHERE ${sql} ORDER BY c.path, c.start_line LIMIT ? OFFSET ?`).all(...params, f.limit, f.offset) as MarkdownRow[]) : [];
  return { total, rows: rows.map(asStoredRow) };
}

/** Projects holding live memories (events not forgotten), sorted. */
export function memoryProjects(db: Db): Clean<string>[] {
  return (db.prepare("SELECT DISTINCT project FROM events WHERE deleted_at IS NULL ORDER BY project").pluck().all() as string[]).map(asStored);
}

/**
 * What a project's vectors still lack: its chunks, those with no vector in `table` (all of them
 * when there is no table), and its live events not yet turned into chunks.
 */
export function vectorBacklog(db: Db, project: string, table: string | undefined): { chunks: number; missing: number; unchunked: number } {
  const chunks = db.prepare("SELECT count(*) FROM chunks WHERE project = ?").pluck().get(project) as number;
  const missing = table === undefined ? chunks : (db.prepare("SELECT count(*) FROM chunks c WHERE c.project = ? AND NOT EXISTS (SELECT 1 FROM vec_rows v WHERE v.table_name = ? AND v.chunk_id = c.id)").pluck().get(project, table) as number);
  const unchunked = db.prepare("SELECT count(*) FROM events WHERE project = ? AND chunked = 0 AND deleted_at IS NULL").pluck().get(project) as number;
  return { chunks, missing, unchunked };
}

/** The memory (event) id each chunk of a captured session stands for; a markdown chunk is its own memory. */
export function memoryIdsOfChunks(db: Db, chunkIds: readonly string[]): Map<string, string> {
  const get = db.prepare("SELECT json_extract(metadata, '$.eventId') FROM chunks WHERE id = ? AND path LIKE 'session:%'").pluck();
  return new Map(chunkIds.map((id) => [id, (get.get(id) as string | null | undefined) ?? id]));
}
