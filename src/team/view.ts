/**
 * The team tier and the local memories it converges with (./team-converge.ts), as the outputs
 * read them: the list, `mem get`, the briefing, the prompt's memories and `mem query` show a
 * local memory that a team record is once, as the record, and say it is local too. Reading
 * only: what is stored never changes.
 */
import { eventChunkId } from "../store/chunk-ids.js";
import type { Db } from "../store/db.js";
import { oneId } from "../store/one-id.js";
import { recordMeta, recordsOfChunks, type RecordMeta } from "../store/records.js";
import { liveEventsOfChunks, localRows, teamRecordRows } from "../store/team-sides.js";
import { MERGE_KINDS } from "../memory/same-memory.js";
import { convergeTeam, recordKeys, statementKey, type LocalSide, type TeamSide } from "../memory/team-converge.js";

/** A team record as the outputs name it. */
export interface TeamRef {
  /** Its first chunk's id. */
  id: string;
  path: string;
  record: RecordMeta;
}

/** Team records read per project, and local memories compared with them. */
const TEAM_READ = 2_000;
const LOCAL_READ = 20_000;

/** Keys of local statements already read (the daemon answers many prompts): bounded. */
const keys = new Map<string, string | undefined>();
function cachedKey(kind: string, text: string): string | undefined {
  const at = `${kind}\0${text}`;
  if (keys.has(at)) return keys.get(at);
  if (keys.size >= 4_000) keys.clear();
  const k = statementKey(kind, text);
  keys.set(at, k);
  return k;
}

/** The keys the indexer stored with a record (indexer/pipeline.ts), else (an index of an older mem) those of its first chunk. */
function storedKeys(metadata: string, kind: string, title: string | undefined, text: string): string[] {
  try {
    const k = (JSON.parse(metadata) as { record?: { keys?: unknown } }).record?.keys;
    if (Array.isArray(k)) return k.filter((x): x is string => typeof x === "string");
  } catch {
    // fall through
  }
  return recordKeys(kind, title, text);
}

function teamOf(db: Db, project: string): { sides: TeamSide[]; refs: Map<string, TeamRef> } {
  const refs = new Map<string, TeamRef>();
  const sides = teamRecordRows(db, project, TEAM_READ).map((r): TeamSide => {
    const record = recordMeta(r);
    refs.set(r.chunk, { id: r.chunk, path: r.path, record });
    return { id: r.chunk, memId: record.memId, keys: storedKeys(r.metadata, r.kind, record.title, r.text) };
  });
  return { sides, refs };
}

const localSide = (project: string, l: { id: string; kind: string; text: string }): LocalSide => ({ ...l, oneId: oneId(eventChunkId(project, l.id)) });

function resolved(pairs: Map<string, string>, refs: Map<string, TeamRef>): Map<string, TeamRef> {
  const out = new Map<string, TeamRef>();
  for (const [local, team] of pairs) out.set(local, refs.get(team)!);
  return out;
}

/** The team record each of these local memories (of `project`) is, by the memory's stored id. */
export function teamOfLocals(db: Db, project: string, locals: readonly { id: string; kind: string; text: string }[]): Map<string, TeamRef> {
  if (locals.length === 0) return new Map();
  const { sides, refs } = teamOf(db, project);
  return resolved(convergeTeam(sides, locals.map((l) => localSide(project, l)), cachedKey), refs);
}

/** Every live local memory of the project that a team record is (local id → the record). */
export function convergedLocals(db: Db, project: string): Map<string, TeamRef> {
  const { sides, refs } = teamOf(db, project);
  if (sides.length === 0) return new Map();
  const named = sides.flatMap((s) => (s.memId ? [s.memId] : []));
  const locals = localRows(db, project, [...MERGE_KINDS], named, LOCAL_READ).map((l) => localSide(project, l));
  return resolved(convergeTeam(sides, locals, cachedKey), refs);
}

/** The local memories (stored ids) a team record of the project is, its record id its first chunk's. */
export function localsOfRecord(db: Db, project: string, recordId: string): string[] {
  return [...convergedLocals(db, project)].filter(([, t]) => t.id === recordId).map(([l]) => l);
}

/** What a search result says of its sources: parts for its line (status, date, authors, tier), and whether a team record shown beside it stands for it. */
export interface ResultSources {
  parts: string[];
  /** A local memory whose team record is among the results: shown once, as the record. */
  hidden?: true;
}

/** A record's parts: its status, date and authors (at most `maxAuthors`), and what it is besides. Pure. */
export function recordNoteParts(r: RecordMeta, maxAuthors: number, alsoLocal: boolean): string[] {
  const by = r.authors.length > 0 ? [`by ${r.authors.slice(0, maxAuthors).join(", ")}${r.authors.length > maxAuthors ? ", …" : ""}`] : [];
  const succ = r.supersededBy && !(r.status ?? "").includes("superseded by") ? [`superseded by ${r.supersededBy}`] : [];
  return [...(r.status ? [r.status] : []), ...succ, ...(r.date ? [r.date.slice(0, 10)] : []), ...by, ...(r.team ? [alsoLocal ? "team, also local" : "team"] : [])];
}

/**
 * What the results of a search (the prompt's memories, `mem query`) say of their sources, by
 * chunk id: a record's status, date and authors; a local memory that a team record is: hidden
 * when that record is among the results (it is shown once, as the record, "also local"), else
 * its record named. Results of no record and no team record are absent.
 */
export function resultSources(db: Db, results: readonly { id: string; path: string; project: string }[], maxAuthors = 2): Map<string, ResultSources> {
  const out = new Map<string, ResultSources>();
  if (results.length === 0) return out;
  const records = recordsOfChunks(db, results.map((r) => r.id));
  const localChunks = results.filter((r) => r.path.startsWith("session:") && !records.has(r.id));
  const events = localChunks.length > 0 ? liveEventsOfChunks(db, localChunks.map((r) => r.id)) : new Map<string, { id: string; kind: string; text: string }>();
  const shownRecords = new Set([...records.values()].map((r) => r.first));
  const alsoLocal = new Set<string>();
  for (const project of new Set(localChunks.map((r) => r.project))) {
    const mine = localChunks.filter((r) => r.project === project && events.has(r.id));
    const teams = teamOfLocals(db, project, mine.map((r) => events.get(r.id)!));
    for (const r of mine) {
      const t = teams.get(events.get(r.id)!.id);
      if (t === undefined) continue;
      if (shownRecords.has(t.id)) {
        out.set(r.id, { parts: [], hidden: true });
        alsoLocal.add(t.id);
      } else out.set(r.id, { parts: [`team record ${t.path.startsWith(`${project}/`) ? t.path.slice(project.length + 1) : t.path}`, ...recordNoteParts(t.record, maxAuthors, false).filter((p) => p !== "team")] });
    }
  }
  for (const [id, r] of records) out.set(id, { parts: recordNoteParts(r.record, maxAuthors, alsoLocal.has(r.first)) });
  return out;
}
