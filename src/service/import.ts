import { chunkCapturedEvents } from "../../indexer/captured.js";
import { afterCapture } from "../capture/after.js";
import { EVENT_TYPES, type CapturedEvent } from "../capture/types.js";
import { clean, cleanText, type Clean } from "../redact/clean.cjs";
import { ChunkStore } from "../store/chunks.js";
import { insertHistory, insertMemory, memoryById, memoryByKey, type HistoryRow } from "../store/memories.js";
import { truncateDeep } from "../util/json-depth.cjs";
import { checkList, checkText, contentId, FILE, keyedId, TAG, type ServiceContext } from "./memory.js";
import { EXPLICIT_KINDS, MAX_TAGS, MemoryError } from "./types.js";

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

function isoTime(o: Record<string, unknown>, k: string): string | undefined {
  const v = optString(o, k);
  if (v === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(Date.parse(v))) throw new MemoryError("bad_argument", `${k} must be an ISO time, got ${JSON.stringify(v.slice(0, 40))}`);
  return new Date(Date.parse(v)).toISOString();
}

/** Metadata of a capture as exported (the tool, its status, a task's id and state, ...): an object of at most 16 KiB and 8 levels, without the fields a memory carries itself. */
const MAX_METADATA_CHARS = 16 * 1024;
const OWN_METADATA = new Set(["source", "tags", "confidence"]);

function extraMetadata(v: unknown): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  if (typeof v !== "object" || Array.isArray(v)) throw new MemoryError("bad_argument", "metadata must be an object");
  const kept = Object.fromEntries(Object.entries(truncateDeep(v as Record<string, unknown>, 8)).filter(([k]) => !OWN_METADATA.has(k)));
  if (JSON.stringify(kept).length > MAX_METADATA_CHARS) throw new MemoryError("bad_argument", `metadata is over ${MAX_METADATA_CHARS / 1024} KiB`);
  return kept;
}

/** A memory's earlier versions as exported: at most 100, each a version number, a time, a kind, a text and tags. */
const MAX_VERSIONS = 100;

function historyOfLine(v: unknown): HistoryRow[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.length > MAX_VERSIONS) throw new MemoryError("bad_argument", `history must be a list of at most ${MAX_VERSIONS} versions`);
  return v.map((h, i): HistoryRow => {
    if (h === null || typeof h !== "object" || Array.isArray(h)) throw new MemoryError("bad_argument", `history[${i}] must be an object`);
    const e = h as Record<string, unknown>;
    if (!Number.isInteger(e.version) || (e.version as number) < 1) throw new MemoryError("bad_argument", `history[${i}].version must be a whole number from 1`);
    const kind = optString(e, "kind") ?? "note";
    if (!KINDS.has(kind)) throw new MemoryError("bad_argument", `history[${i}].kind must be one of ${[...KINDS].join(", ")}`);
    const at = isoTime(e, "at");
    if (at === undefined) throw new MemoryError("bad_argument", `history[${i}].at must be an ISO time`);
    return { version: e.version as number, at: Date.parse(at), kind, text: cleanText(checkText(e.text, `history[${i}].text`)), tags: JSON.stringify(checkList(e.tags, "tags", MAX_TAGS, TAG)) };
  });
}

/** Imports one parsed line into `project` (the line's own project when `project` is undefined). Throws MemoryError for a bad line. */
function importOne(ctx: ServiceContext, value: unknown, fallbackProject: string, override: string | undefined, now: number, touched: Set<Clean<string>>): ImportStatus {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new MemoryError("bad_argument", "a line must be a JSON object");
  const o = value as Record<string, unknown>;
  const source = optString(o, "source") ?? "explicit";
  if (!SOURCES.has(source)) throw new MemoryError("bad_argument", `source must be one of ${[...SOURCES].join(", ")}`);
  if (source === "markdown") return "markdown";
  const text = cleanText(checkText(o.text)).trim();
  if (text === "") throw new MemoryError("bad_argument", "text must hold something besides <private> spans");
  const kind = optString(o, "kind") ?? "note";
  if (!KINDS.has(kind)) throw new MemoryError("bad_argument", `kind must be one of ${[...KINDS].join(", ")}, got ${JSON.stringify(kind.slice(0, 40))}`);
  const tags = checkList(o.tags, "tags", MAX_TAGS, TAG);
  const files = checkList(o.files, "files", MAX_IMPORT_FILES, FILE);
  const project = cleanText(override ?? optString(o, "project") ?? fallbackProject);
  const key = optString(o, "key");
  const givenId = optString(o, "id");
  if (givenId !== undefined && !ID.test(givenId)) throw new MemoryError("bad_argument", `bad id ${JSON.stringify(givenId.slice(0, 80))}`);
  const cleanKey = key === undefined ? null : cleanText(cleanText(key).slice(0, 200)); // redacted before it is cut: a cut secret is not recognised
  const id = cleanText(givenId ?? (cleanKey !== null ? keyedId(project, cleanKey) : contentId(project, kind, text)));
  const had = memoryById(ctx.db, id) ?? (cleanKey !== null ? memoryByKey(ctx.db, project, cleanKey) : undefined);
  if (had) return had.deleted_at ? "forgotten" : "present";
  // A capture exported without a confidence gets none (it is read as 1), so it comes back as it was.
  const given = typeof o.confidence === "number" && o.confidence >= 0 && o.confidence <= 1 ? o.confidence : undefined;
  const confidence = given ?? 1;
  const time = isoTime(o, "createdAt") ?? new Date(now).toISOString();
  const updated = isoTime(o, "updatedAt");
  const session = optString(o, "session");
  const history = historyOfLine(o.history);
  const metadata = { ...extraMetadata(o.metadata), ...(source === "captured" ? {} : { source }), tags, ...(given !== undefined || source !== "captured" ? { confidence } : {}) };
  const stored = ctx.db.transaction(() => {
    if (!insertMemory(ctx.db, clean({ id, project, session: session ?? null, kind, time, text, files, metadata, idempotencyKey: cleanKey, updatedAt: updated && updated !== time ? Date.parse(updated) : null }))) return false;
    insertHistory(ctx.db, id, clean(history));
    return true;
  })();
  if (!stored) return "present";
  const event: CapturedEvent = { id, type: kind as CapturedEvent["type"], time, session: session ?? "", files, text, confidence, metadata };
  afterCapture(ctx.db, { project, session: cleanText(session ?? ""), now, events: clean([event]), taskChanges: clean([]) });
  touched.add(project);
  return "imported";
}

/**
 * Imports JSON lines; a malformed line is reported with its number and the rest imported. The
 * memories become chunks (searchable by BM25) once all lines are in; vectors follow (`mem sync`).
 */
export function importLines(ctx: ServiceContext, lines: readonly string[], opts: { project: string; override?: string; onProgress?: (done: number, total: number) => void }): ImportTally {
  const tally: ImportTally = { imported: 0, skipped: { present: 0, forgotten: 0, markdown: 0 }, failed: [], projects: [] };
  const now = (ctx.now ?? Date.now)();
  const touched = new Set<Clean<string>>();
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
      const status = importOne(ctx, value, opts.project, opts.override, now, touched);
      if (status === "imported") tally.imported++;
      else tally.skipped[status]++;
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
  tally.projects = [...touched];
  return tally;
}

/** Lines imported per transaction. */
const IMPORT_BATCH = 500;
