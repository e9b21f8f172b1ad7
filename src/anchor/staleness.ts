/**
 * Is a memory still true of the code? A memory that names files was anchored to their git blobs
 * when it was made (src/anchor/anchor.ts); here each anchor is compared with the file as it is:
 *
 * - deleted: the file had a blob and is gone ("possibly outdated: src/auth.c deleted");
 * - changed: its blob differs ("possibly outdated: src/auth.c changed 3 days ago"), dated by the
 *   commit that made the file what it is when that is cheap to know (git allowed and the file
 *   clean at its last commit, made after the anchor), else by the file's mtime;
 * - another branch: the branch checked out now is not the one the memory was captured on
 *   ("captured on branch feature-x").
 *
 * Deleted and changed carry the ranking penalty (`stalePenalty` in src/memory/salience.ts); a
 * branch alone is said, not penalised. An anchor without a blob (the file was missing, too large
 * or unreadable) says nothing about content. Reinforcing or editing a memory re-anchors it
 * (`reanchorEvents`), which clears the flag.
 *
 * Cost: a stat per file and a read of HEAD per repository when the cache knows the blob. A caller
 * on the prompt's path passes `hash: false` (a file not in the cache is not judged now and is left
 * in `cache.pending` for `cache.warm()` once the answer is out) and never `git: true`.
 */
import { isAbsolute, relative } from "node:path";
import { field } from "../render/line.js";
import { anchorsOf, type StoredAnchor } from "../store/anchors.js";
import type { Db } from "../store/db.js";
import { processCache, type AnchorCache } from "./cache.js";

export interface StaleFlag {
  /** A short rendered phrase: "possibly outdated: src/auth.c changed 3 days ago". */
  text: string;
  /** Deleted or changed: rank a little lower. */
  penalty: boolean;
  changes: { path: string; what: "deleted" | "changed"; at?: number }[];
  /** The branch the memory was captured on, when another is checked out now. */
  branch?: string;
}

/** An anchor beside what its file is now. */
export interface AnchorView {
  path: string;
  blob: string | null;
  branch: string | null;
  at: number;
  now: {
    exists: boolean;
    /** undefined: not known (not hashed yet). */
    blob: string | null | undefined;
    /** When the file became what it is (commit time or mtime), when known. */
    changedAt?: number;
    /** The repository's branch now (null: detached); undefined: no repository or HEAD unreadable. */
    branch: string | null | undefined;
  };
}

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago", "4 months ago". Pure. */
export function ago(ms: number): string {
  const m = Math.floor(Math.max(0, ms) / 60_000);
  const n = (k: number, unit: string) => `${k} ${unit}${k === 1 ? "" : "s"} ago`;
  if (m < 1) return "just now";
  if (m < 60) return n(m, "minute");
  if (m < 24 * 60) return n(Math.floor(m / 60), "hour");
  if (m < 60 * 24 * 60) return n(Math.floor(m / (24 * 60)), "day");
  return n(Math.floor(m / (30 * 24 * 60)), "month");
}

/** How a path is shown: relative to the project root when inside it. Pure. */
export function shownPath(path: string, root: string | undefined): string {
  if (!root || !isAbsolute(root)) return path;
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}

const MAX_NAMED = 2;

/** The flag for one memory's anchors, or undefined when nothing is off. Pure. */
export function judgeAnchors(anchors: readonly AnchorView[], now: number, root?: string): StaleFlag | undefined {
  const changes: StaleFlag["changes"] = [];
  let branch: string | undefined;
  for (const a of anchors) {
    if (a.blob !== null) {
      if (!a.now.exists) changes.push({ path: a.path, what: "deleted" });
      else if (a.now.blob !== undefined && a.now.blob !== a.blob) changes.push({ path: a.path, what: "changed", ...(a.now.changedAt !== undefined ? { at: a.now.changedAt } : {}) });
    }
    if (branch === undefined && a.branch !== null && a.now.branch !== undefined && a.now.branch !== a.branch) branch = a.branch;
  }
  if (changes.length === 0 && branch === undefined) return undefined;
  const parts: string[] = [];
  if (changes.length > 0) {
    const named = changes.slice(0, MAX_NAMED).map((c) => `${field(shownPath(c.path, root), 120)} ${c.what === "deleted" ? "deleted" : c.at !== undefined ? `changed ${ago(now - c.at)}` : "changed"}`);
    const more = changes.length > MAX_NAMED ? ` (+${changes.length - MAX_NAMED} more)` : "";
    parts.push(`possibly outdated: ${named.join(", ")}${more}`);
  }
  if (branch !== undefined) parts.push(`captured on branch ${field(branch, 80)}`);
  return { text: parts.join("; "), penalty: changes.length > 0, changes, ...(branch !== undefined ? { branch } : {}) };
}

export interface StaleOptions {
  cache?: AnchorCache;
  /** Hash files the cache does not know (default true; false on the prompt's path). */
  hash?: boolean;
  /** May spawn `git log` to date a change by its commit (default false; `mem query` allows it). */
  git?: boolean;
}

/** The current state of each anchored file, through the cache. */
function view(a: StoredAnchor, cache: AnchorCache, opts: StaleOptions, heads: Map<string, ReturnType<AnchorCache["head"]>>): AnchorView {
  const seen = cache.state(a.path, opts.hash ?? true);
  const repo = cache.repoOf(a.path);
  let head = repo ? heads.get(repo.gitDir) : undefined;
  if (repo && !heads.has(repo.gitDir)) heads.set(repo.gitDir, (head = cache.head(repo)));
  let changedAt: number | undefined;
  if (seen.exists && typeof seen.blob === "string" && seen.blob !== a.blob) {
    changedAt = seen.mtimeMs;
    const c = repo && head ? cache.commit(repo, head, a.path, seen.blob, opts.git ?? false) : undefined;
    // The file is as its last commit left it, and that commit came after the anchor: the change is that commit.
    if (c && c.blob === seen.blob && c.time >= Math.floor(a.at / 1000) * 1000) changedAt = c.time;
  }
  return {
    path: a.path,
    blob: a.blob,
    branch: a.branch,
    at: a.at,
    now: { exists: seen.exists, blob: seen.blob, ...(changedAt !== undefined ? { changedAt } : {}), branch: head ? head.branch : undefined },
  };
}

/**
 * Flags for the memories among `eventIds` (captured event ids) that are possibly outdated or
 * from another branch. `root` (the project root) makes paths shown relative. Memories without
 * anchors, or whose files are as anchored, get no entry.
 */
export function staleFlags(db: Db, eventIds: readonly string[], root: string | undefined, now: number, opts: StaleOptions = {}): Map<string, StaleFlag> {
  const cache = opts.cache ?? processCache;
  const out = new Map<string, StaleFlag>();
  const heads = new Map<string, ReturnType<AnchorCache["head"]>>();
  for (const [id, anchors] of anchorsOf(db, eventIds)) {
    const flag = judgeAnchors(anchors.map((a) => view(a, cache, opts, heads)), now, root);
    if (flag) out.set(id, flag);
  }
  return out;
}
