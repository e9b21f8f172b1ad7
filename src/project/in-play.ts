/**
 * The files in play: what the user is working on now, for ranking (src/retrieve/salience-rank.ts
 * lifts memories about these files a little). Two sources:
 *  - the files this session edited or read (its captured events; one indexed query);
 *  - the files git reports as changed in the project's repository (staged, unstaged, untracked),
 *    from `git status`, bounded in time and bytes, run without taking git's optional locks. The
 *    daemon keeps the answer per repository and refreshes it after a prompt (`GitChangesCache`),
 *    so a prompt never waits for git.
 * Paths are absolute. Whatever git or the store says is data: a path is only ever compared.
 */
import { execFile, spawnSync } from "node:child_process";
import { ownGitAt, SAFE_GIT_CONFIG } from "./git-marker.js";
import { dirname, isAbsolute, resolve } from "node:path";
import type { Db } from "../store/db.js";
import { prepared } from "../store/statements.js";
import { cleanText } from "../redact/clean.cjs";
import { memoized } from "../util/memo.js";

/** Why a file is in play, as `--explain` and `mem why` say it. */
export type InPlayReason = "changed in git" | "edited in this session" | "read in this session";

/** Absolute path → why it is in play. */
export type FilesInPlay = ReadonlyMap<string, InPlayReason>;

/** Files a session touched, newest first, at most this many. */
export const MAX_SESSION_FILES = 200;
/** Changed files kept from git, at most. */
export const MAX_GIT_FILES = 2_000;

const EDIT_TYPES = new Set(["file_modified"]);
const READ_TYPES = new Set(["file_explored"]);

/** An event's stored `files` (a JSON array): its non-empty strings; nothing for anything else. */
export function storedFiles(json: string): string[] {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return [];
  }
  return Array.isArray(v) ? v.filter((f): f is string => typeof f === "string" && f !== "") : [];
}

/** The files the session's captured events edited or read (an edit wins over a read), resolved against `root`. */
export function sessionFiles(db: Db, project: string, session: string, root: string | undefined): Map<string, InPlayReason> {
  const out = new Map<string, InPlayReason>();
  if (session === "") return out;
  const rows = prepared(
    db,
    `SELECT type, files FROM events WHERE project = ? AND session = ? AND type IN ('file_modified', 'file_explored') AND deleted_at IS NULL
     ORDER BY time DESC LIMIT ?`,
  ).all(project, session, MAX_SESSION_FILES) as { type: string; files: string }[];
  for (const r of rows) {
    for (const f of storedFiles(r.files)) {
      if (f.length > 4_096) continue;
      const abs = isAbsolute(f) ? resolve(f) : root ? resolve(root, f) : undefined;
      if (!abs) continue;
      if (EDIT_TYPES.has(r.type)) out.set(abs, "edited in this session");
      else if (READ_TYPES.has(r.type) && !out.has(abs)) out.set(abs, "read in this session");
    }
  }
  return out;
}

/** The directory holding `.git` (a directory, or a file for a worktree or submodule) at or above `dir`. */
export function repoTop(dir: string): string | undefined {
  let d = resolve(dir);
  for (let i = 0; i < 256; i++) {
    if (ownGitAt(d)) return d;
    const up = dirname(d);
    if (up === d) return undefined;
    d = up;
  }
  return undefined;
}

/** What `git status` says: the branch checked out (none when detached) and the changed files, absolute. */
export interface GitStatus {
  branch?: string;
  files: string[];
  /** How many changes git lists: a rename or a copy is one, though both its paths are in `files`. */
  changes: number;
}

/** A path as the store keeps it (redacted), remembered: the daemon reads the same changed files again and again. */
const storedPath = memoized(cleanText, 4_096);

/**
 * `git status --porcelain=v1 -z --branch` output read: the `## branch...upstream` header, then the
 * paths (relative to the repository's top `top`) made absolute, and redacted as the store redacts
 * a path (a note whose name holds a secret-shaped token is stored under its redacted name: so it
 * is still found in play, and no such name goes further). A rename names both sides (the old path
 * follows in its own field); both are in play. Pure.
 */
export function parsePorcelainZ(out: string, top: string, max = MAX_GIT_FILES): GitStatus {
  const fields = out.split("\0");
  // Complete output ends with a NUL; without one, the last field was cut off (the byte limit).
  if (!out.endsWith("\0")) fields.pop();
  const paths: string[] = [];
  let branch: string | undefined;
  let changes = 0;
  for (let i = 0; i < fields.length && paths.length < max; i++) {
    const f = fields[i]!;
    if (f.startsWith("## ")) {
      const head = f.slice(3);
      if (!head.startsWith("HEAD (no branch)")) branch = head.replace(/^No commits yet on /, "").split("...")[0];
      continue;
    }
    if (f.length < 4 || f[2] !== " ") continue; // "XY path"
    const xy = f.slice(0, 2);
    changes++;
    paths.push(storedPath(resolve(top, f.slice(3))));
    if ((xy.includes("R") || xy.includes("C")) && i + 1 < fields.length) {
      const from = fields[++i]!;
      if (from !== "" && paths.length < max) paths.push(storedPath(resolve(top, from)));
    }
  }
  return { ...(branch ? { branch } : {}), files: [...new Set(paths)], changes };
}

