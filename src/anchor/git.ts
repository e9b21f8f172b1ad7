/**
 * Git facts about working-tree files, read from the file system: which repository a path is in,
 * the branch checked out (from `HEAD`, never by spawning git), and a file's git blob id computed
 * here (sha1 of `blob <size>\0` + content, what `git hash-object` gives for a file with no
 * filters or line-ending conversion). Only `lastCommit` spawns git, and only callers off the
 * prompt's and the capture's path may use it.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { lstatSync, realpathSync, statSync, type Stats } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { readRegular } from "../util/read-regular.cjs";
import { systemPath } from "../util/walls.cjs";

/** Files larger than this get no blob (hashing them would cost a capture hook its budget). */
export const MAX_BLOB_BYTES = 8 * 1024 * 1024;

export interface Repo {
  /** The working tree's top directory. */
  root: string;
  /** Where HEAD lives: `<root>/.git`, or for a worktree or submodule the directory its `.git` file names. */
  gitDir: string;
}

/** The git blob id of `content`: sha1 over `blob <size>\0` + content. Pure. */
export function blobId(content: Buffer): string {
  return createHash("sha1").update(`blob ${content.length}\0`).update(content).digest("hex");
}

/** The branch a HEAD file's content names; null for a detached HEAD (a commit id) or anything else. Pure. */
export function branchFromHead(content: string): string | null {
  const m = /^ref:\s*refs\/heads\/(\S.*?)\s*$/m.exec(content);
  return m ? m[1]! : null;
}

/** The directory a `.git` file (worktree, submodule) points at, relative to the file's directory. Pure. */
export function gitDirFromFile(content: string, dir: string): string | undefined {
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(content);
  if (!m) return undefined;
  return isAbsolute(m[1]!) ? m[1]! : resolve(dir, m[1]!);
}

/** The repository holding `path` (a file or a directory, existing or not): the nearest `.git` walking up. */
export function findRepo(path: string): Repo | undefined {
  let dir = resolve(path);
  try {
    if (!statSync(dir).isDirectory()) dir = dirname(dir);
  } catch {
    dir = dirname(dir); // a deleted file: start from where it was
  }
  for (let cur = dir; ; cur = dirname(cur)) {
    const dotGit = join(cur, ".git");
    let st: Stats | undefined;
    try {
      st = lstatSync(dotGit);
    } catch {
      st = undefined;
    }
    const uid = process.getuid?.();
    if (st && uid !== undefined && st.uid !== uid && st.uid !== 0) st = undefined; // another account's .git (/tmp/.git) is none of ours
    if (st?.isDirectory()) return { root: cur, gitDir: dotGit };
    if (st?.isFile()) {
      const r = readRegular(dotGit, 4096);
      const gitDir = r.ok ? gitDirFromFile(r.data.toString("utf8"), cur) : undefined;
      return gitDir ? { root: cur, gitDir } : undefined;
    }
    if (dirname(cur) === cur) return undefined;
  }
}

/** The content of HEAD (for caching by content), or undefined when unreadable. */
export function readHead(gitDir: string): string | undefined {
  const r = readRegular(join(gitDir, "HEAD"), 4096);
  return r.ok ? r.data.toString("utf8") : undefined;
}

/** The branch checked out in `repo`, or null (detached HEAD, unreadable HEAD). */
export function currentBranch(repo: Repo): string | null {
  const head = readHead(repo.gitDir);
  return head === undefined ? null : branchFromHead(head);
}

export interface FileState {
  /** The blob id, or null: the file is missing, not a regular file, unreadable, or larger than the cap. */
  blob: string | null;
  exists: boolean;
  size: number;
  mtimeMs: number;
}

const MISSING: FileState = { blob: null, exists: false, size: -1, mtimeMs: -1 };

function systemFile(path: string): boolean {
  try {
    return systemPath(realpathSync(path));
  } catch {
    return true;
  }
}

/** Just the stat part of a file's state (for cache keys): a stat and no read. */
export function statFile(path: string): { exists: boolean; size: number; mtimeMs: number } {
  try {
    const st = statSync(path);
    return st.isFile() ? { exists: true, size: st.size, mtimeMs: st.mtimeMs } : { exists: false, size: -1, mtimeMs: -1 };
  } catch {
    return { exists: false, size: -1, mtimeMs: -1 };
  }
}

/**
 * A working-tree file's blob, size and mtime. Only regular files are read, at most `maxBytes`;
 * never the system's own (/proc, /sys, /dev, or a link into them: a memory "about"
 * /proc/self/environ would have mem read its own environment).
 */
export function fileState(path: string, maxBytes = MAX_BLOB_BYTES): FileState {
  const st = statFile(path);
  if (!st.exists) return MISSING;
  if (st.size > maxBytes || systemFile(path)) return { blob: null, ...st };
  const r = readRegular(path, maxBytes);
  return { blob: r.ok ? blobId(r.data) : null, ...st };
}

export interface Commit {
  /** Commit time (ms). */
  time: number;
  /** The file's blob after that commit; null when the commit deleted it. */
  blob: string | null;
}

/**
 * The last commit of HEAD's history that changed `rel` (relative to the repo root): one `git log`
 * process (≤ 2 s). Undefined when git is missing, fails or the file was never committed. Never on
 * a hook's path.
 */
export function lastCommit(repo: Repo, rel: string): Commit | undefined {
  const r = spawnSync("git", ["-C", repo.root, "log", "-1", "--format=%ct", "--raw", "--no-abbrev", "--no-renames", "--", rel], {
    encoding: "utf8",
    timeout: 2_000,
    stdio: ["ignore", "pipe", "ignore"],
    env: { ...process.env, GIT_OPTIONAL_LOCKS: "0" },
  });
  if (r.status !== 0 || typeof r.stdout !== "string") return undefined;
  const lines = r.stdout.split("\n").filter((l) => l.trim() !== "");
  const time = Number(lines[0]);
  if (!Number.isFinite(time) || time <= 0) return undefined;
  // ":100644 100644 <old> <new> M\tpath"
  const raw = lines.find((l) => l.startsWith(":"));
  const dst = raw?.split(/\s+/)[3];
  const blob = dst && !/^0+$/.test(dst) ? dst : null;
  return { time: time * 1000, blob };
}
