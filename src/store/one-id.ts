/**
 * The one id every memory and every chunk is shown by: the first `ID_CHARS` hex characters of its
 * chunk's id (a captured or explicit memory's chunk id derives from its event's, so it is known
 * even before the memory is chunked). No prefix, the same in every output, stable for the life of
 * the memory. Older forms (`mem:…` ids, tool ids, whole chunk ids, 8-character short ids) are
 * still accepted wherever an id is (src/store/memory-ids.ts). Tasks and prompt runs are shown by
 * the same kind of id (`rowOneId`). Pure.
 */

import { createHash } from "node:crypto";

/** How many characters the id shows: 48 bits, so two memories of one store sharing one is very unlikely. */
export const ID_CHARS = 12;
/** The fewest characters of an id (a start of one) that stand for a memory. */
export const MIN_ID_CHARS = 6;
/** The prefix explicit memories' ids were shown with; accepted, and ignored, before any id. */
export const LEGACY_PREFIX = "mem:";
/** The longest id accepted (stored ids are far shorter). */
export const MAX_ID_INPUT = 200;

/** A chunk id as shown. */
export const oneId = (chunkId: string): string => chunkId.slice(0, ID_CHARS);

/** Rows that are not memories but are shown by the same kind of id: a task, a prompt-hook run. */
export type RowKind = "task" | "prompt";

/**
 * The one id of a task or a prompt run: `ID_CHARS` hex characters derived from its kind and its
 * number in the store (which is never reused), so it is stable and looks like every other id.
 * The number stays accepted as an alias (`#12` for a task). Pure.
 */
export const rowOneId = (kind: RowKind, n: number): string => createHash("sha256").update(`${kind}:${n}`).digest("hex").slice(0, ID_CHARS);

/** What a start of an id too short to stand for anything gets. */
export const tooShortMessage = (raw: string): string => `id ${JSON.stringify(raw.slice(0, 80))} is too short: give at least ${MIN_ID_CHARS} characters of the id`;

export type Picked<T> = { ok: true; row: T } | { ok: false; code: "bad_argument" | "not_found"; message: string };

/**
 * The one row of `rows` an id as typed stands for, by the start of its one id (`idOf`): refused
 * when the id is not hex or is shorter than MIN_ID_CHARS, not found when none starts with it, and
 * ambiguous (the candidates listed, each long enough to type) when several do. `what` names a
 * row in the messages ("task"). Pure.
 */
export function pickById<T>(typed: unknown, rows: readonly T[], idOf: (row: T) => string, what: string): Picked<T> {
  const parsed = parseId(typed);
  if (!parsed.ok) return { ok: false, code: "bad_argument", message: parsed.message };
  const { raw, bare, hex } = parsed.id;
  if (!hex) return { ok: false, code: "bad_argument", message: `not a ${what} id: ${JSON.stringify(raw.slice(0, 80))} (an id is ${ID_CHARS} hex characters)` };
  if (bare.length < MIN_ID_CHARS) return { ok: false, code: "bad_argument", message: tooShortMessage(raw) };
  const found = rows.filter((r) => idOf(r).startsWith(bare));
  if (found.length === 1) return { ok: true, row: found[0]! };
  if (found.length === 0) return { ok: false, code: "not_found", message: `no ${what} ${raw.slice(0, 80)}` };
  const n = distinctLength(found.map(idOf));
  const listed = found.slice(0, 5).map((r) => idOf(r).slice(0, n));
  return { ok: false, code: "bad_argument", message: `id ${JSON.stringify(raw.slice(0, 80))} is ambiguous: it starts ${found.length > 5 ? "more than 5" : found.length} ${what}s' ids: ${listed.join(", ")}${found.length > 5 ? ", …" : ""}; give more of it` };
}

/** What an id as typed stands for. */
export interface IdInput {
  /** As given, trimmed: a stored id may be any text (a tool's id, `tag:…`, `mem:…`). */
  raw: string;
  /** Without the `mem:` prefix, lower-cased when it is hex: what a chunk's id (the one id) may start with. */
  bare: string;
  /** Whether `bare` is hex, so it can be (the start of) a one id. */
  hex: boolean;
}

export type ParsedId = { ok: true; id: IdInput } | { ok: false; message: string };

/**
 * An id as a person or a model typed it: trimmed, one `mem:` prefix dropped (any case), hex
 * lower-cased. Refused: a non-string, an empty id, one longer than MAX_ID_INPUT, control characters.
 */
export function parseId(input: unknown): ParsedId {
  if (typeof input !== "string") return { ok: false, message: "id must be a string" };
  const raw = input.trim();
  if (raw === "") return { ok: false, message: "id must be a non-empty string" };
  if (raw.length > MAX_ID_INPUT) return { ok: false, message: `id is ${raw.length} characters; an id has at most ${MAX_ID_INPUT}` };
  if (/[\u0000-\u001f\u007f]/.test(raw)) return { ok: false, message: "id holds control characters" };
  const stripped = raw.toLowerCase().startsWith(LEGACY_PREFIX) ? raw.slice(LEGACY_PREFIX.length) : raw;
  if (stripped === "") return { ok: false, message: `id ${JSON.stringify(raw)} has nothing after its prefix` };
  const hex = /^[0-9a-f]+$/i.test(stripped);
  return { ok: true, id: { raw, bare: hex ? stripped.toLowerCase() : stripped, hex } };
}

/**
 * How many characters tell apart full ids that begin alike: at least `ID_CHARS`, one past their
 * longest shared start. What an ambiguity error shows, so each candidate it lists can be typed.
 */
export function distinctLength(ids: readonly string[]): number {
  let n = ID_CHARS;
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const a = ids[i]!;
      const b = ids[j]!;
      let k = 0;
      while (k < a.length && k < b.length && a[k] === b[k]) k++;
      n = Math.max(n, k + 1);
    }
  }
  return n;
}
