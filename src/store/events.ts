import { isAssistantName, type AssistantName } from "../contract/adapter.cjs";
import { notAfter } from "../util/not-after.js";
import type { CapturedEvent } from "./event-types.js";
import { asStored, asStoredRow, type Clean, type CleanFields } from "../redact/clean.cjs";
import type { Db } from "./db.js";

export interface StoredEvent extends CapturedEvent {
  project: string;
  /** ms, when it was last edited (an explicit memory). */
  updatedAt?: number | null;
}

/** An `events` row as stored (JSON columns as text). */
export interface EventRow {
  id: string;
  project: string;
  session: string | null;
  type: string;
  time: string;
  files: string;
  text: string;
  metadata: string;
  /** Explicit memory (migration 6): when it was last edited, forgotten (a tombstone), and its client key. */
  updated_at?: number | null;
  deleted_at?: number | null;
  client_key?: string | null;
}

/** An event read back for chunking: every field clean. */
export type SessionEvent = CleanFields<{ id: string; session: string | null; type: string; time: string; text: string }> & {
  files: Clean<string[]>;
  metadata: Clean<Record<string, unknown>>;
};

const MAX_TEXT = 4_000;
const MAX_LIST = 200;

/** Cut after redaction, so a secret is never cut into a piece the rules no longer recognise. */
const clip = (t: string) => (t.length > MAX_TEXT ? `${t.slice(0, MAX_TEXT)} …[truncated]` : t);

/** Long strings and lists in metadata cut to size. */
function clipDeep(v: unknown): unknown {
  if (typeof v === "string") return clip(v);
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.slice(0, MAX_LIST).map(clipDeep);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clipDeep(x)]));
}

/**
 * The few events still to chunk are read through their own partial index: without statistics
 * SQLite's planner would as soon walk every live event of the project.
 */
const UNCHUNKED = "INDEXED BY events_unchunked_session";

/** The SQL condition for a session's events ("": those without one); binds the session unless "". */
const inSession = (session: string) => (session === "" ? "(session IS NULL OR session = '')" : "session = ?");

/** A row of a session's events as stored (clean), JSON columns parsed. */
function parseEvent(r: Omit<EventRow, "project">): SessionEvent {
  return { ...asStoredRow({ id: r.id, session: r.session, type: r.type, time: r.time, text: r.text }), files: asStored(JSON.parse(r.files) as string[]), metadata: asStored(JSON.parse(r.metadata) as Record<string, unknown>) };
}

function toStored(r: EventRow): StoredEvent {
  const metadata = JSON.parse(r.metadata) as Record<string, unknown>;
  const confidence = typeof metadata.confidence === "number" ? metadata.confidence : undefined;
  return {
    id: r.id,
    project: r.project,
    session: r.session ?? "",
    type: r.type as CapturedEvent["type"],
    time: r.time,
    files: JSON.parse(r.files) as string[],
    text: r.text,
    metadata,
    ...(confidence !== undefined ? { confidence } : {}),
    ...(r.updated_at ? { updatedAt: r.updated_at } : {}),
  };
}

/**
 * Captured session events in SQLite. Events come in through the redaction boundary (`Clean`), so
 * nothing secret is stored whichever hook captured them. Inserts are idempotent on the event id.
 */
export class EventStore {
  constructor(readonly db: Db) {}

