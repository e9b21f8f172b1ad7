/**
 * The files in play at SessionStart and the memories about them, read from the store: the files
 * recent sessions edited (their captured Edit, Write and MultiEdit events), git's view (the
 * branch, the working tree's changes, the branch's own: src/project/branch-changes.ts, run by the
 * caller), and the decisions, rejected approaches, lessons and errors anchored to those files
 * (src/anchor) or naming them. Bounded: indexed queries with limits, whatever the store holds.
 */
import { relative } from "node:path";
import type { GitView } from "../project/branch-changes.js";
import { storedFiles } from "../project/in-play.js";
import type { Db } from "../store/db.js";
import { MIN_DECISION_CONFIDENCE } from "../store/event-types.js";
import { prepared } from "../store/statements.js";
import { IN_PLAY_RULES, rankAboutFiles, recentEdits, type AboutFile, type InPlayRules } from "./in-play-rules.js";
import type { InPlay } from "./sections/in-play.js";

const KINDS = ["decision", "rejected", "learned", "preference", "error"];
/** Captured edits read, at most (newest first). */
const EDITS_READ = 500;
/** Files looked up for memories, at most. */
const LOOKED_UP = 200;
/** The newest memories of each kind whose own files are compared with the files in play (anchors reach older ones). */
const NAMED_READ = 300;
const DAY_MS = 86_400_000;

function editRows(db: Db, project: string, since: string): { files: string[]; time: string; session: string }[] {
  const rows = prepared(
    db,
    `SELECT files, time, coalesce(session, '') AS session FROM events INDEXED BY events_live
     WHERE project = ? AND type = 'file_modified' AND deleted_at IS NULL AND time >= ? ORDER BY time DESC LIMIT ?`,
  ).all(project, since, EDITS_READ) as { files: string; time: string; session: string }[];
  return rows.map((r) => ({ ...r, files: storedFiles(r.files) }));
}

/** Memories anchored to one of `paths` (absolute): from the anchors' path index outward. */
function anchored(db: Db, project: string, paths: readonly string[]): AboutFile[] {
  const rows = prepared(
    db,
    `SELECT e.id AS id, e.type AS type, e.text AS text, e.time AS time, e.files AS files, a.path AS path
     FROM json_each(?) j CROSS JOIN anchors a ON a.path = j.value CROSS JOIN events e ON e.id = a.memory
     WHERE e.project = ? AND e.deleted_at IS NULL AND e.type IN (${KINDS.map(() => "?").join(", ")})
       AND (e.type = 'error' OR coalesce(json_extract(e.metadata, '$.confidence'), 1) >= ?)
     ORDER BY e.time DESC, e.id LIMIT 400`,
  ).all(JSON.stringify(paths), project, ...KINDS, MIN_DECISION_CONFIDENCE) as { id: string; type: string; text: string; time: string; files: string; path: string }[];
  const byId = new Map<string, AboutFile & { files: string[] }>();
  for (const r of rows) {
    const m = byId.get(r.id) ?? { id: r.id, type: r.type, text: r.text, time: r.time, files: storedFiles(r.files) };
    // A memory anchored by a path in its text names no file of its own: the anchored one is shown.
    if (!m.files.includes(r.path) && m.files.length < 2) m.files.push(r.path);
    byId.set(r.id, m);
  }
  return [...byId.values()];
}

/**
 * The newest NAMED_READ memories of each kind that name one of `paths` among their files (as
 * given: absolute, or relative to the root). Each kind walks its own index from the newest, so a
 * store of any size costs the same; older ones are found through their anchors.
 */
function named(db: Db, project: string, paths: ReadonlySet<string>): AboutFile[] {
  const st = prepared(db, "SELECT id, type, text, time, files FROM events INDEXED BY events_live WHERE project = ? AND type = ? AND deleted_at IS NULL ORDER BY time DESC LIMIT ?");
  const out: AboutFile[] = [];
  for (const kind of KINDS) {
    for (const r of st.all(project, kind, NAMED_READ) as { id: string; type: string; text: string; time: string; files: string }[]) {
      if (r.files === "[]") continue;
      const files = storedFiles(r.files);
      if (files.some((f) => paths.has(f))) out.push({ ...r, files });
    }
  }
  return out;
}

export function gatherInPlay(db: Db, project: string, root: string | undefined, git: GitView | undefined, now: number, rules: InPlayRules = IN_PLAY_RULES): InPlay | undefined {
  const edited = recentEdits(editRows(db, project, new Date(now - rules.editDays * DAY_MS).toISOString()), now, root, rules);
  const paths = [...new Set([...(git?.changed ?? []), ...edited.map((e) => e.path), ...(git?.branchFiles ?? [])])].slice(0, LOOKED_UP);
  if (paths.length === 0) return undefined;
  // A memory names a file as given (relative to the root) or absolute; anchors are absolute.
  const asNamed = new Set([...paths, ...(root ? paths.map((p) => relative(root, p)) : [])]);
  const memories = rankAboutFiles([...anchored(db, project, paths), ...named(db, project, asNamed)], rules.memories);
  return {
    ...(git?.branch ? { branch: git.branch } : {}),
    files: git?.changed ?? [],
    changes: git?.changes ?? 0,
    ...(git && git.branchFiles.length > 0 ? { branchFiles: git.branchFiles } : {}),
    ...(edited.length > 0 ? { edited } : {}),
    memories,
  };
}
