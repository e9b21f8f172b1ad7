import { asStoredRow, type CleanFields } from "../redact/clean.cjs";
import type { Db } from "./db.js";
import { prepared } from "./statements.js";
import { MIN_DECISION_CONFIDENCE } from "./event-types.js";
import { recordMeta } from "./records.js";

/**
 * The decisions and rejected approaches the pre-tool check reads (src/inject/pretool-check.ts):
 * the live ones of the given projects, newest first, those captured below the decision confidence
 * left out, each with the files it is anchored to. One indexed read per project. And the team's
 * decision records (ruledRecords), whose turned-down options count as rejected.
 */
export interface RuledMemory {
  id: string;
  project: string;
  type: string;
  time: string;
  text: string;
  /** Its `files` (as captured: absolute or relative to the project) and its anchors' paths (absolute). */
  files: string[];
}

/** At most this many memories per project are read for one check (the newest). */
export const MAX_CHECKED = 2_000;

interface Row {
  id: string;
  project: string;
  type: string;
  time: string;
  text: string;
  files: string;
  metadata: string;
  anchored: string | null;
}

const list = (json: string | null): string[] => {
  try {
    const v = JSON.parse(json ?? "[]") as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
};

const confidence = (metadata: string): number => {
  try {
    const c = (JSON.parse(metadata) as { confidence?: unknown }).confidence;
    return typeof c === "number" ? c : 1;
  } catch {
    return 1;
  }
};

export function ruledMemories(db: Db, projects: readonly string[]): CleanFields<RuledMemory>[] {
  const q = prepared(
    db,
    `SELECT e.id, e.project, e.type, e.time, e.text, e.files, e.metadata, (SELECT json_group_array(a.path) FROM anchors a WHERE a.memory = e.id) AS anchored
     FROM events e INDEXED BY events_live WHERE e.project = ? AND e.type IN ('decision', 'rejected') AND e.deleted_at IS NULL ORDER BY e.time DESC LIMIT ?`,
  );
  const out: CleanFields<RuledMemory>[] = [];
  for (const project of new Set(projects)) {
    for (const r of q.all(project, MAX_CHECKED) as Row[]) {
      if (confidence(r.metadata) < MIN_DECISION_CONFIDENCE) continue;
      const files = [...new Set([...list(r.files), ...list(r.anchored)])];
      out.push(asStoredRow<RuledMemory>({ id: r.id, project: r.project, type: r.type, time: r.time, text: r.text, files }));
    }
  }
  return out;
}

/** A team decision record the pre-tool check reads: its text whole (every chunk, in order), to find the options it turned down. */
export interface RuledRecord {
  /** The record's first chunk: the id every output shows for it. */
  chunk: string;
  project: string;
  /** decision (accepted) or rejected, by its status. */
  kind: string;
  /** Its date as written, or "". */
  date: string;
  title: string;
  text: string;
}

/** At most this many records per project are read for one check (the newest), and this many chunks of each. */
export const MAX_RECORDS = 500;
const MAX_RECORD_CHUNKS = 40;

/**
 * The team tier's decision records of the given projects (the files in the repository's record
 * folders, src/team), accepted or rejected, newest date first. One indexed read per project.
 */
export function ruledRecords(db: Db, projects: readonly string[]): CleanFields<RuledRecord>[] {
  const q = prepared(
    db,
    `SELECT f.id AS chunk, s.project, json_extract(s.metadata, '$.kind') AS kind, f.date, f.heading, f.metadata,
       (SELECT group_concat(t.text, char(10)) FROM (SELECT c.text FROM chunks c WHERE c.source_id = s.id ORDER BY c.seq LIMIT ${MAX_RECORD_CHUNKS}) t) AS text
     FROM sources s JOIN chunks f ON f.source_id = s.id AND f.seq = 0
     WHERE s.project = ? AND json_extract(s.metadata, '$.record.team') = 1 AND json_extract(s.metadata, '$.kind') IN ('decision', 'rejected')
     ORDER BY coalesce(f.date, '') DESC, s.path LIMIT ?`,
  );
  const out: CleanFields<RuledRecord>[] = [];
  for (const project of new Set(projects)) {
    for (const r of q.all(project, MAX_RECORDS) as { chunk: string; project: string; kind: string; date: string | null; heading: string; metadata: string; text: string | null }[]) {
      const m = recordMeta(r);
      out.push(asStoredRow<RuledRecord>({ chunk: r.chunk, project: r.project, kind: r.kind, date: m.date ?? r.date ?? "", title: m.title ?? r.heading, text: r.text ?? "" }));
    }
  }
  return out;
}

const RULED = "('decision', 'rejected')";
const isRecord = (row: "new" | "old") => `json_extract(${row}.metadata, '$.record') IS NOT NULL`;
const ruledMemory = (row: "new" | "old") => `EXISTS (SELECT 1 FROM main.events e WHERE e.id = ${row}.memory AND e.type IN ${RULED})`;
/** Temporary triggers (this connection's only) that count its writes of what the check reads (an event marked chunked, a source re-stated unchanged: not). */
const WATCH = `
  CREATE TEMP TABLE IF NOT EXISTS pretool_writes (n INTEGER NOT NULL);
  INSERT INTO pretool_writes SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM pretool_writes);
  CREATE TEMP TRIGGER IF NOT EXISTS pretool_events_ai AFTER INSERT ON main.events WHEN new.type IN ${RULED} BEGIN UPDATE pretool_writes SET n = n + 1; END;
  CREATE TEMP TRIGGER IF NOT EXISTS pretool_events_au AFTER UPDATE OF project, type, time, text, files, metadata, deleted_at ON main.events WHEN old.type IN ${RULED} OR new.type IN ${RULED} BEGIN UPDATE pretool_writes SET n = n + 1; END;
  CREATE TEMP TRIGGER IF NOT EXISTS pretool_events_ad AFTER DELETE ON main.events WHEN old.type IN ${RULED} BEGIN UPDATE pretool_writes SET n = n + 1; END;
  CREATE TEMP TRIGGER IF NOT EXISTS pretool_anchors_ai AFTER INSERT ON main.anchors WHEN ${ruledMemory("new")} BEGIN UPDATE pretool_writes SET n = n + 1; END;
  CREATE TEMP TRIGGER IF NOT EXISTS pretool_anchors_au AFTER UPDATE OF memory, path ON main.anchors WHEN ${ruledMemory("old")} OR ${ruledMemory("new")} BEGIN UPDATE pretool_writes SET n = n + 1; END;
  CREATE TEMP TRIGGER IF NOT EXISTS pretool_anchors_ad AFTER DELETE ON main.anchors WHEN ${ruledMemory("old")} BEGIN UPDATE pretool_writes SET n = n + 1; END;
  CREATE TEMP TRIGGER IF NOT EXISTS pretool_sources_ai AFTER INSERT ON main.sources WHEN ${isRecord("new")} BEGIN UPDATE pretool_writes SET n = n + 1; END;
  CREATE TEMP TRIGGER IF NOT EXISTS pretool_sources_au AFTER UPDATE OF project, path, content_hash, metadata ON main.sources WHEN ${isRecord("old")} OR ${isRecord("new")} BEGIN UPDATE pretool_writes SET n = n + 1; END;
  CREATE TEMP TRIGGER IF NOT EXISTS pretool_sources_ad AFTER DELETE ON main.sources WHEN ${isRecord("old")} BEGIN UPDATE pretool_writes SET n = n + 1; END;`;
const watched = new WeakSet<Db>();

/**
 * A stamp of what the pre-tool check reads (ruledMemories, ruledRecords) as one connection sees
 * it: it changes when another connection (another process, or another of this one's) commits
 * anything (SQLite's `data_version`), and when this connection writes a decision or a rejected
 * approach, an anchor of one, or a decision record's source (temporary triggers of its own count
 * those writes, so its captures of other events, prompt logs and the like leave it as it was). A
 * cache of what the check read holds while its stamp is the same. Two small reads.
 */
export function pretoolStamp(db: Db): string {
  if (!watched.has(db)) {
    db.exec(WATCH);
    watched.add(db);
  }
  const version = db.pragma("data_version", { simple: true }) as number;
  const own = prepared(db, "SELECT n FROM temp.pretool_writes").get() as { n: number };
  return `${version}:${own.n}`;
}
