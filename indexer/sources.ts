import ignore, { type Ignore } from "ignore";
import { readdirSync, realpathSync, statSync, type Dirent, type Stats } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { fileType, readRegular } from "../src/util/read-regular.cjs";

export type SourceKind = "markdown" | "events";

export interface SourceFile {
  /** Absolute path: the real path of an explicitly named file, else the real root joined with `rel`. */
  path: string;
  /** Path relative to the root it was found under (forward slashes). */
  rel: string;
  kind: SourceKind;
  size: number;
  mtimeMs: number;
}

export interface WalkResult {
  files: SourceFile[];
  warnings: string[];
}

const MARKDOWN = /\.(md|mdx)$/i;

/** Markdown anywhere; JSONL event logs when named `*.events.jsonl`, inside an `events/` folder, or given explicitly. */
export function kindOf(path: string, explicit: boolean): SourceKind | undefined {
  if (MARKDOWN.test(path)) return "markdown";
  if (/\.jsonl$/i.test(path) && (explicit || /\.events\.jsonl$/i.test(path) || basename(dirname(path)) === "events")) return "events";
  return undefined;
}

const toSlash = (p: string) => (sep === "/" ? p : p.split(sep).join("/"));

interface Rules {
  dir: string;
  ig: Ignore;
}

/** An ignore file larger than this is not parsed (its rules are not applied). */
export const MAX_IGNORE_BYTES = 1024 * 1024;

function loadGitignore(dir: string, warnings: string[]): Rules | undefined {
  const path = join(dir, ".gitignore");
  const r = readRegular(path, MAX_IGNORE_BYTES);
  if (!r.ok) {
    if (r.why !== "absent") warnings.push(`${path}: ${r.reason}; its rules are not applied`);
    return undefined;
  }
  return { dir, ig: ignore().add(r.data.toString("utf8")) };
}

function ignoredBy(rules: Rules[], path: string, isDir: boolean): boolean {
  for (const r of rules) {
    const rel = toSlash(relative(r.dir, path));
    if (rel === "" || rel.startsWith("..")) continue;
    if (r.ig.ignores(isDir ? `${rel}/` : rel)) return true;
  }
  return false;
}

/**
 * Enters `dir` for a walk: its real path (each real directory once; one in `skip` never) and the
 * ignore rules active inside it (its own .gitignore added). Undefined when it is unreadable (with a
 * warning), seen already, skipped, or `admit` refuses it (checked before its .gitignore is read).
 */
function enterDir(dir: string, rules: Rules[], visited: Set<string>, warnings: string[], skip?: ReadonlySet<string>, admit?: () => boolean): { real: string; active: Rules[] } | undefined {
  let real: string;
  try {
    real = realpathSync(dir);
  } catch (err) {
    warnings.push(`${dir}: unreadable (${(err as NodeJS.ErrnoException).code}); skipped`);
    return undefined;
  }
  if (visited.has(real) || skip?.has(real)) return undefined;
  visited.add(real);
  if (admit && !admit()) return undefined;
  const own = loadGitignore(dir, warnings);
  return { real, active: own ? [...rules, own] : rules };
}

/**
 * Finds the memory sources under `roots` (files or directories). Honours every `.gitignore` on the
 * way down plus the `ignore` patterns (gitignore syntax, relative to each root); never descends
 * into `.git`; follows symlinks but visits each real directory once.
 */
