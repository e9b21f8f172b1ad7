import { cleanText } from "../redact/clean.cjs";
import type { Db } from "../store/db.js";
import { resolveSession } from "../store/session-ids.js";
import { MemoryError } from "../util/memory-error.js";

/**
 * The stored id of the session of `project` that a typed session id stands for: the whole id, the
 * short form every output shows ("8bbcceab…a8c6"), or a unique start of six characters or more
 * (src/render/session-id.ts). Stored ids are redacted ones, so an id typed as the assistant gave
 * it is tried as stored too. Throws a MemoryError: bad_argument (too short, ambiguous: the
 * candidates listed) or not_found ("no session X in this project"). Read only.
 */
export function sessionIn(db: Db, project: string, typed: unknown): string {
  const first = resolveSession(db, project, typed);
  if (first.ok) return first.session;
  if (first.code === "not_found" && typeof typed === "string") {
    const stored = cleanText(typed.trim());
    if (stored !== typed.trim()) {
      const again = resolveSession(db, project, stored);
      if (again.ok) return again.session;
    }
  }
  throw new MemoryError(first.code, first.message);
}