export interface GitStatusOptions {
  timeoutMs: number;
  maxBytes: number;
  /** Untracked files too (default): a whole-tree walk, slow in a large repository (the briefing leaves them out). */
  untracked?: boolean;
  /** The git binary (tests). */
  git?: string;
}

export const DEFAULT_GIT_STATUS: GitStatusOptions = { timeoutMs: 1_500, maxBytes: 1024 * 1024 };

const statusArgs = (o: GitStatusOptions) => [...SAFE_GIT_CONFIG, "-c", "core.quotepath=off", "status", "--porcelain=v1", "-z", "--branch", `--untracked-files=${o.untracked === false ? "no" : "normal"}`, "--ignore-submodules=all"];
// No optional locks: a status run beside the user's own git commands never takes index.lock.
const statusEnv = () => ({ ...process.env, GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" });

/** `git status` of the repository holding `dir`; undefined outside a repository, without git, past the time limit, or on any error. */
export function gitStatus(dir: string, opts: GitStatusOptions = DEFAULT_GIT_STATUS): Promise<GitStatus | undefined> {
  const top = repoTop(dir);
  if (!top) return Promise.resolve(undefined);
  return new Promise((done) => {
    execFile(opts.git ?? "git", statusArgs(opts), { cwd: top, timeout: opts.timeoutMs, maxBuffer: opts.maxBytes, killSignal: "SIGKILL", env: statusEnv(), windowsHide: true }, (err, stdout) => {
      // Past maxBuffer, what was read is still good (the cut-off last field is dropped).
      const tooLong = err && (err as NodeJS.ErrnoException).code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER";
      done(err && !tooLong ? undefined : parsePorcelainZ(String(stdout), top));
    });
  });
}

/**
 * The files git sees changed in the repository holding `dir`: empty outside a repository, without
 * git, past the time limit, or on any error (in play is a hint for ranking; it never fails a search).
 */
export async function gitChangedFiles(dir: string, opts: GitStatusOptions = DEFAULT_GIT_STATUS): Promise<string[]> {
  return (await gitStatus(dir, opts))?.files ?? [];
}

/** The same, waited for (the SessionStart briefing): undefined outside a repository or when git fails or is slow. */
export function gitStatusSync(dir: string, opts: GitStatusOptions = DEFAULT_GIT_STATUS): GitStatus | undefined {
  const top = repoTop(dir);
  if (!top) return undefined;
  const r = spawnSync(opts.git ?? "git", statusArgs(opts), { cwd: top, timeout: opts.timeoutMs, maxBuffer: opts.maxBytes, killSignal: "SIGKILL", env: statusEnv(), encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], windowsHide: true });
  if (r.status !== 0 || typeof r.stdout !== "string") return undefined;
  return parsePorcelainZ(r.stdout, top);
}

/**
 * The daemon's git changes per repository. `current` answers at once with what it last saw (empty
 * the first time) and notes the repository as wanted; `refreshWanted`, which the daemon calls once
 * the prompt's answer has gone (starting a process is not free for a large daemon), runs git for
 * those whose answer is older than `ttlMs`, one run per repository at a time. A failed or timed-out
 * run keeps the last answer and is not tried again for `backoffMs` (a repository too large for
 * git status within its limit is not walked on every prompt).
 */
export class GitChangesCache {
  private readonly seen = new Map<string, { files: string[]; at: number; running: boolean }>();
  private readonly wanted = new Set<string>();

  constructor(
    private readonly ttlMs: number,
    private readonly run: (dir: string) => Promise<string[] | undefined> = async (dir) => (await gitStatus(dir))?.files,
    private readonly now: () => number = Date.now,
    private readonly backoffMs = 60_000,
  ) {}

  current(dir: string): string[] {
    const top = repoTop(dir);
    if (!top) return [];
    let e = this.seen.get(top);
    if (!e) {
      if (this.seen.size >= 64) this.seen.clear();
      this.seen.set(top, (e = { files: [], at: Number.NEGATIVE_INFINITY, running: false }));
    }
    if (!e.running && this.now() - e.at > this.ttlMs) this.wanted.add(top);
    return e.files;
  }

  /** Starts git for the repositories `current` found out of date (call it after the answer). */
  refreshWanted(): void {
    for (const top of this.wanted) {
      const entry = this.seen.get(top);
      if (!entry || entry.running) continue;
      entry.running = true;
      this.run(top)
        .then((files) => {
          if (files) entry.at = this.now();
          else entry.at = this.now() - this.ttlMs + this.backoffMs; // keep the last answer; wait before trying again
          if (files) entry.files = files;
        })
        .catch(() => undefined)
        .finally(() => (entry.running = false));
    }
    this.wanted.clear();
  }
}

/** Session files and git's changed files together (git's reason wins: the change is the stronger signal). */
export function mergeInPlay(session: ReadonlyMap<string, InPlayReason>, git: readonly string[]): FilesInPlay {
  const out = new Map(session);
  for (const f of git) out.set(f, "changed in git");
  return out;
}
