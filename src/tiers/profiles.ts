import { redact } from "../redact/redact.cjs";
import type { Db } from "../store/db.js";

/** SQL on `chunks`: its layout and user (src/indexer/tier.ts), NULL when its metadata is not JSON. */
export const LAYOUT_SQL = "CASE WHEN json_valid(metadata) THEN json_extract(metadata, '$.layout') END";
export const USER_SQL = "CASE WHEN json_valid(metadata) THEN json_extract(metadata, '$.user') END";
/**
 * SQL on `chunks`: a hot chunk that is, or may be, a profile: its layout says so, or its file is
 * named profile.md (a file re-indexed on its own by a repair gets its hot tier back without its
 * layout; it is then nobody's profile, never everybody's note).
 */
export const MAYBE_PROFILE_SQL = `(${LAYOUT_SQL} = 'profile' OR lower(path) GLOB '*profile.md' OR lower(path) GLOB '*profile.mdx')`;

/**
 * Of these chunks, the hot ones that are (or may be) a profile (`users/<id>/profile.md`) of
 * someone other than `user` (every profile when the current user is unknown): what is injected as
 * context for this user's prompt leaves them out.
 */
export function othersProfiles(db: Db, ids: readonly string[], user: string | undefined): Set<string> {
  if (ids.length === 0) return new Set();
  const rows = db
    .prepare(`SELECT id, ${LAYOUT_SQL} AS layout, ${USER_SQL} AS user FROM chunks WHERE id IN (${ids.map(() => "?").join(", ")}) AND tier = 'hot' AND ${MAYBE_PROFILE_SQL}`)
    .all(...ids) as { id: string; layout: string | null; user: string | null }[];
  const me = user === undefined ? undefined : redact(user).text;
  return new Set(rows.filter((r) => me === undefined || r.layout !== "profile" || r.user !== me).map((r) => r.id));
}
