import type { TableChange } from "../store/vec-state.js";
import { breathe, SLICE } from "../util/breathe.js";

/** What an in-memory copy keeps and reads again when it is brought to the table's new version. */
export interface RefreshPlan {
  /** Rows of the old copy still in the table, unchanged: copied across. */
  keep: number[];
  /** Ids to read from LanceDB: added since, or recorded again. */
  added: string[];
}

/** The most rows a refresh reads or drops before a full read is as cheap: a fifth of the copy, at least 1,000. */
export function refreshLimit(rows: number): number {
  return Math.max(1_000, Math.floor(rows / 5));
}

/**
 * The copy's rows (`ids`, in row order; `rowOf`: each id's row, the last should an id be held
 * twice) against what changed since its version (SQLite's journal, VecState.changedSince): rows
 * removed or recorded again are dropped, those recorded are read. Nothing is read from LanceDB
 * to find what left. Undefined when more changed than `most`: a full load costs about as much.
 * Done in slices, between which the daemon answers prompts. For the float copy (memory-index.ts);
 * the codes change in place (code-rows.ts).
 */
export async function refreshPlan(ids: readonly string[], rowOf: ReadonlyMap<string, number>, change: TableChange, most: number): Promise<RefreshPlan | undefined> {
  if (change.gone.size + change.recorded.size > most) return undefined;
  const keep: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    if (i % SLICE === SLICE - 1) await breathe();
    const id = ids[i]!;
    if (rowOf.get(id) === i && !change.gone.has(id) && !change.recorded.has(id)) keep.push(i);
  }
  return { keep, added: [...change.recorded] };
}
