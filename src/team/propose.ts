/**
 * The proposal (`team.propose`, off by default): at SessionStart, one line naming the decisions,
 * rejected approaches and learned facts of the project's previous session that are not in the
 * team folder yet and not tombstoned, with the `mem share` command that would share them. It
 * writes nothing. Bounded: one indexed query for the candidates, one for what the index knows of
 * the team folder, the tombstone file read capped, and only the folder's files the index has not
 * seen as they are now read.
 */
import { basename } from "node:path";
import type { Config } from "../config/config.js";
import { eventChunkId } from "../store/chunk-ids.js";
import type { Db } from "../store/db.js";
import { EventStore } from "../store/events.js";
import { sourcesUnder } from "../store/records.js";
import { SessionStore } from "../store/sessions.js";
import { oneId } from "../store/one-id.js";
import { sharedFiles, teamPlace } from "./place.js";
import { readTombstones } from "./tombstones.js";

/** The kinds proposed: what a team keeps (a preference or a note is the user's own). */
export const PROPOSED_KINDS = ["decision", "rejected", "learned"] as const;
/** Candidates read from the previous session, at most; ids named in the line, at most. */
const CANDIDATES = 100;
export const MAX_NAMED = 10;
/** Files of the team folder the index has not seen as they are now, read at most (more: no proposal this time). */
export const MAX_UNSEEN = 64;

export interface ProposalCandidate {
  /** The stored id (the mem-id a shared file carries). */
  memId: string;
  /** The id every output shows. */
  shown: string;
  kind: string;
}

export interface Proposal {
  /** Shown ids, oldest first, at most MAX_NAMED. */
  ids: string[];
  /** How many of each kind could be shared (all of them, not only the named). */
  counts: Record<string, number>;
}

/** The candidates neither shared (`shared` mem-ids) nor tombstoned, as a proposal; undefined when none is left. Pure. */
export function proposalOf(candidates: readonly ProposalCandidate[], shared: ReadonlySet<string>, forgotten: ReadonlySet<string>): Proposal | undefined {
  const left = candidates.filter((c) => (PROPOSED_KINDS as readonly string[]).includes(c.kind) && !shared.has(c.memId) && !forgotten.has(c.memId));
  if (left.length === 0) return undefined;
  const counts: Record<string, number> = {};
  for (const c of left) counts[c.kind] = (counts[c.kind] ?? 0) + 1;
  return { ids: [...new Set(left.map((c) => c.shown))].slice(0, MAX_NAMED), counts };
}

/** The project's previous session (the newest other than `current`), if the store knows one. */
function previousSession(db: Db, project: string, current: string): string | undefined {
  return new SessionStore(db).recent(project, 5).find((s) => s.session !== current)?.session;
}

/** The proposal for the project's SessionStart, or undefined (off, no repository, nothing to propose, anything unreadable). Never writes. */
export function gatherProposal(db: Db, config: Pick<Config, "index" | "team">, project: string, root: string | undefined, session: string): Proposal | undefined {
  if (!config.team.propose || root === undefined) return undefined;
  const previous = previousSession(db, project, session);
  if (previous === undefined) return undefined;
  const rows = new EventStore(db).list(project, { session: previous, kinds: PROPOSED_KINDS, sources: ["explicit", "tag", "keyword"], limit: CANDIDATES }).rows;
  if (rows.length === 0) return undefined;
  const candidates = rows.map((r) => ({ memId: r.id, shown: oneId(eventChunkId(project, r.id)), kind: r.type })).reverse();
  let place: ReturnType<typeof teamPlace>;
  try {
    place = teamPlace(root, config);
  } catch {
    return undefined; // no team folder mem may write: nothing to propose
  }
  const indexed = sourcesUnder(db, project, place.dir);
  const shared = new Set(indexed.flatMap((s) => (s.memId ? [s.memId] : [])));
  const { ids: forgotten } = readTombstones(place.dir);
  if (proposalOf(candidates, shared, forgotten) === undefined) return undefined;
  // Files written (or changed) since the index last read them: read, for their mem-ids.
  const seen = new Map(indexed.map((s) => [basename(s.path), s.mtimeMs]));
  const unseen = sharedFiles(place.dir, (name, mtimeMs) => seen.get(name) === mtimeMs, MAX_UNSEEN);
  if (unseen.incomplete) return undefined; // a pull the index has not read yet: no proposal rather than a slow start or a wrong one
  for (const id of unseen.byMemId.keys()) shared.add(id);
  return proposalOf(candidates, shared, forgotten);
}
