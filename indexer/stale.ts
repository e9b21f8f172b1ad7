import { statSync, type Stats } from "node:fs";
import { dirname } from "node:path";
import { cleanText } from "../src/redact/clean.cjs";
import type { Db } from "../src/store/db.js";
import { chunkedWith } from "./chunking-key.js";
import { CLOCK_SLACK_MS, dirsSeen, rootIndexedAt, sourcesUnderSql, under } from "./root-state.js";
import { removedRecordFolder } from "./removed-folder.js";
import { readSource } from "./read-source.js";
import { walkSources, type WalkOptions } from "./sources.js";

export interface RootRef {
  project: string;
  path: string;
}

export interface StaleRoot extends RootRef {
  /** What was found changed, for logs. */
  why: string;
}

interface Recorded {
  path: string;
  size: number;
  mtime_ms: number;
}


const statOf = (path: string): Stats | undefined => {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
};

const differs = (r: Recorded, st: Stats) => r.size !== st.size || r.mtime_ms !== st.mtimeMs;

/** The recorded state of a root that is a single file. */
const fileSource = (db: Db, root: RootRef) => db.prepare("SELECT path, size, mtime_ms FROM sources WHERE project = ? AND path = ?").get(root.project, root.path) as Recorded | undefined;

/**
 * Why a project's files are to be chunked again whatever changed (the chunker or its options did
 * since its last run: after an upgrade, say), or undefined; `chunking` the key of now (none: not
 * checked).
 */
function chunkingChanged(db: Db, project: string, chunking: string | undefined): string | undefined {
  if (chunking === undefined) return undefined;
  const before = chunkedWith(db, project);
  return before === chunking ? undefined : `chunking changed since it was indexed (${before ?? "chunker 1"} → ${chunking})`;
}

/**
 * The cheap check the prompt hook and `mem query` make when no daemon watches: has anything under
 * these roots changed since they were last indexed? Bounded by `budget` stat calls in all, with
 * no walk: per root, the root itself, then its most recently edited sources and a window of the
 * others that moves on every second (so a large tree is covered over successive checks), and
 * their directories (an added, removed or renamed file changes its directory's mtime; an edit in
 * place changes the file's own). `partial`: some root has more sources than were looked at.
 * A missing or unreadable root is not stale here (the daemon and `mem index` report it), unless it
 * is one of the record `folders` git removed with its last record (`recordFolderGone`). With
 * `chunking` (the key of now), a root of a project chunked under another key is stale.
 */
export function quickStale(db: Db, roots: RootRef[], opts: { budget: number; now: number; chunking?: string; folders?: readonly string[] }): { stale: StaleRoot[]; partial: boolean } {
  const stale: StaleRoot[] = [];
  let partial = false;
  const each = Math.max(8, Math.floor(opts.budget / Math.max(1, roots.length)));
  for (const root of roots) {
    const st = statOf(root.path);
    if (!st) {
      const gone = opts.folders ? recordFolderGone(db, root, opts.folders) : undefined;
      if (gone) stale.push({ ...root, why: gone });
      continue;
    }
    const rechunk = chunkingChanged(db, root.project, opts.chunking);
    if (rechunk) {
      stale.push({ ...root, why: rechunk });
      continue;
    }
    if (!st.isDirectory()) {
      const rec = fileSource(db, root);
      if (!rec || differs(rec, st)) stale.push({ ...root, why: `${root.path} changed` });
      continue;
    }
    const since = rootIndexedAt(db, root.project, root.path);
    if (since === undefined) {
      stale.push({ ...root, why: `${root.path}: no record of when it was last indexed` });
      continue;
    }
    // A coarse clock may date a change after the run's start a little before it; within that slack
    // a directory whose mtime is still the one the run read is unchanged.
    const seen = dirsSeen(db, root.project, root.path);
    const newer = (path: string, s: Stats) => s.mtimeMs >= since - CLOCK_SLACK_MS && seen.get(path) !== s.mtimeMs;
    if (newer(root.path, st)) {
      stale.push({ ...root, why: `${root.path}: entries added or removed` });
      continue;
    }
    const range = sourcesUnderSql(root.path);
    const count = db.prepare(`SELECT count(*) FROM sources WHERE ${range.sql}`).pluck().get(root.project, ...range.params) as number;
    const half = Math.max(1, Math.floor((each - 1) / 4)); // files and their directories, two samples
    const recent = db.prepare(`SELECT path, size, mtime_ms FROM sources WHERE ${range.sql} ORDER BY mtime_ms DESC LIMIT ?`).all(root.project, ...range.params, half) as Recorded[];
    const offset = count > half ? (Math.floor(opts.now / 1000) * half) % count : 0;
    const window = count > half ? (db.prepare(`SELECT path, size, mtime_ms FROM sources WHERE ${range.sql} ORDER BY path LIMIT ? OFFSET ?`).all(root.project, ...range.params, half, offset) as Recorded[]) : [];
    if (count > recent.length + window.length) partial = true;
    const why = check(root.path, [...recent, ...window], newer);
    if (why) stale.push({ ...root, why });
  }
  return { stale, partial };
}

