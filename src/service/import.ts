import { chunkCapturedEvents } from "../../indexer/captured.js";
import { afterCapture } from "../capture/after.js";
import { mergeSame } from "../capture/merge-same.js";
import { EVENT_TYPES, type CapturedEvent } from "../store/event-types.js";
import { clean, cleanText, type Clean } from "../redact/clean.cjs";
import { ChunkStore } from "../store/chunks.js";
import { insertHistory, insertMemory, memoryById, memoryByKey, type HistoryRow } from "../store/memories.js";
import { truncateDeep } from "../util/json-depth.cjs";
import { notAfter } from "../util/not-after.js";
import { GLOBAL_PROJECT } from "../config/config.js";
import type { ServiceContext } from "./memory.js";
import { checkList, checkText, contentId, FILE, importedId, keyedId, TAG } from "./memory-input.js";
import { EXPLICIT_KINDS, MAX_TAGS } from "./types.js";
import { MemoryError } from "../util/memory-error.js";

/**
 * Importing memories as `mem export` writes them (one `Memory` per JSON line), or in the minimal
 * shape `{"text", "kind"?, "tags"?, "files"?, "key"?}`. Ids are kept; a memory whose id (or key,
 * in its project) is already present is skipped, so importing twice changes nothing. A line
 * without an id or a key gets its content's id. Everything stored passes the redaction boundary.
 */
export type ImportStatus = "imported" | "present" | "forgotten" | "markdown";

export interface ImportTally {
  imported: number;
  /** Skipped: already present, forgotten here (never brought back), or a markdown memory (a file). */
  skipped: { present: number; forgotten: number; markdown: number };
  /** Lines that could not be imported, by line number (1-based), with why. */
  failed: { line: number; error: string }[];
  /** The projects that received memories. */
  projects: string[];
  /** How many memories each project received. */
  into: Record<string, number>;
  /** Lines that named another project (or global) and were filed in the import's project instead (keep them with `keepProjects`, `keepGlobal`). */
  refiled: number;
  /** Times in the future (createdAt, updatedAt, a version's time) set to the time of the import. */
  clamped: number;
}

/**
 * Where the lines go: all into `project` (the one the import is run for), unless the user said to
 * keep the projects the lines name (`keepProjects`: every project but global; `keepGlobal`: global
 * too). A line's own project is never obeyed by default: a file from elsewhere must not file a
 * memory into another project, nor into the global memory every project is shown.
 */
export interface ImportTarget {
  project: string;
  keepProjects?: boolean;
  keepGlobal?: boolean;
}

/** The project a line goes to, and whether it named another one that was not kept. */
export function targetOf(named: string | undefined, t: ImportTarget): { project: string; refiled: boolean } {
  if (named === undefined || named === t.project) return { project: t.project, refiled: false };
  const keep = named === GLOBAL_PROJECT ? t.keepGlobal === true : t.keepProjects === true;
  return keep ? { project: named, refiled: false } : { project: t.project, refiled: true };
}

/**
 * Whether an id as stored would be reached by typing hex (the one id, a chunk's id: `get` looks up
 * `X` and `mem:X` whole): bare hex, or `mem:` and hex of another length than the 24 mem writes.
 */
export function passesForOneId(id: string): boolean {
  const bare = id.toLowerCase().startsWith("mem:") ? id.slice(4) : id;
  return /^[0-9a-f]+$/i.test(bare) && !/^mem:[0-9a-f]{24}$/.test(id);
}

const KINDS = new Set<string>([...EXPLICIT_KINDS, ...EVENT_TYPES]);
const ID = /^[\p{L}\p{N}_:.#@/+=-]{1,200}$/u;
const SOURCES = new Set(["explicit", "tag", "keyword", "captured", "markdown"]);
const MAX_IMPORT_FILES = 200;

function optString(o: Record<string, unknown>, k: string): string | undefined {
  const v = o[k];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" || v.trim() === "") throw new MemoryError("bad_argument", `${k} must be a non-empty string`);
  return v.trim();
}

/** Counts the times of a line set back to now (a future time). */
interface Clock {
  now: number;
  clamped: number;
}

function isoTime(o: Record<string, unknown>, k: string, clock: Clock): string | undefined {
  const v = optString(o, k);
  if (v === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(Date.parse(v))) throw new MemoryError("bad_argument", `${k} must be an ISO time, got ${JSON.stringify(v.slice(0, 40))}`);
  const t = notAfter(new Date(Date.parse(v)).toISOString(), clock.now);
  if (t.clamped) clock.clamped++;
  return t.iso;
}

/** Metadata of a capture as exported (the tool, its status, a task's id and state, ...): an object of at most 16 KiB and 8 levels, without the fields a memory carries itself. */
const MAX_METADATA_CHARS = 16 * 1024;
/** `mergedInto` too: only a merge of this store says where a memory went (a line naming another memory would send its id, once forgotten, there). */
const OWN_METADATA = new Set(["source", "tags", "confidence", "mergedInto"]);

function extraMetadata(v: unknown): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  if (typeof v !== "object" || Array.isArray(v)) throw new MemoryError("bad_argument", "metadata must be an object");
  const kept = Object.fromEntries(Object.entries(truncateDeep(v as Record<string, unknown>, 8)).filter(([k]) => !OWN_METADATA.has(k)));
  if (JSON.stringify(kept).length > MAX_METADATA_CHARS) throw new MemoryError("bad_argument", `metadata is over ${MAX_METADATA_CHARS / 1024} KiB`);
  return kept;
}

