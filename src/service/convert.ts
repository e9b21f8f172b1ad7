import { isAssistantName } from "../contract/adapter.cjs";
import { validSources } from "../memory/merged.js";
import { eventChunkId } from "../store/chunk-ids.js";
import type { Db } from "../store/db.js";
import { oneId } from "../store/one-id.js";
import { markdownById, type MarkdownRow, type MemoryRow } from "../store/memories.js";
import { recordMeta, type RecordRow } from "../store/records.js";
import type { Memory, MemorySource } from "./types.js";

/** Stored rows as the service's `Memory`. Pure but for the one chunk lookup of a markdown memory. */
export function sourceOf(metadata: Record<string, unknown>): MemorySource {
  const s = metadata.source;
  return s === "explicit" || s === "tag" || s === "keyword" ? s : "captured";
}

export function toMemory(r: Pick<MemoryRow, "id" | "project" | "session" | "type" | "time" | "updated_at"> & { files: string | string[]; text: string; metadata: string | Record<string, unknown> }): Memory {
  const metadata = typeof r.metadata === "string" ? (JSON.parse(r.metadata) as Record<string, unknown>) : r.metadata;
  const tags = Array.isArray(metadata.tags) ? metadata.tags.filter((t): t is string => typeof t === "string") : [];
  return {
    id: r.id,
    project: r.project,
    kind: r.type,
    text: r.text,
    tags,
    files: typeof r.files === "string" ? (JSON.parse(r.files) as string[]) : r.files,
    source: sourceOf(metadata),
    session: r.session || null,
    createdAt: r.time,
    updatedAt: r.updated_at ? new Date(r.updated_at).toISOString() : r.time,
    ...(isAssistantName(metadata.assistant) ? { assistant: metadata.assistant } : {}),
    ...(typeof metadata.confidence === "number" ? { confidence: metadata.confidence } : {}),
    ...sourcesField(metadata.sources),
  };
}

/** A memory's statements (more than one: it was merged), well-formed ones only (an imported line's metadata may hold anything). */
function sourcesField(listed: unknown): { sources?: NonNullable<Memory["sources"]> } {
  const sources = validSources(listed);
  return sources.length > 1 ? { sources } : {};
}

/** A markdown chunk as a memory (its file and lines say where to edit it). */
export function fromMarkdown(c: MarkdownRow): Memory {
  const indexed = new Date(c.indexed_at).toISOString();
  return { id: c.id, project: c.project, kind: c.kind, text: c.text, tags: JSON.parse(c.tags) as string[], files: [c.path], source: "markdown", session: null, createdAt: c.date ?? indexed, updatedAt: indexed, path: c.path, startLine: c.start_line, endLine: c.end_line };
}

/** A decision record (its file's first chunk) as a memory: a markdown memory that carries its record. */
export function fromRecord(r: RecordRow): Memory {
  const indexed = new Date(r.indexed_at).toISOString();
  const record = recordMeta(r);
  return { id: r.chunk, project: r.project, kind: r.kind, text: r.text, tags: [], files: [r.path], source: "markdown", session: null, createdAt: r.date ?? indexed, updatedAt: indexed, path: r.path, startLine: r.start_line, endLine: r.end_line, record };
}

/** A markdown chunk as a memory, or undefined. */
export function markdownMemory(db: Db, id: string): Memory | undefined {
  const c = markdownById(db, id);
  return c ? fromMarkdown(c) : undefined;
}

/**
 * The one id a memory is shown by (src/store/one-id.ts): the start of its chunk's id, which a
 * captured or explicit memory's stored id and project give (its chunk need not exist yet).
 */
export function idOf(m: Pick<Memory, "id" | "project" | "source">): string {
  return oneId(m.source === "markdown" ? m.id : eventChunkId(m.project, m.id));
}

/** A memory as every output shows it: its `id` the one id. */
export function shown<M extends Pick<Memory, "id" | "project" | "source">>(m: M): M {
  return { ...m, id: idOf(m) };
}
