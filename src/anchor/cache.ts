/**
 * What anchoring and staleness checks learn about files and repositories, kept so that a repeated
 * check costs a stat per file: blobs by (path, size, mtime), repositories by directory, the last
 * commit of a file by (path, blob, HEAD and its ref), the branch by HEAD's content. A capture
 * makes one for its own files; the daemon keeps one for as long as it runs. Entries are bounded.
 */
import { dirname, join, relative } from "node:path";
import { readRegular } from "../util/read-regular.cjs";
import { branchFromHead, fileState, findRepo, lastCommit, readHead, statFile, type Commit, type Repo } from "./git.js";

export interface Seen {
  exists: boolean;
  size: number;
  mtimeMs: number;
  /** The blob; null: none (missing, too large, unreadable); undefined: not known yet (hashing was not allowed). */
  blob: string | null | undefined;
}

export interface Head {
  /** HEAD's content plus its branch ref's (a loose ref file): changes with a commit or a checkout. */
  key: string;
  branch: string | null;
}

const MAX_ENTRIES = 20_000;

function bounded<K, V>(m: Map<K, V>, k: K, v: V): V {
  if (m.size >= MAX_ENTRIES) m.clear();
  m.set(k, v);
  return v;
}

export class AnchorCache {
  private readonly blobs = new Map<string, { size: number; mtimeMs: number; blob: string | null }>();
  private readonly repos = new Map<string, Repo | null>();
  private readonly commits = new Map<string, Commit | null>();
  /** Files whose blob was wanted but not computed (`hash: false`): what `warm` hashes later. */
  readonly pending = new Set<string>();
  /** Blobs computed (for measurements and tests). */
  hashed = 0;

  /** The file as it is: a stat, plus its blob from the cache, or hashed when `hash` (else left for `warm`). */
  state(path: string, hash = true): Seen {
    const st = statFile(path);
    if (!st.exists) return { ...st, blob: null };
    const hit = this.blobs.get(path);
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return { ...st, blob: hit.blob };
    if (!hash) {
      this.pending.add(path);
      return { ...st, blob: undefined };
    }
    const f = fileState(path);
    this.hashed++;
    if (f.exists) bounded(this.blobs, path, { size: f.size, mtimeMs: f.mtimeMs, blob: f.blob });
    return { exists: f.exists, size: f.size, mtimeMs: f.mtimeMs, blob: f.blob };
  }

  /** Hashes the files left pending (after an answer has gone out). */
  warm(): number {
    const paths = [...this.pending];
    this.pending.clear();
    for (const p of paths) this.state(p, true);
    return paths.length;
  }

  repoOf(path: string): Repo | undefined {
    const dir = dirname(path);
    const hit = this.repos.get(dir);
    if (hit !== undefined) return hit ?? undefined;
    return bounded(this.repos, dir, findRepo(path) ?? null) ?? undefined;
  }

  /** HEAD as it is now (two small reads: HEAD and its loose ref). */
  head(repo: Repo): Head | undefined {
    const content = readHead(repo.gitDir);
    if (content === undefined) return undefined;
    const branch = branchFromHead(content);
    let ref = "";
    if (branch !== null) {
      const common = readRegular(join(repo.gitDir, "commondir"), 4096);
      const base = common.ok ? join(repo.gitDir, common.data.toString("utf8").trim()) : repo.gitDir;
      const r = readRegular(join(base, "refs", "heads", branch), 4096);
      ref = r.ok ? r.data.toString("utf8").trim() : "";
    }
    return { key: `${content.trim()}\0${ref}`, branch };
  }

  /**
   * The last commit that changed `path` in HEAD's history, if known: from the cache, else (when
   * `git` is allowed) one `git log`. Undefined when unknown or never committed.
   */
  commit(repo: Repo, head: Head, path: string, blob: string, git: boolean): Commit | undefined {
    const key = `${path}\0${blob}\0${head.key}`;
    const hit = this.commits.get(key);
    if (hit !== undefined) return hit ?? undefined;
    if (!git) return undefined;
    return bounded(this.commits, key, lastCommit(repo, relative(repo.root, path)) ?? null) ?? undefined;
  }
}

/** One cache for a process that checks again and again (the daemon). */
export const processCache = new AnchorCache();
