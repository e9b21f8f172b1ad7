import { redact } from "../redact/redact.cjs";
import type { Db } from "../store/db.js";

/**
 * Of these chunks, the ones that are a profile (`users/<id>/profile.md`) of someone other than
 * `user` (all profiles when the current user is unknown): what is injected as context for this
 * user's prompt leaves them out.
 */
export function othersProfiles(db: Db, ids: readonly string[], user: string | undefined): Set<string> {
  if (ids.length === 0) return new Set();
  const rows = db
    .prepare(
      `SELECT id, CASE WHEN json_valid(metadata) THEN json_extract(metadata, '$.user') END AS user FROM chunks
       WHERE id IN (${ids.map(() => "?").join(", ")}) AND (CASE WHEN json_valid(metadata) THEN json_extract(metadata, '$.layout') END) = 'profile'`,
    )
    .all(...ids) as { id: string; user: string | null }[];
  const me = user === undefined ? undefined : redact(user).text;
  return new Set(rows.filter((r) => me === undefined || r.user !== me).map((r) => r.id));
}