/** A memory's earlier versions as exported: at most 100, each a version number, a time, a kind, a text and tags. */
const MAX_VERSIONS = 100;

function historyOfLine(v: unknown, clock: Clock): HistoryRow[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.length > MAX_VERSIONS) throw new MemoryError("bad_argument", `history must be a list of at most ${MAX_VERSIONS} versions`);
  return v.map((h, i): HistoryRow => {
    if (h === null || typeof h !== "object" || Array.isArray(h)) throw new MemoryError("bad_argument", `history[${i}] must be an object`);
    const e = h as Record<string, unknown>;
    if (!Number.isInteger(e.version) || (e.version as number) < 1) throw new MemoryError("bad_argument", `history[${i}].version must be a whole number from 1`);
    const kind = optString(e, "kind") ?? "note";
    if (!KINDS.has(kind)) throw new MemoryError("bad_argument", `history[${i}].kind must be one of ${[...KINDS].join(", ")}`);
    const at = isoTime(e, "at", clock);
    if (at === undefined) throw new MemoryError("bad_argument", `history[${i}].at must be an ISO time`);
    return { version: e.version as number, at: Date.parse(at), kind, text: cleanText(checkText(e.text, `history[${i}].text`)), tags: JSON.stringify(checkList(e.tags, "tags", MAX_TAGS, TAG)) };
  });
}

interface LineResult {
  status: ImportStatus;
  project?: Clean<string>;
  refiled: boolean;
  clamped: number;
  /** What was imported, for the merge once all lines are in. */
  events?: Clean<CapturedEvent[]>;
}

/** Imports one parsed line into the project `target` gives it. Throws MemoryError for a bad line. */
function importOne(ctx: ServiceContext, value: unknown, target: ImportTarget, now: number): LineResult {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new MemoryError("bad_argument", "a line must be a JSON object");
  const o = value as Record<string, unknown>;
  const source = optString(o, "source") ?? "explicit";
  if (!SOURCES.has(source)) throw new MemoryError("bad_argument", `source must be one of ${[...SOURCES].join(", ")}`);
  if (source === "markdown") return { status: "markdown", refiled: false, clamped: 0 };
  const text = cleanText(checkText(o.text)).trim();
  if (text === "") throw new MemoryError("bad_argument", "text must hold something besides <private> spans");
  const kind = optString(o, "kind") ?? "note";
  if (!KINDS.has(kind)) throw new MemoryError("bad_argument", `kind must be one of ${[...KINDS].join(", ")}, got ${JSON.stringify(kind.slice(0, 40))}`);
  const tags = checkList(o.tags, "tags", MAX_TAGS, TAG);
  const files = checkList(o.files, "files", MAX_IMPORT_FILES, FILE);
  const where = targetOf(optString(o, "project"), target);
  const project = cleanText(where.project);
  const key = optString(o, "key");
  const givenId = optString(o, "storedId") ?? optString(o, "id"); // an export's line: the id as stored, beside the one id shown
  if (givenId !== undefined && !ID.test(givenId)) throw new MemoryError("bad_argument", `bad id ${JSON.stringify(givenId.slice(0, 80))}`);
  const cleanKey = key === undefined ? null : cleanText(cleanText(key).slice(0, 200)); // redacted before it is cut: a cut secret is not recognised
  let id = cleanText(givenId ?? (cleanKey !== null ? keyedId(project, cleanKey) : contentId(project, kind, text)));
  let byId = memoryById(ctx.db, id);
  // A line's id is kept only when it is free in this store, or this project's, and cannot pass for
  // a one id: else the line would be skipped as present when another project holds the id, or its
  // id would answer for another memory's shown id (in this project, or in another one's).
  if (givenId !== undefined && ((byId && byId.project !== project) || passesForOneId(givenId))) {
    id = cleanText(importedId(project, givenId));
    byId = memoryById(ctx.db, id);
  }
  const had = byId ?? (cleanKey !== null ? memoryByKey(ctx.db, project, cleanKey) : undefined);
  if (had) return { status: had.deleted_at ? "forgotten" : "present", refiled: false, clamped: 0 };
  // A capture exported without a confidence gets none (it is read as 1), so it comes back as it was.
  const given = typeof o.confidence === "number" && o.confidence >= 0 && o.confidence <= 1 ? o.confidence : undefined;
  const confidence = given ?? 1;
  const clock: Clock = { now, clamped: 0 };
  const time = isoTime(o, "createdAt", clock) ?? new Date(now).toISOString();
  const updated = isoTime(o, "updatedAt", clock);
  const session = optString(o, "session");
  const history = historyOfLine(o.history, clock);
  const metadata = { ...extraMetadata(o.metadata), ...(source === "captured" ? {} : { source }), tags, ...(given !== undefined || source !== "captured" ? { confidence } : {}) };
  const stored = ctx.db.transaction(() => {
    if (!insertMemory(ctx.db, clean({ id, project, session: session ?? null, kind, time, text, files, metadata, idempotencyKey: cleanKey, updatedAt: updated && updated !== time ? Date.parse(updated) : null }))) return false;
    insertHistory(ctx.db, id, clean(history));
    return true;
  })();
  if (!stored) return { status: "present", refiled: false, clamped: 0 };
  const event: CapturedEvent = { id, type: kind as CapturedEvent["type"], time, session: session ?? "", files, text, confidence, metadata };
  const events = clean([event]);
  afterCapture(ctx.db, { project, session: cleanText(session ?? ""), now, events, taskChanges: clean([]), mergeLater: true });
  return { status: "imported", project, refiled: where.refiled, clamped: clock.clamped, events };
}