/**
 * Why a missing root is to be indexed again (its records forgotten): it is a record folder git
 * removed from a repository still there (indexer/removed-folder.ts), and records from it are
 * still stored. Undefined otherwise: a missing root is kept as it was indexed.
 */
export function recordFolderGone(db: Db, root: RootRef, folders: readonly string[]): string | undefined {
  if (!removedRecordFolder(root.path, folders)) return undefined;
  const range = sourcesUnderSql(root.path);
  const any = db.prepare(`SELECT 1 FROM sources WHERE ${range.sql} LIMIT 1`).get(root.project, ...range.params);
  return any === undefined ? undefined : `${root.path}: removed from its repository`;
}

function check(root: string, sample: Recorded[], newer: (path: string, s: Stats) => boolean): string | undefined {
  const dirs = new Set<string>();
  for (const r of sample) {
    const st = statOf(r.path);
    // A file gone is seen in its directory's mtime; a path stored redacted is never found, and must not count as changed.
    if (st && differs(r, st)) return `${r.path} changed`;
    const d = dirname(r.path);
    if (d !== root && under(d, root)) dirs.add(d);
  }
  for (const d of dirs) {
    const st = statOf(d);
    if (st && newer(d, st)) return `${d}: entries added or removed`;
  }
  return undefined;
}

/**
 * The full check `mem index --stale` makes: a walk of the root compared with what is stored
 * (a file new, gone, or of another size or mtime). A file the indexer would skip (binary, too
 * large, not UTF-8), new or changed, is no news: it would be skipped again, and the root indexed
 * again at every check. Undefined when nothing changed.
 */
export function rootChanged(db: Db, root: RootRef, ignore: string[], maxFileBytes: number, chunking?: string, walk: WalkOptions = {}): string | undefined {
  const st = statOf(root.path);
  if (!st) return undefined;
  const rechunk = chunkingChanged(db, root.project, chunking);
  if (rechunk) return rechunk;
  if (!st.isDirectory()) {
    const rec = fileSource(db, root);
    return (!rec || differs(rec, st)) && readSource(root.path, maxFileBytes, root.path).ok ? `${root.path} changed` : undefined;
  }
  const range = sourcesUnderSql(root.path);
  const stored = new Map((db.prepare(`SELECT path, size, mtime_ms FROM sources WHERE ${range.sql}`).all(root.project, ...range.params) as Recorded[]).map((r) => [r.path, r]));
  const walked = walkSources([root.path], ignore, walk);
  let seen = 0;
  for (const f of walked.files) {
    const rec = stored.get(cleanText(f.path));
    if (!rec) {
      if (readSource(f.path, maxFileBytes, f.wall).ok) return `${f.path} is new`;
      continue;
    }
    seen++;
    // A file grown past the limit, or turned binary, keeps its chunks: skipped again, it is no news either.
    if ((rec.size !== f.size || rec.mtime_ms !== f.mtimeMs) && readSource(f.path, maxFileBytes, f.wall).ok) return `${f.path} changed`;
  }
  return seen < stored.size ? `${stored.size - seen} file(s) under ${root.path} gone` : undefined;
}
