import type { Db } from "../store/db.js";
import type { MemoryRow } from "../store/memories.js";
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
  };
}

/** A markdown chunk as a memory (its file and lines say where to edit it), or undefined. */
export function markdownMemory(db: Db, id: string): Memory | undefined {
  const c = db
    .prepare("SELECT c.id, c.project, c.path, c.kind, c.text, c.tags, c.date, c.start_line, c.end_line, s.indexed_at FROM chunks c JOIN sources s ON s.id = c.source_id WHERE c.id = ? AND c.path NOT LIKE 'session:%'")
    .get(id) as { id: string; project: string; path: string; kind: string; text: string; tags: string; date: string | null; start_line: number; end_line: number; indexed_at: number } | undefined;
  if (!c) return undefined;
  const indexed = new Date(c.indexed_at).toISOString();
  return { id: c.id, project: c.project, kind: c.kind, text: c.text, tags: JSON.parse(c.tags) as string[], files: [c.path], source: "markdown", session: null, createdAt: c.date ?? indexed, updatedAt: indexed, path: c.path, startLine: c.start_line, endLine: c.end_line };
}
