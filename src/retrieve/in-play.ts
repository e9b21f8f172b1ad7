/**
 * Which search candidates are about a file in play (src/project/in-play.ts): a markdown note that
 * is that file, or a captured memory anchored to it (src/anchor) or naming it among its files.
 * The ranking lifts these a little (src/retrieve/salience-rank.ts).
 */
import { isAbsolute, resolve } from "node:path";
import { storedFiles, type FilesInPlay, type InPlayReason } from "../project/in-play.js";
import { eventsOfChunks } from "../store/anchors.js";
import type { Db } from "../store/db.js";
import { prepared } from "../store/statements.js";

/** The file in play a candidate is about, and why that file is in play. */
export interface InPlayMark {
  path: string;
  why: InPlayReason;
}

const absolute = (p: string, root: string | undefined) => (isAbsolute(p) ? resolve(p) : root ? resolve(root, p) : undefined);

/**
 * Candidates (chunk ids) about a file in `files`, each with the first such file found. A memory
 * captured in `session` itself is not lifted for that session's own edits and reads (its tool
 * events name exactly those files, and are already in its context); for git's changes it is.
 */
export function aboutFilesInPlay(db: Db, chunkIds: readonly string[], files: FilesInPlay, projectRoot: (project: string) => string | undefined, session?: string): Map<string, InPlayMark> {
  const out = new Map<string, InPlayMark>();
  if (files.size === 0 || chunkIds.length === 0) return out;
  const mark = (id: string, p: string | undefined, own = false) => {
    const why = p === undefined ? undefined : files.get(p);
    if (!why || out.has(id) || (own && why !== "changed in git")) return;
    out.set(id, { path: p!, why });
  };
  const rows = prepared(db, "SELECT c.id AS id, c.path AS path, c.project AS project FROM json_each(?) j CROSS JOIN chunks c ON c.id = j.value").all(JSON.stringify(chunkIds)) as { id: string; path: string; project: string }[];
  for (const r of rows) if (!r.path.startsWith("session:")) mark(r.id, absolute(r.path, projectRoot(r.project)));
  const events = eventsOfChunks(db, chunkIds);
  if (events.size === 0) return out;
  const chunkOf = new Map<string, string[]>();
  for (const [chunk, { event }] of events) chunkOf.set(event, [...(chunkOf.get(event) ?? []), chunk]);
  const ids = JSON.stringify([...chunkOf.keys()]);
  const named = prepared(db, "SELECT e.id AS id, e.project AS project, e.files AS files, e.session AS session FROM json_each(?) j CROSS JOIN events e ON e.id = j.value").all(ids) as { id: string; project: string; files: string; session: string | null }[];
  const own = new Set(session ? named.filter((e) => e.session === session).map((e) => e.id) : []);
  // Anchors hold absolute paths; an event's own files may be relative to its project's root.
  const anchored = prepared(db, "SELECT a.memory AS memory, a.path AS path FROM json_each(?) j CROSS JOIN anchors a ON a.memory = j.value").all(ids) as { memory: string; path: string }[];
  for (const a of anchored) for (const chunk of chunkOf.get(a.memory) ?? []) mark(chunk, a.path, own.has(a.memory));
  for (const e of named) for (const f of storedFiles(e.files)) for (const chunk of chunkOf.get(e.id) ?? []) mark(chunk, absolute(f, projectRoot(e.project)), own.has(e.id));
  return out;
}
