/**
 * The project's git history as a cold source: two `git log` passes over HEAD's history, run side
 * by side, one over commit messages (`--grep`, each query word, any of them, ignoring case) and one
 * over the lines commits added or removed (`-G` with the same words, which finds a line that was
 * removed as well as one that was added). Each is bounded: at most `maxCommits` commits, at most
 * `maxBytes` of output, and a deadline after which git (its whole process group) is killed and what
 * it printed so far is used, with a warning. Everything a result carries is redacted here; the
 * caller renders it. Not a git repository, no git, a repository with no commits, a shallow clone:
 * each is a status and a warning, never an error. Never called on a hook's path.
 */
import { SAFE_GIT_CONFIG } from "../project/git-marker.js";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import { cleanClip, cleanHash, cleanText, type Clean } from "../redact/clean.cjs";
import { gitFormat, mergeCommits, parseGitLog, type GitCommit } from "./git-parse.js";
import { alternation, gitTerms } from "./terms.js";

export interface GitHistoryOptions {
  /** The project's directory (its git top level). */
  root: string;
  /** The query; its words are picked by `gitTerms`. */
  text: string;
  maxCommits: number;
  timeoutMs: number;
  maxBytes: number;
  /** Inclusive dates (YYYY-MM-DD, or an ISO time) on the commit date (git's --since/--until). */
  since?: string;
  until?: string;
  /** A glob relative to the project root (the same as `mem query --path`). */
  path?: string;
  /** The git executable; default `git` on PATH. */
  git?: string;
  env?: NodeJS.ProcessEnv;
}

export type GitStatus = "ok" | "partial" | "not-a-repo" | "no-git" | "empty" | "no-terms" | "failed";

/** A commit as cold search shows it: every text redacted. */
export interface ColdCommit {
  hash: Clean<string>;
  short: Clean<string>;
  date: Clean<string>;
  /** The message's first line. */
  subject: Clean<string>;
  /** The whole message, at most MESSAGE_CHARS. */
  message: Clean<string>;
  paths: Clean<string>[];
  lines: { path: Clean<string>; change: "added" | "removed"; text: Clean<string> }[];
  matched: string[];
  via: ("message" | "diff")[];
}

export interface GitHistory {
  status: GitStatus;
  terms: string[];
  shallow: boolean;
  commits: ColdCommit[];
  warnings: string[];
}

export const MESSAGE_CHARS = 2_000;
export const LINE_CHARS = 400;
/** Git's stderr kept for a warning. */
const STDERR_BYTES = 4_096;

/** Variables that would point git at another repository, index or object store than the project's. */
const REPO_VARS = ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CEILING_DIRECTORIES", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT"];

export function gitEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat", PAGER: "cat", LC_ALL: "C" };
  for (const k of REPO_VARS) delete env[k];
  return env;
}

interface Ran {
  out: string;
  code: number | null;
  timedOut: boolean;
  cut: boolean;
  stderr: string;
  /** The spawn failed (ENOENT: no git). */
  error?: NodeJS.ErrnoException;
}

/** The git processes running now: a command interrupted while one runs kills them on its way out (`killRunningGit`). */
const RUNNING = new Set<ReturnType<typeof spawn>>();

/** Kills every git this process started and is still waiting for, with its process group. */
export function killRunningGit(): void {
  for (const child of RUNNING) {
    try {
      if (child.pid !== undefined && process.platform !== "win32") process.kill(-child.pid, "SIGKILL");
      else child.kill("SIGKILL");
    } catch {
      child.kill("SIGKILL");
    }
  }
  RUNNING.clear();
}

/**
 * Runs git with a deadline (an absolute time, ms) and a byte cap on its output, in a process group
 * of its own so that a kill reaches whatever it started. Output is cut at the last complete line.
 */
function runGit(git: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, deadline: number, maxBytes: number): Promise<Ran> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let stderr = "";
    let timedOut = false;
    let cut = false;
    let done = false;
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(git, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: process.platform !== "win32" });
    } catch (err) {
      resolve({ out: "", code: null, timedOut: false, cut: false, stderr: "", error: err as NodeJS.ErrnoException });
      return;
    }
    RUNNING.add(child);
    const kill = () => {
      try {
        if (child.pid !== undefined && process.platform !== "win32") process.kill(-child.pid, "SIGKILL");
        else child.kill("SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
      // A process that left the group could hold the pipes open: stop waiting for them.
      setTimeout(() => finish(null), 500).unref();
    };
    const finish = (code: number | null, error?: NodeJS.ErrnoException) => {
      if (done) return;
      done = true;
      RUNNING.delete(child);
      clearTimeout(timer);
      child.stdout?.destroy();
      child.stderr?.destroy();
      let buf = Buffer.concat(chunks);
      if (timedOut || cut || code !== 0) {
        const nl = buf.lastIndexOf(10);
        buf = nl >= 0 ? buf.subarray(0, nl + 1) : Buffer.alloc(0);
      }
      resolve({ out: buf.toString("utf8"), code, timedOut, cut, stderr, ...(error ? { error } : {}) });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, Math.max(1, deadline - Date.now()));
    child.stdout!.on("data", (d: Buffer) => {
      if (cut) return;
      const room = maxBytes - bytes;
      if (d.length > room) {
        chunks.push(d.subarray(0, room));
        bytes = maxBytes;
        cut = true;
        kill();
        return;
      }
      chunks.push(d);
      bytes += d.length;
    });
    child.stderr!.on("data", (d: Buffer) => {
      if (stderr.length < STDERR_BYTES) stderr += d.toString("utf8").slice(0, STDERR_BYTES - stderr.length);
    });
    child.on("error", (err) => finish(null, err as NodeJS.ErrnoException));
    child.on("close", (code) => finish(code));
  });
}

