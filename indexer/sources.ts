import ignore, { type Ignore } from "ignore";
import { readdirSync, realpathSync, statSync, type Dirent, type Stats } from "node:fs";
import { basename, dirname, join, parse, relative, resolve, sep } from "node:path";
import { fileType, readRegular } from "../src/util/read-regular.cjs";
import { pseudoDir, systemPath, within } from "../src/util/walls.cjs";
import { followsLinks, judgeLink, type Walls } from "./walls.js";

export type SourceKind = "markdown" | "events";

export interface SourceFile {
  /** Absolute path: the real path of an explicitly named file, else the real root joined with `rel`. */
  path: string;
  /** Path relative to the root it was found under (forward slashes). */
  rel: string;
  kind: SourceKind;
  size: number;
  mtimeMs: number;
  /** The real path its reads must stay inside: its root's, or (followExternalLinks) the outside folder a link led to. */
  wall: string;
}

export interface WalkResult {
  files: SourceFile[];
  warnings: string[];
  /** Each directory walked (as its files' paths name it) and its mtime, read just before it was listed. */
  dirs: Map<string, number>;
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

function loadGitignore(dir: string, wall: string, warnings: string[]): Rules | undefined {
  const path = join(dir, ".gitignore");
  const r = readRegular(path, MAX_IGNORE_BYTES, { within: wall });
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

/** Where the walks may go: the root's real path, and how links out of it are judged (./walls.ts). */
export interface WalkOptions {
  /** Roots (or folders holding them) whose links to outside folders are followed: index.followExternalLinks. */
  followExternalLinks?: readonly string[];
}

/**
 * Enters `dir` for a walk: its real path (each real directory once; one in `skip` never) and the
 * ignore rules active inside it (its own .gitignore added). Undefined when it is unreadable (with a
 * warning), seen already, skipped, outside the walls (a folder swapped for a link since it was
 * listed), on the kernel's pseudo file systems, or `admit` refuses it (checked before its
 * .gitignore is read).
 */
function enterDir(dir: string, rules: Rules[], walls: Walls, visited: Set<string>, warnings: string[], skip?: ReadonlySet<string>, admit?: () => boolean): { real: string; active: Rules[] } | undefined {
  let real: string;
  try {
    real = realpathSync.native(dir);
  } catch (err) {
    warnings.push(`${dir}: unreadable (${(err as NodeJS.ErrnoException).code}); skipped`);
    return undefined;
  }
  if (visited.has(real) || skip?.has(real)) return undefined;
  visited.add(real);
  if (!within(real, walls.root) && !within(real, walls.wall)) {
    warnings.push(`${dir}: leads to ${real}, outside the root ${walls.root}; skipped`);
    return undefined;
  }
  if (pseudoDir(real)) {
    warnings.push(`${dir}: the system's own files (${real}); never walked`);
    return undefined;
  }
  if (admit && !admit()) return undefined;
  const own = loadGitignore(dir, within(real, walls.root) ? walls.root : walls.wall, warnings);
  return { real, active: own ? [...rules, own] : rules };
}

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** One entry of a directory as a walk sees it: what it is (a link judged by ./walls.ts), or undefined when it is skipped (said in `warn`). */
type Entry = { path: string; real: string; isDir: boolean; st?: Stats; wall: string };

/**
 * Looks at one directory entry inside `walls`: a link is resolved and judged before anything
 * below it is touched (one warning for a link not followed, whatever lies beyond it); its
 * target's kind comes from a stat of the target. Files get a stat when `statFiles` (their size and
 * mtime). Ignore rules are checked before a link is judged: an ignored link is not news.
 */
function look(dir: string, realDir: string, e: Dirent, walls: Walls, active: Rules[], statFiles: boolean, warn: (m: string) => void): Entry | undefined {
  const path = join(dir, e.name);
  const unreadable = (err: unknown) => warn(`${path}: unreadable (${(err as NodeJS.ErrnoException).code}); skipped`);
  if (e.isSymbolicLink()) {
    let real: string;
    let st: Stats;
    try {
      real = realpathSync.native(path);
      st = statSync(real);
    } catch (err) {
      unreadable(err);
      return undefined;
    }
    if (ignoredBy(active, path, st.isDirectory())) return undefined;
    // A link to a FIFO or a device is never read (the caller says so); to a file that is no source, nothing to say.
    if (!st.isDirectory() && !st.isFile()) return { path, real, isDir: false, st, wall: walls.wall };
    const v = judgeLink(real, walls);
    if (!v.follow) {
      if (st.isDirectory() || kindOf(path, false)) warn(`${path}: ${v.why}`);
      return undefined;
    }
    return { path, real, isDir: st.isDirectory(), st, wall: v.wall };
  }
  const isDir = e.isDirectory();
  if (!isDir && !statFiles) return undefined; // a file: no directory to watch
  if (ignoredBy(active, path, isDir)) return undefined;
  const real = join(realDir, e.name); // not a link, in a directory whose real path is known
  if (isDir) return { path, real, isDir, wall: walls.wall };
  try {
    return { path, real, isDir, st: statSync(path), wall: walls.wall };
  } catch (err) {
    unreadable(err);
    return undefined;
  }
}

function listDir(dir: string, real: string, warnings: string[]): Dirent[] | undefined {
  try {
    return readdirSync(real, { withFileTypes: true }).sort(byName);
  } catch (err) {
    warnings.push(`${dir}: unreadable (${(err as NodeJS.ErrnoException).code}); skipped`);
    return undefined;
  }
}

/**
 * Finds the memory sources under `roots` (files or directories). Honours every `.gitignore` on the
 * way down plus the `ignore` patterns (gitignore syntax, relative to each root); never descends
 * into `.git`; follows symlinks that stay inside the root, visiting each real directory once; a
 * link out of the root is not followed (one warning naming it) unless the root opted in
 * (`opts.followExternalLinks`). Each file found carries the wall its reads must stay inside.
 */
export function walkSources(roots: string[], ignorePatterns: string[], opts: WalkOptions = {}): WalkResult {
  const files = new Map<string, SourceFile>();
  const warnings: string[] = [];
  const visited = new Set<string>();
  const dirs = new Map<string, number>();

  const add = (path: string, real: string, rel: string, st: Stats, explicit: boolean, wall: string) => {
    const kind = kindOf(path, explicit);
    if (!kind) {
      if (explicit) warnings.push(`${path}: not a markdown (.md, .mdx) or events (.jsonl) file; skipped`);
      return;
    }
    // Deduplicate by real path, but store a walked file under the root it was found in, so a file
    // reached through a symlinked folder still counts as "under this root" when it disappears.
    if (!files.has(real)) files.set(real, { path: explicit ? real : path, rel, kind, size: st.size, mtimeMs: st.mtimeMs, wall });
  };

  const walk = (root: string, dir: string, rules: Rules[], walls: Walls) => {
    const entered = enterDir(dir, rules, walls, visited, warnings);
    if (!entered) return;
    try {
      dirs.set(dir, statSync(entered.real).mtimeMs); // before the listing: a change after it moves the mtime on
    } catch {
      // unreadable: listDir says so
    }
    const entries = listDir(dir, entered.real, warnings);
    if (!entries) return;
    for (const e of entries) {
      if (e.name === ".git") continue;
      const it = look(dir, entered.real, e, walls, entered.active, true, (m) => warnings.push(m));
      if (!it) continue;
      if (it.isDir) walk(root, it.path, entered.active, { ...walls, wall: it.wall });
      else if (it.st?.isFile()) add(it.path, it.real, toSlash(relative(root, it.path)), it.st, false, it.wall);
      else if (kindOf(it.path, false)) warnings.push(`${it.path}: not a regular file (${it.st ? fileType(it.st) : direntType(e)}); skipped`);
    }
  };

  for (const r of roots) {
    const root = resolve(r);
    let st: Stats;
    let real: string;
    try {
      st = statSync(root);
      real = realpathSync(root);
    } catch (err) {
      warnings.push(`${root}: ${(err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file or directory" : (err as Error).message}; skipped`);
      continue;
    }
    if (st.isDirectory() && wholeDisk(real)) warnings.push(`${root}: the whole file system (${real}); never walked as one root: index the folders that hold your notes`);
    else if (st.isDirectory()) walk(real, real, [{ dir: real, ig: ignore().add(ignorePatterns) }], { root: real, wall: real, follow: followsLinks(real, opts.followExternalLinks ?? []) });
    else if (!st.isFile()) warnings.push(`${root}: not a regular file (${fileType(st)}); skipped`);
    else if (systemPath(real)) warnings.push(`${root}: the system's own files (${real}); never read`);
    else {
      // A file named itself is its own wall, but a link named as the file is judged as the walk
      // judges links: by its target, against the folder that holds the link.
      const out = linkedOut(root, real, opts.followExternalLinks ?? []);
      if (out) warnings.push(`${root}: ${out}; skipped`);
      else if (real !== root && !kindOf(real, true)) warnings.push(`${root}: a link to ${real}, which is not a markdown (.md, .mdx) or events (.jsonl) file; skipped`);
      else add(root, real, basename(root), st, true, real);
    }
  }
  return { files: [...files.values()], warnings, dirs };
}

/**
 * Why a file root named as `root` (its real path `real`) is not read when `root` is a symbolic
 * link (or sits in a linked folder) whose target lies outside the real folder holding it, as a link
 * met in a walk of that folder would not be followed; undefined when it may be read.
 */
function linkedOut(root: string, real: string, follow: readonly string[]): string | undefined {
  let folder: string;
  try {
    folder = realpathSync(dirname(root));
  } catch {
    return undefined; // its folder went away: the read fails on its own
  }
  if (join(folder, basename(root)) === real) return undefined; // no link on the way
  const verdict = judgeLink(real, { root: folder, wall: folder, follow: followsLinks(folder, follow) });
  return verdict.follow ? undefined : verdict.why;
}

/** Is the real path `real` a file system's top (`/`, `C:\\`): every user's files, the system's own, other disks mounted under it? */
export const wholeDisk = (real: string): boolean => parse(real).root === real;

/** A Dirent's kind, for messages (no stat was made). */
function direntType(e: Dirent): string {
  if (e.isFIFO()) return "a FIFO";
  if (e.isCharacterDevice()) return "a character device";
  if (e.isBlockDevice()) return "a block device";
  if (e.isSocket()) return "a socket";
  return "not a file";
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
 * skipped, each real directory once, the same walls: a link out of the root is not followed
 * unless the root opted in), without a stat per file: what the daemon watches. Stops after
 * `limit` + 1 directories, so its cost is bounded on any tree. `skip`: real paths never entered
 * (the data home's own vector store).
 */
export function walkDirs(root: string, ignorePatterns: string[], limit: number, skip: ReadonlySet<string> = new Set(), opts: WalkOptions = {}): DirWalk {
  const dirs: string[] = [];
  const warnings: string[] = [];
  const visited = new Set<string>();
  let truncated = false;
  const walk = (dir: string, rules: Rules[], walls: Walls) => {
    if (truncated) return;
    const entered = enterDir(dir, rules, walls, visited, warnings, skip, () => {
      truncated = dirs.length >= limit;
      return !truncated;
    });
    if (!entered) return;
    dirs.push(entered.real);
    const entries = listDir(dir, entered.real, warnings);
    if (!entries) return;
    for (const e of entries) {
      if (e.name === ".git") continue;
      const it = look(dir, entered.real, e, walls, entered.active, false, (m) => warnings.push(m));
      if (it?.isDir) walk(it.path, entered.active, { ...walls, wall: it.wall });
    }
  };
  const realRoot = realpathSync(root);
  if (wholeDisk(realRoot)) return { dirs, truncated, warnings: [`${root}: the whole file system (${realRoot}); never watched as one root`] };
  walk(realRoot, [{ dir: realRoot, ig: ignore().add(ignorePatterns) }], { root: realRoot, wall: realRoot, follow: followsLinks(realRoot, opts.followExternalLinks ?? []) });
  return { dirs, truncated, warnings };
}
