/**
 * Which projects the daemon's background vector step visits, found from the store itself rather
 * than from who wrote it: a chunk may come from the daemon's own capture, a hook that wrote SQLite
 * itself (the daemon busy or absent), a Stop that chunked its transcript at once, `mem remember`,
 * MCP remember, a spool replayed, an import. Two cheap signs, read every tick:
 *
 * - a project whose chunk count differs from its vector count in the active table (both kept by
 *   triggers: chunk_counts, vec_counts); a gap that an "ok" step leaves as it was is not visited
 *   again until the counts change, and a skipped step is retried after `RETRY_MS`;
 * - a chunk added since the last look (rowid above the last seen) that the table lacks.
 *
 * At start (the first look) every project with a chunk the table lacks, whether or not the table
 * exists yet: chunks written while no daemon ran. That look reads every chunk (10 s of the
 * daemon's thread at a million chunks, once, in one query): it is read a slice of rowids at a
 * time, the event loop running between slices, so a prompt meanwhile is answered, not kept
 * waiting.
 */
import type { Clean } from "../redact/clean.cjs";
import type { Db } from "../store/db.js";
import { addedWithoutVector, countGaps, countsOf, missingBetween, topChunkRowid } from "../store/vec-gaps.js";
import { breathe } from "../util/breathe.js";

/** A skipped vector step (no provider, a failure) is tried again this long after, counts unchanged. */
export const RETRY_MS = 60_000;

/** The daemon's last visit of a project: its counts then (`sig`), when, and whether the step ran. */
export interface Visit {
  sig: string;
  at: number;
  ok: boolean;
}

/** Whether a project whose counts read `sig` now is due a visit. Pure. */
export function dueForVectors(last: Visit | undefined, sig: string, now: number, retryMs = RETRY_MS): boolean {
  if (!last || last.sig !== sig) return true;
  return !last.ok && now - last.at >= retryMs;
}

/** Chunks (by rowid) the first look reads between two turns of the event loop. */
export const FIRST_LOOK_ROWS = 1_024;

export class VectorBacklog {
  /** The highest chunk rowid at the last look (undefined: never looked). */
  private seen: number | undefined;
  private readonly visits = new Map<string, Visit>();

  /** `slice`: chunks (by rowid) the first look reads at a time. */
  constructor(
    private readonly db: Db,
    private readonly slice = FIRST_LOOK_ROWS,
  ) {}

  /** Projects with chunks `table` may lack, now. */
  async due(table: string, now: number): Promise<Clean<string>[]> {
    const top = topChunkRowid(this.db);
    const out = new Set<Clean<string>>();
    if (this.seen === undefined) {
      for (let from = 0; from < top; from += this.slice) {
        for (const p of missingBetween(this.db, table, from, Math.min(top, from + this.slice))) out.add(p);
        if (from + this.slice < top) await breathe();
      }
    } else if (top > this.seen) for (const p of addedWithoutVector(this.db, table, this.seen)) out.add(p);
    this.seen = top;
    for (const [project, sig] of countGaps(this.db, table)) if (dueForVectors(this.visits.get(`${table}\0${project}`), sig, now)) out.add(project);
    return [...out].sort();
  }

  /** Records a visit of `project` for `table`: its counts after the step, and whether the step ran. */
  visited(table: string, project: string, ok: boolean, now: number): void {
    this.visits.set(`${table}\0${project}`, { sig: countsOf(this.db, table, project), at: now, ok });
  }
}
