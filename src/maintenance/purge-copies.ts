import { closeSync, constants, existsSync, fstatSync, fsyncSync, ftruncateSync, lstatSync, openSync, readdirSync, rmSync, writeSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { type HomePaths, OPEN_PAGE_FILE } from "../config/paths.cjs";
import { readRegular } from "../util/read-regular.cjs";
import { type ForgetScope, looksLikeSqlite, notOurs, refreshManifest, scrubCopy } from "../store/purge-copy.js";

/**
 * Everything else in the data home that can hold what was forgotten, found by walking it (links
 * are never followed): every SQLite file that is not the store itself (the snapshots, a store
 * `mem restore` moved aside, a `mem doctor --repair` backup) is purged like the store, or dropped
 * when it cannot be (damaged, another user's, another store's, locked); copies of vector tables
 * outside the store's own (a repair's backup: derived data) and unfinished copies are dropped;
 * any other file that holds a forgotten text (a log, the spool, an install backup) loses the lines
 * that hold it when it is a log, else is dropped. What is dropped is overwritten with zeros first.
 */
export interface CopyFate {
  /** The path below the data home. */
  file: string;
  action: "scrubbed" | "unchanged" | "dropped" | "kept" | "lines removed";
  why?: string;
  /** How long purging a database copy took. */
  ms?: number;
}

const SIDES = ["-wal", "-shm", "-journal"];
/** Files read whole to look for forgotten text, up to this size (a larger one is reported, kept). */
const MAX_TEXT_BYTES = 64 * 1024 * 1024;
const LINE_FILES = /\.(log|jsonl)$/;

/**
 * `fresh`: this purge removed something (a memory, a project, a session). Only then is a copy that
 * cannot be purged dropped, since it may hold what was just removed; otherwise it is kept (a
 * damaged store a repair set aside is not deleted by a purge that had nothing to remove).
 */
export function purgeCopies(paths: Pick<HomePaths, "home" | "sqlite" | "lance" | "models">, scope: ForgetScope, needles: ReadonlySet<string>, storeId: string | undefined, fresh: boolean, now = Date.now()): CopyFate[] {
  const skip = new Set([paths.sqlite, ...SIDES.map((s) => paths.sqlite + s), paths.lance, paths.models]);
  const out: CopyFate[] = [];
  const rel = (p: string) => relative(paths.home, p);
  const drop = (p: string, why: string): CopyFate => {
    if (!fresh) return { file: rel(p), action: "kept", why: `${why}; kept, since this purge removed nothing` };
    wipe(p);
    return { file: rel(p), action: "dropped", why };
  };
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const p = join(dir, name);
      if (skip.has(p)) continue;
      let st: ReturnType<typeof lstatSync>;
      try {
        st = lstatSync(p);
      } catch {
        continue;
      }
      if (st.isSymbolicLink()) continue; // never followed: what it points at is not in the data home
      if (st.isDirectory()) {
        if (name.endsWith(".lance")) out.push(drop(p, "a copy of a vector table: derived data, cannot be scrubbed"));
        else walk(p);
        continue;
      }
      if (!st.isFile()) continue;
      if (name.endsWith(".partial")) out.push(drop(p, "an unfinished copy"));
      else if (dir === paths.home && name === OPEN_PAGE_FILE) out.push(drop(p, "the explorer's opening page (its link works once, for a minute): it may quote a search"));
      else if (looksLikeSqlite(p)) out.push(sqliteCopy(p));
      else {
        const side = SIDES.find((s) => name.endsWith(s));
        if (side) {
          if (!existsSync(p.slice(0, -side.length))) out.push(drop(p, "a journal without its database"));
          continue; // purged with its database
        }
        const fate = textFile(p, needles, st.size);
        if (fate) out.push({ ...fate, file: rel(p) });
      }
    }
  };
  walk(paths.home);
  return out.sort((a, b) => (a.file < b.file ? -1 : 1));

  function sqliteCopy(p: string): CopyFate {
    const t0 = performance.now();
    const fate = scrubbedOrDropped(p);
    return { ...fate, ms: Math.round(performance.now() - t0) };
  }

  function scrubbedOrDropped(p: string): CopyFate {
    const r = scrubCopy(p, scope, storeId, now);
    const manifest = p.replace(/\.sqlite$/, ".json");
    if (!r.ok) {
      if (!fresh) return drop(p, r.why);
      if (manifest !== p) rmSync(manifest, { force: true }); // a snapshot's manifest first: a half-removed snapshot is never offered
      for (const side of SIDES) if (existsSync(p + side)) wipe(p + side);
      return drop(p, r.why);
    }
    if (r.changed && manifest !== p && existsSync(manifest)) refreshManifest(p, manifest);
    return { file: rel(p), action: r.changed ? "scrubbed" : "unchanged" };
  }
}

