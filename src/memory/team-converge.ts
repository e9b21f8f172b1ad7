/**
 * When is a local memory the team record that states it? Then the two are one memory with two
 * sources, shown once (the team record: author, status, date) and said to be local too. Pure.
 *
 * A local memory (an explicit or captured one of this project) and a team record (a file of the
 * repository's team folder) converge when
 *   1. the record names it: its frontmatter `mem-id` is the memory's stored id (`mem:…`) or the
 *      one id every output shows for it (`mem share` writes the former); the kinds may differ;
 *   2. or the record states it: the record's title or its text (the body without its title
 *      heading) is the memory's statement by src/memory/same-memory.ts's rule (same kind, same
 *      words in order; conservative). The record's side is keyed once, when it is indexed.
 * A local memory converges with at most one record: the first that names it, else the first that
 * states it, in the order the records are given. A record may stand for several local memories.
 */
import { createHash } from "node:crypto";
import { memoryKey, MERGE_KINDS } from "./same-memory.js";

export interface TeamSide {
  /** The record's id (its first chunk's). */
  id: string;
  memId?: string | undefined;
  /** The keys of what the record says (`recordKeys`): stored with the record when it is indexed. */
  keys: readonly string[];
}

export interface LocalSide {
  /** The stored id (`mem:…`, `tag:…`, a tool call's id). */
  id: string;
  /** The one id outputs show for it. */
  oneId: string;
  kind: string;
  text: string;
}

/** A record's statements: its title and its body less a leading `# title` line; empty ones left out. */
export function teamStatements(title: string | undefined, body: string): string[] {
  const text = body.replace(/^\s*#\s+[^\n]*\n?/, "").trim();
  return [...new Set([title?.trim() ?? "", text].filter((s) => s !== ""))];
}

/**
 * A statement's key: its kind and same-memory's key of its text, hashed (short and of one length,
 * so a record keeps its keys in its metadata); undefined for a kind that never converges or a
 * text with no word.
 */
export function statementKey(kind: string, text: string): string | undefined {
  if (!MERGE_KINDS.has(kind)) return undefined;
  const k = memoryKey(text);
  return k === undefined ? undefined : createHash("sha256").update(`${kind}\0${k}`).digest("hex").slice(0, 24);
}

/** A record's keys: those of its statements (`teamStatements`), each once. */
export function recordKeys(kind: string, title: string | undefined, body: string): string[] {
  return [...new Set(teamStatements(title, body).flatMap((s) => statementKey(kind, s) ?? []))];
}

/**
 * Which record each converging local memory is (local id → record id). `keyOf` is
 * `statementKey`; a caller may pass a cached one.
 */
export function convergeTeam(team: readonly TeamSide[], locals: readonly LocalSide[], keyOf: (kind: string, text: string) => string | undefined = statementKey): Map<string, string> {
  const out = new Map<string, string>();
  if (team.length === 0 || locals.length === 0) return out;
  const named = new Map<string, string>();
  const stated = new Map<string, string>();
  for (const t of team) {
    if (t.memId !== undefined && t.memId !== "" && !named.has(t.memId)) named.set(t.memId, t.id);
    for (const k of t.keys) if (!stated.has(k)) stated.set(k, t.id);
  }
  for (const l of locals) {
    const byId = named.get(l.id) ?? named.get(l.oneId);
    if (byId !== undefined) {
      out.set(l.id, byId);
      continue;
    }
    const k = keyOf(l.kind, l.text);
    const byText = k === undefined ? undefined : stated.get(k);
    if (byText !== undefined) out.set(l.id, byText);
  }
  return out;
}
