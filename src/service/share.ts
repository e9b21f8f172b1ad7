/**
 * `mem share`: chosen memories of the project written into the repository's team folder as MADR
 * files (src/team/madr-file.ts), for the team to review as an ordinary diff. Nothing is committed
 * or pushed. Only statements (decisions, rejected approaches, learned facts, preferences, notes;
 * remembered or tagged) are shared: a tool event, a prompt or a task is refused. Every value
 * written passes the redaction boundary again here (the store's text, the author from git config,
 * the session's line, the file names), whatever was stored under older rules.
 */
import { isAbsolute, relative } from "node:path";
import type { Config } from "../config/config.js";
import { cleanText } from "../redact/clean.cjs";
import { visible } from "../render/line.js";
import { idOf } from "./convert.js";
import type { MemoryService } from "./memory.js";
import { MemoryError } from "../util/memory-error.js";
import type { Memory } from "./types.js";
import type { Db } from "../store/db.js";
import { sessionDay, SessionStore } from "../store/sessions.js";
import { within } from "../util/walls.cjs";
import { authorOf } from "../team/author.js";
import { fileNameFor, renderMadr, SHAREABLE_KINDS, slugOf, titleOf } from "../team/madr-file.js";
import { currentContent, ensureDir, sharedFiles, TeamError, teamPlace, writeWhole } from "../team/place.js";
import { readTombstones } from "../team/tombstones.js";

export type ShareStatus = "written" | "unchanged" | "would write" | "skipped";

export interface ShareResult {
  /** The memory's id as every output shows it (or the id as typed, when none was found). */
  id: string;
  status: ShareStatus;
  /** Repository-relative path of its file. */
  file?: string;
  memId?: string;
  why?: string;
  /** What is (or would be) written (dry run). */
  content?: string;
}

export interface ShareRequest {
  project: string;
  /** The project's directory (its repository's top level). */
  root: string | undefined;
  ids?: readonly string[];
  kinds?: readonly string[];
  /** ISO date or time: memories made on or after it. */
  since?: string;
  folder?: string;
  dryRun: boolean;
  now: number;
}

export interface ShareReport {
  /** The team folder, relative to the repository. */
  folder: string;
  root: string;
  results: ShareResult[];
  warnings: string[];
}

/** Why a selection leaves a shared file alone: it differs from the memory (a teammate's edit, a review's). */
export const EDITED = "its file differs from the memory (edited since it was shared, by a pull or a review, or the memory changed): a selection never writes over a shared file; `mem share ID` rewrites it from the memory";

/** Memories a selection (`--kind`, `--since`) shares at most in one run. */
export const MAX_SELECTED = 1_000;
const SHARED_SOURCES = ["explicit", "tag", "keyword"] as const;

/** Why a memory is not shared, or undefined when it may be. Pure. */
export function refusal(m: Pick<Memory, "kind" | "source" | "path" | "record" | "project">, project: string, tombstoned: boolean): string | undefined {
  if (m.project !== project) return "another project's memory: share it from that project's repository";
  if (m.source === "markdown") return m.record ? `already a record in the repository (${m.path ?? "a file"})` : "a passage of a markdown note, which is your own file: copy it into the team folder to share it";
  if (m.kind === "prompt") return "a prompt: prompts are never shared";
  if (m.source === "captured" || !SHAREABLE_KINDS.includes(m.kind)) return `a ${m.kind === "task" ? "task" : `raw tool event (${m.kind})`}: only ${SHAREABLE_KINDS.join(", ")} memories are shared`;
  if (tombstoned) return "forgotten from the team folder (listed in FORGOTTEN.md): never shared again";
  return undefined;
}

/** A memory's files, relative to the repository; files outside it are left out (their paths are the user's). Pure. */
export function repoFiles(files: readonly string[], roots: readonly string[]): string[] {
  const out: string[] = [];
  for (const f of files) {
    let rel: string | undefined;
    if (isAbsolute(f)) {
      const root = roots.find((r) => within(f, r));
      rel = root === undefined ? undefined : relative(root, f);
    } else rel = f;
    const norm = rel?.split(/[\\/]+/).filter((p) => p !== "" && p !== ".").join("/");
    if (norm && !norm.split("/").includes("..") && !out.includes(norm)) out.push(norm);
  }
  return out.slice(0, 32);
}

