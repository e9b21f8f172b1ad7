import { createHash } from "node:crypto";

/**
 * A line's fingerprint: what a session is recorded as shown (src/store/injections.ts). By content,
 * not by line number, so an edit above a shown line (the note re-indexed, its lines moved) neither
 * hides lines the session never saw nor shows the moved line again; and no text is copied into the
 * record (forgetting a memory leaves nothing of it there). Whitespace at the ends does not count.
 */
export function linePrint(line: string): string {
  return createHash("sha1").update(line.trim()).digest("hex").slice(0, 16);
}

export const isLinePrint = (s: unknown): s is string => typeof s === "string" && /^[0-9a-f]{16}$/.test(s);
