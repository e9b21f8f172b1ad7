/**
 * One memory made of several statements of it (src/memory/same-memory.ts says when): what the
 * memory that stays records of each. Its text, kind, id and session stay its own; it gains
 *   - `sources`: every statement, oldest first: its id, where it came from (explicit, tag,
 *     keyword, captured), its session and time, its confidence, and its text when that differs;
 *   - `source`: the strongest of them (an explicit statement outranks a tag, a keyword);
 *   - `confidence`: 1 − Π(1 − cᵢ) over all of them;
 *   - the union of their tags and files (each list at most its usual size).
 * Pure.
 */
import { mergedConfidence, strongestSource } from "./same-memory.js";

export interface Statement {
  id: string;
  session: string | null;
  time: string;
  text: string;
  files: readonly string[];
  metadata: Record<string, unknown>;
}

export interface SourceEntry {
  id: string;
  source: string;
  session: string | null;
  time: string;
  confidence?: number;
  text?: string;
}

/** At most this many statements are listed (the first and the latest kept): a memory stays small. */
export const MAX_SOURCES = 50;

const sourceOf = (m: Record<string, unknown>) => (typeof m.source === "string" ? m.source : "captured");

/**
 * The well-formed entries of a stored `sources` list (it may come from an imported line's
 * metadata): an id, a source, a time, a session (or null), and a confidence and a text when they
 * have their types; any other entry is left out, any other field dropped.
 */
export function validSources(listed: unknown): SourceEntry[] {
  if (!Array.isArray(listed)) return [];
  const out: SourceEntry[] = [];
  for (const e of listed as unknown[]) {
    if (e === null || typeof e !== "object") continue;
    const { id, source, session, time, confidence, text } = e as Record<string, unknown>;
    if (typeof id !== "string" || typeof source !== "string" || typeof time !== "string" || (session !== null && typeof session !== "string")) continue;
    out.push({ id, source, session, time, ...(typeof confidence === "number" && Number.isFinite(confidence) ? { confidence } : {}), ...(typeof text === "string" ? { text } : {}) });
  }
  return out;
}

/** The statements a memory already stands for: its `sources`, or itself alone. */
export function sourcesOf(s: Statement): SourceEntry[] {
  const listed = validSources(s.metadata.sources);
  if (listed.length > 0) return listed;
  const c = s.metadata.confidence;
  return [{ id: s.id, source: sourceOf(s.metadata), session: s.session, time: s.time, ...(typeof c === "number" ? { confidence: c } : {}), text: s.text }];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** The metadata and files of `keep` once it stands for `absorbed` too. */
export function mergeRecord(keep: Statement, absorbed: readonly Statement[], limits = { tags: 32, files: 64 }): { metadata: Record<string, unknown>; files: string[] } {
  const seen = new Set<string>();
  const all: SourceEntry[] = [];
  for (const e of [keep, ...absorbed].flatMap(sourcesOf)) {
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    const { text, ...rest } = e;
    all.push(text !== undefined && text !== keep.text ? { ...rest, text } : rest);
  }
  all.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  const sources = all.length > MAX_SOURCES ? [...all.slice(0, 1), ...all.slice(all.length - MAX_SOURCES + 1)] : all;
  const tags = [...new Set([keep, ...absorbed].flatMap((s) => strings(s.metadata.tags)))].slice(0, limits.tags);
  const files = [...new Set([keep, ...absorbed].flatMap((s) => s.files))].slice(0, limits.files);
  const metadata: Record<string, unknown> = {
    ...keep.metadata,
    source: strongestSource(all.map((e) => e.source)),
    confidence: mergedConfidence(all.map((e) => e.confidence)),
    tags,
    sources,
  };
  return { metadata, files };
}