/**
 * Imports JSON lines; a malformed line is reported with its number and the rest imported. The
 * memories become chunks (searchable by BM25) once all lines are in; vectors follow (`mem sync`).
 */
export function importLines(ctx: ServiceContext, lines: readonly string[], opts: ImportTarget & { onProgress?: (done: number, total: number) => void }): ImportTally {
  const tally: ImportTally = { imported: 0, skipped: { present: 0, forgotten: 0, markdown: 0 }, failed: [], projects: [], into: {}, refiled: 0, clamped: 0 };
  const now = (ctx.now ?? Date.now)();
  const touched = new Set<Clean<string>>();
  const imported = new Map<Clean<string>, Clean<CapturedEvent[]>[]>();
  const one = (raw: string, n: number) => {
    const line = raw.trim();
    if (line === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      tally.failed.push({ line: n, error: "not valid JSON" }); // the parser's message would quote the line
      return;
    }
    try {
      const r = importOne(ctx, value, opts, now);
      if (r.status !== "imported") tally.skipped[r.status]++;
      else {
        tally.imported++;
        touched.add(r.project!);
        tally.into[r.project!] = (tally.into[r.project!] ?? 0) + 1;
        if (r.refiled) tally.refiled++;
        const each = imported.get(r.project!);
        if (each) each.push(r.events!);
        else imported.set(r.project!, [r.events!]); // pushed, not copied: a 60,000-line import copied its list 60,000 times (25 s)
        tally.clamped += r.clamped;
      }
    } catch (e) {
      if (!(e instanceof MemoryError)) throw e;
      tally.failed.push({ line: n, error: e.message }); // its own savepoint rolled back; the batch goes on
    }
  };
  // A batch of lines a transaction: one commit per batch, not per memory (20k lines: seconds, not
  // minutes). A batch that fails on something else than a bad line is rolled back whole, and the
  // error stops the import; what earlier batches stored stays (importing again skips it).
  for (let i = 0; i < lines.length; i += IMPORT_BATCH) {
    const end = Math.min(lines.length, i + IMPORT_BATCH);
    ctx.db.transaction(() => {
      for (let k = i; k < end; k++) one(lines[k]!, k + 1);
    })();
    opts.onProgress?.(end, lines.length);
  }
  const chunks = new ChunkStore(ctx.db);
  for (const project of touched) chunkCapturedEvents(ctx.db, chunks, project, now);
  // The same statement as a memory already there (or another line): one memory (src/capture/merge-same.ts).
  for (const [project, each] of imported) {
    ctx.db.transaction(() => {
      for (const events of each) mergeSame(ctx.db, { project, session: cleanText(""), now, events, taskChanges: clean([]) });
    }).immediate();
  }
  tally.projects = [...touched];
  return tally;
}

/** Lines imported per transaction. */
const IMPORT_BATCH = 500;