  /** Returns how many events were new. */
  insert(project: Clean<string>, events: Clean<CapturedEvent[]>, now: () => number = Date.now): number {
    if (events.length === 0) return 0;
    const ins = this.db.prepare(
      "INSERT OR IGNORE INTO events (id, project, session, type, time, files, text, metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    return this.db.transaction(() => {
      let n = 0;
      for (const e of events) {
        const time = e.time ? notAfter(e.time, now()).iso : new Date(now()).toISOString(); // a transcript's future time would rank first for years
        const meta = clipDeep({ ...e.metadata, ...(e.confidence !== undefined ? { confidence: e.confidence } : {}) });
        n += ins.run(e.id, project, e.session || null, e.type, time, JSON.stringify(e.files.slice(0, MAX_LIST).map(clip)), clip(e.text), JSON.stringify(meta)).changes;
      }
      return n;
    }).immediate();
  }

  /** Projects with events not yet turned into chunks. */
  projectsToChunk(): Clean<string>[] {
    return (this.db.prepare("SELECT DISTINCT project FROM events WHERE chunked = 0").pluck().all() as string[]).map(asStored);
  }

  /** Sessions of a project with events not yet turned into chunks ("" for events without one). */
  sessionsToChunk(project: string): Clean<string>[] {
    return (this.db.prepare(`SELECT DISTINCT coalesce(session, '') FROM events ${UNCHUNKED} WHERE project = ? AND chunked = 0`).pluck().all(project) as string[]).map(asStored);
  }

  /** Every event of a session in time order, as stored (clean), JSON columns parsed. */
  ofSession(project: string, session: string): SessionEvent[] {
    const rows = this.db
      .prepare(`SELECT id, session, type, time, files, text, metadata FROM events WHERE project = ? AND ${inSession(session)} AND deleted_at IS NULL ORDER BY time, rowid`)
      .all(project, ...(session === "" ? [] : [session])) as Omit<EventRow, "project">[];
    return rows.map(parseEvent);
  }

  /** A session's live events not yet turned into chunks, in time order, as stored (clean), JSON columns parsed. */
  unchunkedOf(project: string, session: string): SessionEvent[] {
    const rows = this.db
      .prepare(`SELECT id, session, type, time, files, text, metadata FROM events ${UNCHUNKED} WHERE project = ? AND chunked = 0 AND ${inSession(session)} AND deleted_at IS NULL ORDER BY time, rowid`)
      .all(project, ...(session === "" ? [] : [session])) as Omit<EventRow, "project">[];
    return rows.map(parseEvent);
  }

  /** Marks a session's events of a project as turned into chunks. */
  markChunked(project: Clean<string>, session: string): number {
    return this.db.prepare(`UPDATE events ${UNCHUNKED} SET chunked = 1 WHERE project = ? AND ${inSession(session)} AND chunked = 0`).run(project, ...(session === "" ? [] : [session])).changes;
  }

  recent(project: string, opts: { types?: string[]; session?: string; limit: number }): Clean<StoredEvent[]> {
    if (opts.types && opts.types.length > 0 && !opts.session) {
      // The newest of each type from its own index range, merged: bounded however rare a type is.
      const each = "SELECT * FROM (SELECT rowid AS r, * FROM events INDEXED BY events_live WHERE project = ? AND type = ? AND deleted_at IS NULL ORDER BY time DESC, rowid DESC LIMIT ?)";
      const rows = this.db.prepare(`${opts.types.map(() => each).join(" UNION ALL ")} ORDER BY time DESC, r DESC LIMIT ?`).all(...opts.types.flatMap((t) => [project, t, opts.limit]), opts.limit) as (EventRow & { r: number })[];
      return asStored(rows.map(({ r: _r, ...row }) => toStored(row)));
    }
    const where = ["project = ?", "deleted_at IS NULL"];
    const params: unknown[] = [project];
    if (opts.types && opts.types.length > 0) {
      where.push(`type IN (${opts.types.map(() => "?").join(", ")})`);
      params.push(...opts.types);
    }
    if (opts.session) {
      where.push("session = ?");
      params.push(opts.session);
    }
    const rows = this.db.prepare(`SELECT * FROM events WHERE ${where.join(" AND ")} ORDER BY time DESC, rowid DESC LIMIT ?`).all(...params, opts.limit) as EventRow[];
    return asStored(rows.map(toStored));
  }

  /**
   * The decision-like memories of a project (decision, rejected, learned, preference) at or above
   * the confidence its kind needs, that a projection by salience can rank first: the newest
   * `perKind` of each kind, and every one with a salience row (`usedChunks`: it was used or
   * confirmed). A memory never used ranks by its age alone, so none older than the newest
   * `perKind` of its kind can beat them. Ids in `usedChunks` are chunk ids.
   */
  decisionsOf(project: string, minConfidence: Record<string, number>, perKind: number): Clean<{ id: string; type: string; text: string; time: string; session: string; files: string[]; assistant?: AssistantName }[]> {
    const cols = "e.id, e.type, e.text, e.time, coalesce(e.session, '') AS session, e.files, json_extract(e.metadata, '$.assistant') AS assistant";
    const conf = "coalesce(json_extract(e.metadata, '$.confidence'), 1) >= ?";
    const recent = this.db.prepare(`SELECT ${cols} FROM events e INDEXED BY events_live WHERE e.project = ? AND e.type = ? AND e.deleted_at IS NULL AND ${conf} ORDER BY e.time DESC LIMIT ?`);
    // From the (few) salience rows outward: CROSS JOIN keeps SQLite from walking the project's chunks.
    const used = this.db.prepare(
      `SELECT ${cols} FROM salience s CROSS JOIN chunks c ON c.id = s.chunk_id CROSS JOIN events e ON e.id = json_extract(c.metadata, '$.eventId')
       WHERE c.project = ? AND c.kind = ? AND e.project = c.project AND e.deleted_at IS NULL AND ${conf}`,
    );
    type Row = { id: string; type: string; text: string; time: string; session: string; files: string; assistant: unknown };
    const byId = new Map<string, Row>();
    for (const [type, min] of Object.entries(minConfidence)) {
      for (const r of recent.all(project, type, min, perKind) as Row[]) byId.set(r.id, r);
      for (const r of used.all(project, type, min) as Row[]) byId.set(r.id, r);
    }
    return asStored([...byId.values()].map(({ assistant, ...r }) => ({ ...r, files: JSON.parse(r.files) as string[], ...(isAssistantName(assistant) ? { assistant } : {}) })));
  }

  /**
   * The assistant each of `sessions` ran in, for those that ran in one besides Claude Code (every
   * event a session captures records it: the session's first event says). One indexed row per session.
   */
  sessionAssistants(project: string, sessions: readonly string[]): Map<string, AssistantName> {
    const first = this.db.prepare("SELECT json_extract(metadata, '$.assistant') FROM events INDEXED BY events_project_session WHERE project = ? AND session = ? ORDER BY time LIMIT 1").pluck();
    const out = new Map<string, AssistantName>();
    for (const s of new Set(sessions)) {
      const a = first.get(project, s);
      if (isAssistantName(a)) out.set(s, a);
    }
    return out;
  }

  /** Live memories of a project by kind (what `mem list --kind K` counts). */
  liveCounts(project: string, kinds: readonly string[]): Record<string, number> {
    const count = this.db.prepare("SELECT count(*) FROM events INDEXED BY events_live WHERE project = ? AND type = ? AND deleted_at IS NULL").pluck();
    return Object.fromEntries(kinds.map((k) => [k, count.get(project, k) as number]));
  }

  /** The live events among `ids` (any order). */
  liveByIds(ids: readonly string[]): Clean<{ id: string; type: string; text: string; time: string }[]> {
    const get = this.db.prepare("SELECT id, type, text, time FROM events WHERE id = ? AND deleted_at IS NULL");
    return asStored(ids.flatMap((id) => (get.get(id) as { id: string; type: string; text: string; time: string } | undefined) ?? []));
  }

  /** Captured memories of a project, newest first, filtered; `total` counts all that match. */
  list(project: string, f: { kinds?: readonly string[]; session?: string; source?: string; sources?: readonly string[]; tags?: readonly string[]; text?: string; since?: string; until?: string; exclude?: readonly string[]; limit: number; offset?: number }): { total: number; rows: Clean<StoredEvent[]> } {
    const where = ["project = ?", "deleted_at IS NULL"];
    const params: unknown[] = [project];
    if (f.exclude && f.exclude.length > 0) {
      where.push("id NOT IN (SELECT value FROM json_each(?))");
      params.push(JSON.stringify(f.exclude));
    }
    if (f.kinds && f.kinds.length > 0) {
      where.push(`type IN (${f.kinds.map(() => "?").join(", ")})`);
      params.push(...f.kinds);
    }
    if (f.session) {
      where.push("session = ?");
      params.push(f.session);
    }
    const sources = f.sources ?? (f.source ? [f.source] : []);
    if (sources.length > 0) {
      // keyword, tag and explicit are recorded; anything else was captured from a tool call
      where.push(`(CASE WHEN json_extract(metadata, '$.source') IN ('keyword', 'tag', 'explicit') THEN json_extract(metadata, '$.source') ELSE 'captured' END) IN (${sources.map(() => "?").join(", ")})`);
      params.push(...sources);
    }
    for (const t of f.tags ?? []) {
      where.push("EXISTS (SELECT 1 FROM json_each(metadata, '$.tags') WHERE value = ?)");
      params.push(t);
    }
    for (const w of (f.text ?? "").split(/\s+/).filter(Boolean)) {
      where.push("instr(lower(text), lower(?)) > 0");
      params.push(w);
    }
    if (f.since) {
      where.push("time >= ?");
      params.push(f.since);
    }
    if (f.until) {
      where.push("time < ?");
      params.push(f.until);
    }
    const sql = where.join(" AND ");
    const total = this.db.prepare(`SELECT count(*) FROM events WHERE ${sql}`).pluck().get(...params) as number;
    const rows = this.db.prepare(`SELECT * FROM events WHERE ${sql} ORDER BY time DESC, rowid DESC LIMIT ? OFFSET ?`).all(...params, f.limit, f.offset ?? 0) as EventRow[];
    return { total, rows: asStored(rows.map(toStored)) };
  }

  count(project?: string): number {
    return project === undefined
      ? (this.db.prepare("SELECT count(*) FROM events").pluck().get() as number)
      : (this.db.prepare("SELECT count(*) FROM events WHERE project = ?").pluck().get(project) as number);
  }
}
