/**
 * The team folder on disk: found in the project's repository and checked before anything is read
 * or written there. Only a repository of this user's (src/project/git-marker.ts) whose folders are
 * this user's (or root's) and writable by no one else (src/freshness/decision-folders.ts), and a
 * folder that stays inside the repository (a link out of it is refused). Files are written whole
 * (a temporary file renamed over), mode 0644, never through a link, and only as plain names.
 */
import { randomBytes } from "node:crypto";
import { closeSync, fchmodSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, realpathSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import type { Config } from "../config/config.js";
import { folderState, trustedDir } from "./decision-folders.js";
import { ownGitAt } from "../project/git-marker.js";
import { openRegular, readRegular } from "../util/read-regular.cjs";
import { within } from "../util/walls.cjs";
import { normalFolder, teamFolder } from "../config/team-folder.js";
import { memIdIn } from "./madr-file.js";
import { recordFileName } from "../../indexer/decision-record.js";

/** A refusal to share or unshare, said as it is to the user. */
export class TeamError extends Error {
  override name = "TeamError";
}

export interface TeamPlace {
  /** The repository's real top directory. */
  root: string;
  /** The team folder, relative to the root, `/`-separated. */
  folder: string;
  /** Its absolute path (under the real root). */
  dir: string;
}

/** Files of a folder looked at, at most; and the largest shared file read. */
export const MAX_FOLDER_FILES = 5_000;
export const MAX_RECORD_BYTES = 256 * 1024;
/** What is read of each file of the folder to find its mem-id: its frontmatter is at the top. */
export const HEAD_BYTES = 16 * 1024;

/**
 * The team folder of the repository at `root` (`folder` as given, relative to the root or an
 * absolute path inside it; else src/team/folder.ts's choice), checked: every part of it that exists
 * is a directory of this user's or root's that no one else may write, and its real path stays in
 * the repository. It need not exist yet (ensureDir makes it).
 */
export function teamPlace(root: string | undefined, config: Pick<Config, "index" | "team">, folder?: string): TeamPlace {
  if (root === undefined || !ownGitAt(root)) throw new TeamError("this project has no repository root (no git repository of yours here): shared memories go into a repository's team folder, for the team to review as code");
  const r = folderState(root);
  if (r.real === undefined) throw new TeamError(`the repository ${root} cannot be read`);
  if (!r.trusted) throw new TeamError(`the repository ${r.real} is another user's or writable by others: nothing is shared into it`);
  let rel = folder ?? teamFolder(r.real, config);
  if (isAbsolute(rel)) {
    if (!within(rel, r.real) && !within(rel, root)) throw new TeamError(`the folder ${rel} is not inside the repository ${r.real}`);
    rel = relative(within(rel, r.real) ? r.real : root, rel);
  }
  const f = normalFolder(rel);
  if (f === "" || f.split("/").includes("..")) throw new TeamError(`the team folder must be a folder inside the repository, got ${JSON.stringify(rel.slice(0, 200))}`);
  const place = { root: r.real, folder: f, dir: join(r.real, ...f.split("/")) };
  checkParts(place);
  // A link inside the repository (docs -> documentation) is fine; its real path is what the index knows.
  return { ...place, dir: realOf(place.dir) ?? place.dir };
}

/** Each existing part of the folder's path: a real directory inside the root, trusted; a link must stay in the repository. */
function checkParts(p: TeamPlace): void {
  let cur = p.root;
  for (const part of p.folder.split("/")) {
    cur = join(cur, part);
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(cur);
    } catch {
      return; // from here on it does not exist yet
    }
    const real = st.isSymbolicLink() ? realOf(cur) : cur;
    if (real === undefined || !within(real, p.root) || real === p.root) throw new TeamError(`${join(p.folder)}: ${relative(p.root, cur)} is a link leading out of the repository; nothing is written through it`);
    const target = statSync(real);
    if (!target.isDirectory()) throw new TeamError(`${relative(p.root, cur)} in the repository is not a folder`);
    if (!trustedDir(target)) throw new TeamError(`${relative(p.root, cur)} is another user's or writable by others (mode ${(target.mode & 0o777).toString(8)}): nothing is shared into it`);
  }
}

function realOf(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** Makes the folder (0755) when it is missing, and checks it again. */
export function ensureDir(p: TeamPlace): void {
  mkdirSync(p.dir, { recursive: true, mode: 0o755 });
  checkParts(p);
}

/** A name mem writes in the folder: a plain file name, no path, no hidden file. */
const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}\.md$/;

