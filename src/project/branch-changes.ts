/**
 * What git says is in play for the SessionStart briefing: the branch, the files changed in the
 * working tree against HEAD (src/project/in-play.ts's `git status`), and the files the branch
 * changed since it left the repository's default branch (`git diff base...HEAD`). Every run is
 * bounded by one shared deadline and a byte limit, takes no optional lock, and starts no
 * filesystem monitor; no git, no repository, a slow or failing git: what could be read, or
 * nothing. Paths are absolute and redacted as the store redacts a path; git's output is data.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { cleanText } from "../redact/clean.cjs";
import { SAFE_GIT_CONFIG } from "./git-marker.js";
import { MAX_GIT_FILES, parsePorcelainZ, repoTop } from "./in-play.js";

export interface GitView {
  branch?: string;
  /** Changed in the working tree or the index against HEAD, absolute. */
  changed: string[];
  /** How many changes `git status` lists (a rename is one). */
  changes: number;
  /** The default branch the current one is compared with (`main`, `origin/main`, …). */
  base?: string;
  /** Committed on this branch since it left `base`, absolute. */
  branchFiles: string[];
}

export interface GitViewOptions {
  /** For all of git's runs together. */
  timeoutMs: number;
  maxBytes: number;
  /** The git binary (tests). */
  git?: string;
  now?: () => number;
}

/** A run left less than this is not started. */
const MIN_RUN_MS = 30;
/** The refs a default branch is looked for under, best first (origin/HEAD names the remote's own). */
export const BASE_REFS = ["refs/remotes/origin/HEAD", "refs/heads/main", "refs/heads/master", "refs/remotes/origin/main", "refs/remotes/origin/master"] as const;

/**
 * The base a branch is compared with, from `git for-each-ref --format=%(refname)%09%(symref)`
 * over BASE_REFS: the first of BASE_REFS present, origin/HEAD as the branch it points at. None
 * when the branch checked out is that base itself (nothing to compare), or nothing matched. Pure.
 */
export function pickBase(out: string, branch: string | undefined): string | undefined {
  const found = new Map<string, string>();
  for (const line of out.split("\n")) {
    const [ref, sym] = line.split("\t");
    if (ref) found.set(ref, sym ?? "");
  }
  for (const ref of BASE_REFS) {
    if (!found.has(ref)) continue;
    const full = ref === "refs/remotes/origin/HEAD" ? found.get(ref) || undefined : ref;
    if (!full || !/^refs\/(heads|remotes)\/[^\s\0]+$/.test(full)) continue;
    const short = full.replace(/^refs\/(heads|remotes)\//, "");
    // On the base itself (or the remote's copy of it), the branch has no changes of its own to show.
    if (branch !== undefined && (short === branch || short === `origin/${branch}`)) return undefined;
    return short;
  }
  return undefined;
}

/** `git diff --name-only -z` output: the paths (relative to `top`) made absolute and redacted, at most `max`. Pure. */
export function parseNamesZ(out: string, top: string, max = MAX_GIT_FILES): string[] {
  const fields = out.split("\0");
  if (!out.endsWith("\0")) fields.pop(); // cut off by the byte limit
  const paths = new Set<string>();
  for (const f of fields) {
    if (f === "" || f.length > 4_096) continue;
    paths.add(cleanText(resolve(top, f)));
    if (paths.size >= max) break;
  }
  return [...paths];
}

const env = () => ({ ...process.env, GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" });

/** Past its time limit, a run is given up on this much later even if its output is still open (a child git started holds it). */
const GRACE_MS = 100;

/**
 * One git run in `top`, its stdout, or undefined (failed, past `ms`); past maxBytes what was read.
 * The answer comes by `ms` + GRACE_MS whatever the process does: a killed git whose own child
 * still holds the output open does not hold the briefing up.
 */
function run(top: string, args: string[], ms: number, o: GitViewOptions): Promise<string | undefined> {
  return new Promise((done) => {
    let settled = false;
    const settle = (v: string | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(guard);
      done(v);
    };
    const child = execFile(o.git ?? "git", [...SAFE_GIT_CONFIG, "-c", "core.quotepath=off", ...args], { cwd: top, timeout: ms, maxBuffer: o.maxBytes, killSignal: "SIGKILL", env: env(), windowsHide: true }, (err, stdout) => {
      const tooLong = err && (err as NodeJS.ErrnoException).code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER";
      settle(err && !tooLong ? undefined : String(stdout));
    });
    const guard = setTimeout(() => {
      child.kill("SIGKILL");
      child.stdout?.destroy();
      child.stderr?.destroy();
      settle(undefined);
    }, ms + GRACE_MS);
  });
}

/**
 * The branch, the working tree's changes and the branch's own changes of the repository holding
 * `dir`. Undefined outside a repository, without git, or when `git status` fails or is slow; the
 * branch's changes are left out (empty) when there is no base or no time left for them.
 */
export async function gitView(dir: string, o: GitViewOptions): Promise<GitView | undefined> {
  const now = o.now ?? Date.now;
  const top = repoTop(dir);
  if (!top) return undefined;
  const deadline = now() + o.timeoutMs;
  // Untracked files left out: listing them walks the whole tree, slow in a large repository.
  // The default branch is looked up at the same time (one process start less to wait for).
  const [out, refs] = await Promise.all([
    run(top, ["status", "--porcelain=v1", "-z", "--branch", "--untracked-files=no", "--ignore-submodules=all"], o.timeoutMs, o),
    run(top, ["for-each-ref", "--format=%(refname)%09%(symref)", ...BASE_REFS], o.timeoutMs, o),
  ]);
  if (out === undefined) return undefined;
  const status = parsePorcelainZ(out, top);
  const view: GitView = { ...(status.branch ? { branch: status.branch } : {}), changed: status.files, changes: status.changes, branchFiles: [] };
  if (!status.branch) return view; // detached: no branch of its own
  const left = () => deadline - now();
  const base = refs === undefined ? undefined : pickBase(refs, status.branch);
  if (!base || left() < MIN_RUN_MS) return view;
  // base...HEAD: from where the branch left base to HEAD (base's own later commits are not the branch's).
  const names = await run(top, ["diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", `${base}...HEAD`, "--"], left(), o);
  return names === undefined ? view : { ...view, base, branchFiles: parseNamesZ(names, top) };
}
