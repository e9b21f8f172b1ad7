import { asStoredRow, type CleanFields } from "../redact/clean.cjs";
import type { Db } from "./db.js";
import { prepared } from "./statements.js";
import { MIN_DECISION_CONFIDENCE } from "./event-types.js";

/**
 * The decisions and rejected approaches the pre-tool check reads (src/inject/pretool-check.ts):
 * the live ones of the given projects, newest first, those captured below the decision confidence
 * left out, each with the files it is anchored to. One indexed read per project.
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
