import type { CapturedEvent } from "../capture/types.js";
import { redact } from "../capture/redact.js";
import type { Db } from "./db.js";

export interface StoredEvent extends CapturedEvent {
  project: string;
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
}

const MAX_TEXT = 4_000;

function clean(text: string): string {
  const t = redact(text).text;
  return t.length > MAX_TEXT ? `${t.slice(0, MAX_TEXT)} …[truncated]` : t;
}

/** Redacts every string inside JSON-like metadata (keys are kept). */
function cleanDeep(v: unknown, depth = 0): unknown {
  if (typeof v === "string") return clean(v);
  if (depth > 8 || v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.slice(0, 200).map((x) => cleanDeep(x, depth + 1));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cleanDeep(x, depth + 1)]));
}

/**
 * Captured session events in SQLite. Redaction runs here, on every write, so nothing secret is
 * stored whichever hook captured it. Inserts are idempotent on the event id.
 */
export class EventStore {
  constructor(readonly db: Db) {}

  /** Returns how many events were new. */
  insert(project: string, events: CapturedEvent[], now: () => number = Date.now): number {
    if (events.length === 0) return 0;
    const ins = this.db.prepare(
      "INSERT OR IGNORE INTO events (id, project, session, type, time, files, text, metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    return this.db.transaction(() => {
      let n = 0;
      for (const e of events) {
        const time = e.time || new Date(now()).toISOString();
        const meta = cleanDeep({ ...e.metadata, ...(e.confidence !== undefined ? { confidence: e.confidence } : {}) });
        n += ins.run(e.id, project, e.session || null, e.type, time, JSON.stringify(e.files.map(clean)), clean(e.text), JSON.stringify(meta)).changes;
      }
      return n;
    }).immediate();
  }

  recent(project: string, opts: { types?: string[]; session?: string; limit: number }): StoredEvent[] {
    const where = ["project = ?"];
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
    return rows.map((r) => {
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
      };
    });
  }

  count(project?: string): number {
    return project === undefined
      ? (this.db.prepare("SELECT count(*) FROM events").pluck().get() as number)
      : (this.db.prepare("SELECT count(*) FROM events WHERE project = ?").pluck().get(project) as number);
  }
}