/** Options every call gets: no pager, no colour, quoted odd paths, no signatures, no external diff or textconv. */
const BASE = ["--no-pager", ...SAFE_GIT_CONFIG, "-c", "core.quotePath=true", "-c", "color.ui=never", "-c", "log.showSignature=false", "-c", "diff.noprefix=false", "-c", "diff.mnemonicPrefix=false"];

/** `--since`/`--until` (git compares the commit date), a bare day inclusive of the whole day. */
function dateArgs(o: Pick<GitHistoryOptions, "since" | "until">): string[] {
  const out: string[] = [];
  if (o.since) out.push(`--since=${o.since.length === 10 ? `${o.since} 00:00:00` : o.since}`);
  if (o.until) out.push(`--until=${o.until.length === 10 ? `${o.until} 23:59:59` : o.until}`);
  return out;
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

const firstLine = (s: string) => s.split("\n").find((l) => l.trim() !== "")?.trim() ?? "";

function cleanCommit(c: GitCommit): ColdCommit {
  const message = cleanClip(c.message, MESSAGE_CHARS);
  return {
    hash: cleanHash(c.hash),
    short: cleanHash(c.short),
    date: cleanText(c.date),
    subject: cleanText(firstLine(message)),
    message,
    paths: c.paths.map((p) => cleanClip(p, 1_024)),
    lines: c.lines.map((l) => ({ path: cleanClip(l.path, 1_024), change: l.change, text: cleanClip(l.text, LINE_CHARS) })),
    matched: c.matched,
    via: c.via,
  };
}

/** Searches the history of the repository at `o.root`. */
export async function searchGitHistory(o: GitHistoryOptions): Promise<GitHistory> {
  const terms = gitTerms(o.text);
  const empty = (status: GitStatus, warnings: string[] = [], shallow = false): GitHistory => ({ status, terms, shallow, commits: [], warnings });
  if (terms.length === 0) return empty("no-terms", ["git history not searched: the query has no word to look for"]);
  if (!isDirectory(o.root)) return empty("not-a-repo", [`git history not searched: the project's directory ${cleanClip(o.root, 300)} does not exist`]);
  const git = o.git ?? "git";
  const env = gitEnv(o.env ?? process.env);
  const deadline = Date.now() + o.timeoutMs;
  const gitSays = (r: Ran) => cleanClip(firstLine(r.stderr).replace(/^fatal:\s*/, ""), 300);

  const probe = await runGit(git, [...BASE, "rev-parse", "--is-shallow-repository", "--verify", "-q", "HEAD"], o.root, env, deadline, 64 * 1024);
  if (probe.error?.code === "ENOENT") return empty("no-git", ["git history not searched: git is not installed (not found on PATH)"]);
  if (probe.error) return empty("failed", [`git history not searched: git could not start (${cleanClip(probe.error.message, 200)})`]);
  if (probe.timedOut) return empty("failed", [`git history not searched: git did not answer within ${o.timeoutMs} ms`]);
  const shallow = probe.out.split("\n")[0] === "true";
  if (probe.code === 1 && /^(true|false)\n?$/.test(probe.out)) return empty("empty", ["git history not searched: the repository has no commits yet"], shallow);
  if (probe.code !== 0 && (probe.stderr.trim() === "" || /not a git repository/i.test(probe.stderr))) return empty("not-a-repo", [`git history not searched: ${cleanClip(o.root, 300)} is not in a git repository`]);
  if (probe.code !== 0) return empty("failed", [`git history not searched: git: ${gitSays(probe)}`]); // e.g. a repository owned by someone else

  const nonce = randomBytes(16).toString("hex");
  const common = [...BASE, "log", `--max-count=${o.maxCommits}`, "--no-color", "--encoding=UTF-8", "--regexp-ignore-case", "--no-renames", "--no-ext-diff", "--no-textconv", gitFormat(nonce), ...dateArgs(o)];
  const spec = ["HEAD", "--", ...(o.path ? [`:(top,glob)${o.path}`] : [])];
  const [byMessage, byDiff] = await Promise.all([
    runGit(git, [...common, "--fixed-strings", ...terms.map((t) => `--grep=${t}`), "--name-only", ...spec], o.root, env, deadline, o.maxBytes),
    runGit(git, [...common, `-G${alternation(terms)}`, "-p", "-U0", "--src-prefix=a/", "--dst-prefix=b/", ...spec], o.root, env, deadline, o.maxBytes),
  ]);

  const warnings: string[] = [];
  if (shallow) warnings.push("git history: a shallow clone; commits before its depth were not searched");
  let partial = false;
  for (const [name, r] of [["commit messages", byMessage], ["diffs", byDiff]] as const) {
    if (r.timedOut) warnings.push(`git history: the search of ${name} timed out after ${o.timeoutMs} ms; showing the commits found so far`);
    else if (r.cut) warnings.push(`git history: the search of ${name} printed more than ${o.maxBytes} bytes; showing the commits read so far`);
    else if (r.error) warnings.push(`git history: the search of ${name} failed (${cleanClip(r.error.message, 200)})`);
    else if (r.code !== 0) warnings.push(`git history: the search of ${name} failed${r.stderr.trim() ? ` (git: ${gitSays(r)})` : ""}`);
    partial ||= r.timedOut || r.cut || r.code !== 0;
  }
  const commits = mergeCommits(parseGitLog(byMessage.out, nonce, "names", terms), parseGitLog(byDiff.out, nonce, "patch", terms)).map(cleanCommit);
  return { status: partial ? "partial" : "ok", terms, shallow, commits, warnings };
}
