/**
 * Tombstones: `<team folder>/FORGOTTEN.md`, one markdown list line a shared memory the user
 * forgot (`- <mem-id> · <yyyy-mm-dd> · <title>`), committed and reviewed like the records. A
 * memory whose id is there is never shared again (not from old captures either), and mem never
 * proposes it. The file is the team's, so it may be anything: it is read bounded, only as a
 * regular file (not a link), and skipped with a warning when it is not text.
 */
import { join } from "node:path";
import { lstatSync } from "node:fs";
import { readRegular } from "../util/read-regular.cjs";
import { clip, MAX_TITLE, oneLine } from "./madr-file.js";
import { TeamError, writeWhole } from "./place.js";

export const TOMBSTONES = "FORGOTTEN.md";
/** The largest tombstone file read (and added to). */
export const MAX_TOMBSTONE_BYTES = 1024 * 1024;

const HEADER = "# Forgotten shared memories\n\nmem never shares these again (`mem forget` adds a line; see docs/commands.md).\n\n";

/** The mem-ids a tombstone file lists: the first word of each `- ` (or `* `) list line. Pure. */
export function parseTombstones(text: string): Set<string> {
  const ids = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*[-*+]\s+`?([^\s`·]{1,200})`?(?:\s|$)/.exec(line);
    if (m && !/[\u0000-\u001f\u007f]/.test(m[1]!)) ids.add(m[1]!);
  }
  return ids;
}

/** A tombstone's line. Pure. */
export function tombstoneLine(memId: string, day: string, title: string): string {
  return `- ${oneLine(memId).replace(/[\s`·]/g, "_")} · ${day} · ${clip(oneLine(title), MAX_TITLE)}`;
}

/** Reads the folder's tombstones; a missing file is none, a hostile one none with a warning. */
export function readTombstones(dir: string): { ids: Set<string>; warning?: string } {
  const read = tombstoneText(dir);
  return "text" in read ? { ids: parseTombstones(read.text) } : { ids: new Set(), ...(read.warning ? { warning: read.warning } : {}) };
}

function tombstoneText(dir: string): { text: string } | { warning?: string } {
  const path = join(dir, TOMBSTONES);
  try {
    if (lstatSync(path).isSymbolicLink()) return { warning: `${TOMBSTONES} is a link: not read (no memory counts as forgotten by it)` };
  } catch {
    return {};
  }
  const r = readRegular(path, MAX_TOMBSTONE_BYTES, { within: dir });
  if (!r.ok) return r.why === "absent" ? {} : { warning: `${TOMBSTONES} not read: ${r.reason}` };
  if (r.data.includes(0)) return { warning: `${TOMBSTONES} is not text (binary): not read` };
  return { text: r.data.toString("utf8") };
}

/** Adds a tombstone line (the file made, with a heading, when missing); none twice for one mem-id. */
export function addTombstone(dir: string, memId: string, day: string, title: string): "added" | "present" {
  const read = tombstoneText(dir);
  if (!("text" in read) && read.warning) throw new TeamError(`${read.warning}; add \`${tombstoneLine(memId, day, title)}\` yourself`);
  const text = "text" in read ? read.text : HEADER;
  if (parseTombstones(text).has(memId)) return "present";
  writeWhole(dir, TOMBSTONES, `${text}${text === "" || text.endsWith("\n") ? "" : "\n"}${tombstoneLine(memId, day, title)}\n`);
  return "added";
}