/**
 * The folder's markdown files (lower-cased names) and which file holds each mem-id; regular files
 * only, bounded. `known(name, mtimeMs)`: a file the caller knows already (indexed, unchanged since)
 * and is not read. Past `maxReads` files read, it stops: `incomplete`.
 */
export function sharedFiles(dir: string, known?: (name: string, mtimeMs: number) => boolean, maxReads = MAX_FOLDER_FILES): { byMemId: Map<string, string>; taken: Set<string>; warnings: string[]; incomplete?: true } {
  const byMemId = new Map<string, string>();
  const taken = new Set<string>();
  const warnings: string[] = [];
  let reads = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { byMemId, taken, warnings };
  }
  if (names.length > MAX_FOLDER_FILES) warnings.push(`the team folder holds ${names.length} entries: only the first ${MAX_FOLDER_FILES} were looked at`);
  for (const name of names.slice(0, MAX_FOLDER_FILES)) {
    taken.add(name.toLowerCase());
    if (!name.toLowerCase().endsWith(".md") || name.startsWith(".") || !recordFileName(name)) continue; // README.md, FORGOTTEN.md: never a shared memory's file
    const path = join(dir, name);
    try {
      const st = lstatSync(path);
      if (!st.isFile() || known?.(name, st.mtimeMs)) continue; // a link or a folder is never read as a shared file
    } catch {
      continue;
    }
    if (++reads > maxReads) return { byMemId, taken, warnings, incomplete: true };
    const head = readHead(path, dir);
    const id = head === undefined ? undefined : memIdIn(head);
    if (id !== undefined && !byMemId.has(id)) byMemId.set(id, name);
  }
  return { byMemId, taken, warnings };
}

/** The first HEAD_BYTES of a regular file inside `dir` (where a frontmatter is), or undefined. */
function readHead(path: string, dir: string): string | undefined {
  const opened = openRegular(path, { within: dir });
  if (!opened.ok) return undefined;
  try {
    const buf = Buffer.alloc(Math.min(HEAD_BYTES, opened.size));
    const n = readSync(opened.fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString("utf8");
  } catch {
    return undefined;
  } finally {
    closeSync(opened.fd);
  }
}

/** The file's content when it is a regular file (not a link) of at most MAX_RECORD_BYTES; undefined when absent; an error otherwise. */
export function currentContent(dir: string, name: string): string | undefined {
  const path = join(dir, name);
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(path);
  } catch {
    return undefined;
  }
  if (st.isSymbolicLink()) throw new TeamError(`${name} is a link: not followed, not written`);
  if (!st.isFile()) throw new TeamError(`${name} is not a regular file`);
  const r = readRegular(path, MAX_RECORD_BYTES, { within: dir });
  if (!r.ok) throw new TeamError(`${name}: ${r.reason}`);
  return r.data.toString("utf8");
}

/**
 * Writes `name` in `dir` whole: a new temporary file (O_EXCL: never an existing file or a link)
 * with mode 0644, synced, renamed over the name (a link there is replaced, never followed).
 * `fresh`: the name was free when the folder was read; a file that appeared there since (another
 * share at the same time, a pull) is left whole and the write refused (the temporary file is
 * linked to the name, which never replaces).
 */
export function writeWhole(dir: string, name: string, content: string, opts: { fresh?: boolean } = {}): void {
  if (!PLAIN_NAME.test(name)) throw new TeamError(`refusing to write ${JSON.stringify(name.slice(0, 200))}: not a plain file name`);
  const target = join(dir, name);
  const tmp = join(dir, `.${name}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(tmp, "wx", 0o644);
  try {
    try {
      fchmodSync(fd, 0o644); // whatever the umask
      writeSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (!opts.fresh) renameSync(tmp, target);
    else {
      try {
        linkSync(tmp, target);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === "EEXIST" || lstatOr(target)) throw new TeamError(`${name} appeared meanwhile (another share, a pull): left as it is; share again`);
        if (code !== "EPERM" && code !== "ENOTSUP" && code !== "ENOSYS" && code !== "EOPNOTSUPP") throw err;
        renameSync(tmp, target); // a filesystem without hard links: checked just before
      }
      rmSync(tmp, { force: true });
    }
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

function lstatOr(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Removes `name` from `dir` when it is a regular file (a link is left alone); whether it was removed. */
export function removeFile(dir: string, name: string): boolean {
  if (name.includes("/") || name.includes(sep)) return false;
  const path = join(dir, name);
  try {
    if (!lstatSync(path).isFile()) return false;
    unlinkSync(path);
    return true;
  } catch {
    return false;
  }
}
