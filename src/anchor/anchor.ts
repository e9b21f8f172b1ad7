/**
 * Anchoring: a captured memory that names files records, for each, its git blob and the branch
 * checked out, so that later checks can tell the memory may be outdated (src/anchor/staleness.ts).
 *
 * Which memories: `file_modified` events (the file as the edit left it); decisions, rejected
 * approaches, lessons and preferences whose `files` is not empty; explicit memories (`[MEMORY: …]`
 * tags, `mem remember`), whose text is also searched for paths. Only files that exist inside the
 * project's root are anchored (relative paths resolve against it; the project id when it is a path). An event is
 * anchored once, when first captured: a transcript read again keeps the anchor it had.
 *
 * Cost on the capture path: per file a stat and a read of at most 8 MiB hashed in-process (no
 * git process), per repository a lookup of `.git` and a read of HEAD; at most MAX_CAPTURE_FILES
 * distinct files per capture.
 */
import { isAbsolute, resolve } from "node:path";
import type { Captured } from "../capture/captured.js";
import { isExplicit } from "../capture/converge.js";
import type { CapturedEvent } from "../store/event-types.js";
import { clean } from "../redact/clean.cjs";
import { anchorsOf, reanchorRows, recordAnchors, type AnchorRow } from "../store/anchors.js";
import type { Db } from "../store/db.js";
import { realOr, within } from "../util/walls.cjs";
import { processCache, type AnchorCache, type Head } from "./cache.js";

/** Distinct files hashed per capture, at most. */
export const MAX_CAPTURE_FILES = 20;
const MAX_TEXT_PATHS = 10;
const WITH_FILES: ReadonlySet<string> = new Set(["decision", "rejected", "learned", "preference"]);

/**
 * Path-like words of a text: with a slash (`src/auth.c`, `./lib/x`) or a name with an extension
 * (`auth.c`, `README.md`); URLs and trailing punctuation left out. Pure.
 */
export function pathsInText(text: string): string[] {
  const out = new Set<string>();
  for (const word of text.split(/[\s,;()[\]{}"'`<>|*]+/)) {
    const p = word.replace(/[.:!?]+$/, "");
    if (p === "" || p.length > 400 || p.includes("://") || p.includes("//")) continue;
    const pathy = p.includes("/") ? /^[\w@.+~/-]+$/.test(p) && /[A-Za-z]/.test(p) : /^[\w@+-]+\.[A-Za-z][A-Za-z0-9]{0,7}$/.test(p);
    if (pathy) out.add(p);
    if (out.size >= MAX_TEXT_PATHS) break;
  }
  return [...out];
}

export interface AnchorTarget {
  memory: string;
  /** Absolute path. */
  path: string;
  /** Found in the text only (a guess at a path). */
  mentioned: boolean;
}

/** The files each event of a capture should be anchored to (at most MAX_CAPTURE_FILES distinct files). Pure. */
export function anchorTargets(events: readonly CapturedEvent[], root: string | undefined): AnchorTarget[] {
  const out: AnchorTarget[] = [];
  const files = new Set<string>();
  const add = (memory: string, p: string, mentioned: boolean) => {
    // Only files of the project: a path outside its root (`/etc/shadow`, `../../x`) or with no root
    // to hold it is never hashed, so no memory tells the model when a file elsewhere changes.
    const abs = root ? resolve(root, p) : undefined;
    if (abs === undefined || !within(abs, resolve(root!)) || (!files.has(abs) && files.size >= MAX_CAPTURE_FILES)) return;
    if (out.some((t) => t.memory === memory && t.path === abs)) return;
    files.add(abs);
    out.push({ memory, path: abs, mentioned });
  };
  for (const e of events) {
    const explicit = isExplicit(e);
    if (e.type === "file_modified" || explicit || WITH_FILES.has(e.type)) for (const f of e.files) add(e.id, f, false);
    if (explicit) for (const f of pathsInText(e.text)) add(e.id, f, true);
  }
  return out;
}

function rowFor(memory: string, path: string, cache: AnchorCache, heads: Map<string, Head | undefined>, now: number, onlyExisting: boolean): AnchorRow | undefined {
  const s = cache.state(path, true);
  if (onlyExisting && !s.exists) return undefined;
  const repo = cache.repoOf(path);
  let head: Head | undefined;
  if (repo) {
    if (!heads.has(repo.gitDir)) heads.set(repo.gitDir, cache.head(repo));
    head = heads.get(repo.gitDir);
  }
  return { memory, path, blob: s.blob ?? null, branch: head?.branch ?? null, at: now };
}


/** Anchors the events of a capture that name files and have no anchor yet. Returns the anchors recorded. */
export function anchorCaptured(db: Db, c: Captured, cache: AnchorCache = processCache): number {
  const targets = anchorTargets(c.events, isAbsolute(c.project) ? c.project : undefined);
  if (targets.length === 0) return 0;
  const have = anchorsOf(db, targets.map((t) => t.memory));
  const heads = new Map<string, Head | undefined>();
  // A file that is not there (an edit that failed, a path from another machine) anchors nothing.
  const root = realOr(c.project);
  const rows = targets
    .filter((t) => !have.has(t.memory) && within(realOr(t.path), root)) // a link inside the project to a file outside it is not followed
    .flatMap((t) => rowFor(t.memory, t.path, cache, heads, c.now, true) ?? []);
  return recordAnchors(db, clean(rows));
}

/**
 * Re-anchors memories (event ids) to their files as they are now: what reinforcement or an edit
 * does, so a memory confirmed after its file changed is no longer flagged. Callers: convergence
 * (src/capture/converge-step.ts); the other reinforcement paths (a memory injected into a prompt,
 * shown by `mem query`, confirmed by a later capture) should call it too, off the prompt's path.
 * Returns the anchors rewritten.
 */
export function reanchorEvents(db: Db, eventIds: readonly string[], now: number, cache: AnchorCache = processCache): number {
  const heads = new Map<string, Head | undefined>();
  const rows: AnchorRow[] = [];
  for (const [memory, anchors] of anchorsOf(db, eventIds)) {
    for (const a of anchors) rows.push(rowFor(memory, a.path, cache, heads, now, false)!);
  }
  return reanchorRows(db, clean(rows));
}
