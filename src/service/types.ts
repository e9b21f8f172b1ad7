/**
 * The memory service's shapes, shared by every adapter (CLI, daemon socket, MCP server) so none
 * imports another's code.
 */

import type { AssistantName } from "../contract/adapter.cjs";
import type { RecordMeta } from "../store/records.js";

/** Kinds a person (or the model, through a tool) may give an explicit memory. */
export const EXPLICIT_KINDS = ["decision", "rejected", "learned", "preference", "task", "note"] as const;
export type ExplicitKind = (typeof EXPLICIT_KINDS)[number];

/** Where a memory came from. */
export type MemorySource = "explicit" | "tag" | "keyword" | "captured" | "markdown";

export interface Memory {
  /** Stable: an event id (`mem:…` for explicit ones, `tag:…`, `toolu_…`), or a markdown chunk's id. */
  id: string;
  project: string;
  kind: string;
  text: string;
  tags: string[];
  files: string[];
  source: MemorySource;
  session: string | null;
  /** The assistant the memory was captured in, when not Claude Code (src/contract/adapter.cts). */
  assistant?: AssistantName;
  /** ISO times. */
  createdAt: string;
  updatedAt: string;
  /** A markdown memory: the file and lines it comes from (edit the file to change it). */
  path?: string;
  startLine?: number;
  endLine?: number;
  /** How sure the capture was that this is what it says (a keyword marker less than a tag), 0..1. */
  confidence?: number;
  /** Effective salience, 0..1, and how often it was used. */
  salience?: number;
  uses?: number;
  /** "possibly outdated: src/auth.c changed 3 days ago", when the files it names changed since. */
  stale?: string | null;
  /**
   * The statements this one memory stands for when it was stated more than once (remembered and
   * captured, src/memory/merged.ts), oldest first; absent for a memory stated once.
   */
  sources?: { id: string; source: string; session: string | null; time: string; confidence?: number; text?: string }[];
  /** A decision record in the repository (docs/adr/…): its status, date, authors and successor. */
  record?: RecordMeta;
  /** A team record that local memories are too (src/memory/team-converge.ts): their ids. */
  alsoLocal?: string[];
  /** A local memory that a team record is too: the record (its id, file, status, date, authors). */
  team?: { id: string; path: string; record: RecordMeta };
  /** Earlier versions, oldest first (get with history). */
  history?: { version: number; at: string; kind: string; text: string; tags: string[] }[];
}

export interface PutInput {
  text: string;
  kind?: string;
  tags?: string[];
  files?: string[];
  /** Path or project id; default: the caller's project. */
  project: string;
  session?: string;
  /** A put with a key already used in the project returns that memory (idempotent). */
  clientKey?: string;
}

export interface ListFilter {
  project: string;
  kinds?: string[];
  tags?: string[];
  sources?: MemorySource[];
  session?: string;
  since?: string;
  until?: string;
  /** Words every listed memory contains (case-insensitive). */
  text?: string;
  /** Only the team tier's records (files in the repository's record folders). */
  team?: boolean;
  limit?: number;
  offset?: number;
}

export interface PatchInput {
  text?: string;
  kind?: string;
  tags?: string[];
}

/** What went wrong, for every adapter to report in its own way (exit status, JSON-RPC error, socket reply). */
/** The longest explicit memory: a memory is a statement; a document belongs in a markdown note (mem index). */
export const MAX_MEMORY_CHARS = 5_000;
export const MAX_TAGS = 32;
export const MAX_FILES = 64;