/** The provenance line: the session, its day and what it did (never its prompts). Pure. */
export function sessionLine(session: string, day: string | undefined, did: { filesChanged?: readonly string[]; fixed?: readonly string[]; decisions?: readonly string[]; events?: number } | undefined, roots: readonly string[]): string {
  const parts: string[] = [];
  const changed = repoFiles(did?.filesChanged ?? [], roots);
  if (changed.length > 0) parts.push(`changed ${changed.slice(0, 3).join(", ")}${changed.length > 3 ? ` and ${changed.length - 3} more` : ""}`);
  if ((did?.fixed?.length ?? 0) > 0) parts.push(`fixed ${did!.fixed!.length} failing command(s)`);
  if ((did?.decisions?.length ?? 0) > 0) parts.push(`${did!.decisions!.length} decision(s)`);
  return `session ${session.slice(0, 64)}${day ? ` ${day}` : ""}${parts.length > 0 ? `: ${parts.join("; ")}` : ""}`;
}

function provenance(db: Db, m: Memory, roots: readonly string[]): string {
  if (!m.session) return "";
  const sessions = new SessionStore(db);
  const summary = sessions.summaryOf(sessions.get(m.session));
  return sessionLine(m.session, sessionDay(db, m.session) ?? m.createdAt.slice(0, 10), summary, roots);
}

/** The memories asked for: by id (each found or not), or by kind and date. */
function select(svc: MemoryService, r: ShareRequest): { found: Memory[]; missing: ShareResult[] } {
  const found: Memory[] = [];
  const missing: ShareResult[] = [];
  if (r.ids && r.ids.length > 0) {
    for (const id of r.ids) {
      try {
        const m = svc.get(id);
        if (!found.some((x) => x.id === m.id)) found.push(m);
      } catch (err) {
        if (!(err instanceof MemoryError) || err.code === "bad_argument") throw err;
        missing.push({ id, status: "skipped", why: err.message });
      }
    }
    return { found, missing };
  }
  const kinds = r.kinds && r.kinds.length > 0 ? r.kinds : SHAREABLE_KINDS;
  for (let offset = 0; found.length < MAX_SELECTED; ) {
    const page = svc.list({ project: r.project, kinds: [...kinds], sources: [...SHARED_SOURCES], ...(r.since ? { since: r.since } : {}), limit: Math.min(500, MAX_SELECTED - found.length), offset });
    found.push(...page.memories);
    offset += page.memories.length;
    if (page.memories.length === 0 || offset >= page.total) break;
  }
  return { found: found.reverse(), missing }; // oldest first: files named in the order the memories were made
}

export function share(db: Db, svc: MemoryService, config: Pick<Config, "index" | "team">, r: ShareRequest): ShareReport {
  const place = teamPlace(r.root, config, r.folder);
  const roots = [place.root, ...(r.root ? [r.root] : [])];
  const warnings: string[] = [];
  const { ids: forgotten, warning } = readTombstones(place.dir);
  if (warning) warnings.push(warning);
  const files = sharedFiles(place.dir);
  warnings.push(...files.warnings);
  const { found, missing } = select(svc, r);
  const results: ShareResult[] = [...missing];
  let author: string | undefined;
  let made = false;
  const named = (r.ids?.length ?? 0) > 0;
  for (const m of found) {
    const memId = cleanText(m.id);
    const why = refusal(m, r.project, forgotten.has(memId) || forgotten.has(m.id));
    const id = idOf(m);
    if (why !== undefined) {
      results.push({ id, status: "skipped", why });
      continue;
    }
    author ??= cleanText(authorOf(place.root));
    const text = visible(cleanText(m.text)); // control characters as escapes: a reviewer's terminal shows the diff as it is
    const title = titleOf(text);
    const content = renderMadr({ kind: m.kind, date: m.createdAt.slice(0, 10), author, memId, files: repoFiles(m.files, roots).map(cleanText), source: cleanText(provenance(db, m, roots)), title, text });
    const name = fileNameFor(slugOf(title), memId, files.byMemId, files.taken);
    files.byMemId.set(memId, name);
    files.taken.add(name.toLowerCase());
    const file = `${place.folder}/${name}`;
    try {
      const had = currentContent(place.dir, name);
      if (had === content) results.push({ id, memId, file, status: "unchanged" });
      else if (had !== undefined && !named) results.push({ id, memId, file, status: "skipped", why: EDITED });
      else if (r.dryRun) results.push({ id, memId, file, status: "would write", content });
      else {
        if (!made) ensureDir(place);
        made = true;
        writeWhole(place.dir, name, content, { fresh: had === undefined });
        results.push({ id, memId, file, status: "written" });
      }
    } catch (err) {
      if (!(err instanceof TeamError) && !(err as NodeJS.ErrnoException).code) throw err;
      results.push({ id, memId, file, status: "skipped", why: (err as Error).message });
    }
  }
  return { folder: place.folder, root: place.root, results, warnings };
}