/** A file other than a database: checked for forgotten text. Undefined when it holds none. */
function textFile(p: string, needles: ReadonlySet<string>, size: number): Omit<CopyFate, "file"> | undefined {
  if (needles.size === 0) return undefined;
  if (size > MAX_TEXT_BYTES) return undefined;
  const r = readRegular(p, MAX_TEXT_BYTES);
  if (!r.ok) return undefined;
  const text = r.data.toString("utf8");
  const hit = (t: string) => holdsAny(t, needles);
  if (!hit(text)) return undefined;
  const refused = notOurs(p);
  // A file with other names (a hard link) is never written in place: its other names are not ours to change.
  if (!refused && LINE_FILES.test(basename(p)) && lstatSync(p).nlink === 1) {
    const lines = text.split("\n");
    const kept = lines.filter((l) => !hit(l));
    overwrite(p, kept.join("\n"));
    return { action: "lines removed", why: `${lines.length - kept.length} line(s) held forgotten text` };
  }
  wipe(p);
  return { action: "dropped", why: refused ? `holds forgotten text; ${refused}` : "holds forgotten text" };
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** Overwrites a regular file in place with zeros, then with `text` (the old bytes are not only unlinked). */
function overwrite(p: string, text: string | undefined): void {
  const fd = openSync(p, constants.O_WRONLY | NOFOLLOW | (constants.O_NONBLOCK ?? 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return;
    const zeros = Buffer.alloc(1024 * 1024);
    for (let at = 0; at < st.size; at += zeros.length) writeSync(fd, zeros, 0, Math.min(zeros.length, st.size - at), at);
    fsyncSync(fd);
    ftruncateSync(fd, 0);
    if (text !== undefined) writeSync(fd, text, 0);
  } finally {
    closeSync(fd);
  }
}

/**
 * Removes a file (overwritten with zeros first, when it is a regular file we can write and its only
 * name: a hard link's other names, outside the data home perhaps, keep their content) or a directory.
 */
function wipe(p: string): void {
  try {
    const st = lstatSync(p);
    if (st.isFile() && st.nlink === 1) overwrite(p, undefined);
  } catch {
    // not ours to write: removed as it is
  }
  rmSync(p, { recursive: true, force: true });
}

/** The length of a needle: the start of a forgotten line, long enough not to be found by chance. */
export const NEEDLE = 32;

/** What to look for in other files: the first NEEDLE characters of every long enough line of each forgotten text, as written, as JSON escapes it and as a URL quotes it. */
export function needlesOf(texts: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const t of texts) {
    for (const line of t.split("\n")) {
      const s = line.trim();
      if (s.length < NEEDLE) continue;
      out.add(s.slice(0, NEEDLE));
      out.add(JSON.stringify(s).slice(1, NEEDLE + 1));
      // As a URL's query quotes it (an opening link, a logged request): %-escaped, spaces as %20 or +.
      const url = encodeURIComponent(s);
      out.add(url.slice(0, NEEDLE));
      out.add(url.replace(/%20/g, "+").slice(0, NEEDLE));
    }
  }
  return out;
}

/** True when `text` holds one of `needles` (one pass, a set lookup per position). */
export function holdsAny(text: string, needles: ReadonlySet<string>): boolean {
  if (needles.size === 0) return false;
  for (let i = 0; i + NEEDLE <= text.length; i++) if (needles.has(text.slice(i, i + NEEDLE))) return true;
  return false;
}