export function walkSources(roots: string[], ignorePatterns: string[]): WalkResult {
  const files = new Map<string, SourceFile>();
  const warnings: string[] = [];
  const visited = new Set<string>();

  const add = (path: string, rel: string, st: Stats, explicit: boolean) => {
    const kind = kindOf(path, explicit);
    if (!kind) {
      if (explicit) warnings.push(`${path}: not a markdown (.md, .mdx) or events (.jsonl) file; skipped`);
      return;
    }
    // Deduplicate by real path, but store a walked file under the root it was found in, so a file
    // reached through a symlinked folder still counts as "under this root" when it disappears.
    const real = realpathSync(path);
    if (!files.has(real)) files.set(real, { path: explicit ? real : path, rel, kind, size: st.size, mtimeMs: st.mtimeMs });
  };

  const walk = (root: string, dir: string, rules: Rules[]) => {
    const entered = enterDir(dir, rules, visited, warnings);
    if (!entered) return;
    const { active } = entered;
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch (err) {
      warnings.push(`${dir}: unreadable (${(err as NodeJS.ErrnoException).code}); skipped`);
      return;
    }
    for (const name of entries) {
      if (name === ".git") continue;
      const path = join(dir, name);
      let st: Stats;
      try {
        st = statSync(path);
      } catch (err) {
        warnings.push(`${path}: unreadable (${(err as NodeJS.ErrnoException).code}); skipped`);
        continue;
      }
      if (ignoredBy(active, path, st.isDirectory())) continue;
      if (st.isDirectory()) walk(root, path, active);
      else if (st.isFile()) add(path, toSlash(relative(root, path)), st, false);
      else if (kindOf(path, false)) warnings.push(`${path}: not a regular file (${fileType(st)}); skipped`);
    }
  };

  for (const r of roots) {
    const root = resolve(r);
    let st: Stats;
    try {
      st = statSync(root);
    } catch (err) {
      warnings.push(`${root}: ${(err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file or directory" : (err as Error).message}; skipped`);
      continue;
    }
    if (st.isDirectory()) {
      const realRoot = realpathSync(root);
      walk(realRoot, realRoot, [{ dir: realRoot, ig: ignore().add(ignorePatterns) }]);
    }
    else if (st.isFile()) add(root, basename(root), st, true);
    else warnings.push(`${root}: not a regular file (${fileType(st)}); skipped`);
  }
  return { files: [...files.values()], warnings };
}

export interface DirWalk {
  /** Real paths of the directories a walk of `root` visits (the root first), at most `limit`. */
  dirs: string[];
  /** More directories than `limit` were found (the walk stopped there). */
  truncated: boolean;
  warnings: string[];
}

/**
 * The directories `walkSources` would descend into under `root` (same ignore rules, `.git`
 * skipped, each real directory once), without a stat per file: what the daemon watches. Stops
 * after `limit` + 1 directories, so its cost is bounded on any tree. `skip`: real paths never
 * entered (the data home's own vector store).
 */
export function walkDirs(root: string, ignorePatterns: string[], limit: number, skip: ReadonlySet<string> = new Set()): DirWalk {
  const dirs: string[] = [];
  const warnings: string[] = [];
  const visited = new Set<string>();
  let truncated = false;
  const walk = (dir: string, rules: Rules[]) => {
    if (truncated) return;
    const entered = enterDir(dir, rules, visited, warnings, skip, () => {
      truncated = dirs.length >= limit;
      return !truncated;
    });
    if (!entered) return;
    dirs.push(entered.real);
    const { active } = entered;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (err) {
      warnings.push(`${dir}: unreadable (${(err as NodeJS.ErrnoException).code}); skipped`);
      return;
    }
    for (const e of entries) {
      if (e.name === ".git") continue;
      const path = join(dir, e.name);
      let isDir = e.isDirectory();
      if (e.isSymbolicLink()) {
        try {
          isDir = statSync(path).isDirectory();
        } catch {
          continue; // a dangling link: walkSources reports it
        }
      }
      if (isDir && !ignoredBy(active, path, true)) walk(path, active);
    }
  };
  const realRoot = realpathSync(root);
  walk(realRoot, [{ dir: realRoot, ig: ignore().add(ignorePatterns) }]);
  return { dirs, truncated, warnings };
}

export type ReadResult = { ok: true; text: string; size: number } | { ok: false; reason: string };

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a source as UTF-8 text, refusing huge, binary, non-UTF-8, unreadable and special files
 * (FIFOs, devices: never opened for a read that would not end) with a reason.
 */
export function readSource(path: string, maxBytes: number): ReadResult {
  const r = readRegular(path, maxBytes);
  if (!r.ok) {
    if (r.why === "too-large") return { ok: false, reason: `too large (${r.size} bytes, limit ${maxBytes}; raise index.maxFileBytes to include it)` };
    return { ok: false, reason: r.why === "absent" ? "unreadable (ENOENT)" : r.reason };
  }
  const buf = r.data;
  if (buf.subarray(0, 8192).includes(0)) return { ok: false, reason: "binary content (NUL bytes)" };
  try {
    return { ok: true, text: utf8.decode(buf), size: buf.length };
  } catch {
    return { ok: false, reason: "not valid UTF-8" };
  }
}
