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
