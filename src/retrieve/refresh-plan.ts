import type { VectorStore } from "../store/vectors.js";
import { breathe, SLICE } from "../util/breathe.js";

/** What an in-memory copy keeps and reads again when it is brought to the table's new version. */
export interface RefreshPlan {
  /** Rows of the old copy still in the table, unchanged: copied across. */
  keep: number[];
  /** Ids to read from LanceDB: added since, or recorded again (`reread`). */
  added: string[];
}

/**
 * The table's ids now against the copy's rows (`rowOf`): each id once, in the table's order. An id
 * in `reread` is read again even when the copy holds it (an edited memory keeps its chunk id).
 * Undefined when more was added than `most`: a full load costs about as much. Done in slices,
 * between which the daemon answers prompts. Shared by the float copy (memory-index.ts) and the
 * codes (code-index.ts).
 */
export async function refreshPlan(store: VectorStore, table: string, rowOf: ReadonlyMap<string, number>, reread: ReadonlySet<string>, most: number): Promise<RefreshPlan | undefined> {
  const now = await store.ids(table);
  const keep: number[] = [];
  const added: string[] = [];
  const seen = new Set<string>();
  for (let k = 0; k < now.length; k++) {
    if (k % SLICE === SLICE - 1) await breathe();
    const id = now[k]!;
    if (seen.has(id)) continue;
    seen.add(id);
    const i = reread.has(id) ? undefined : rowOf.get(id);
    if (i === undefined) added.push(id);
    else keep.push(i);
  }
  return added.length > most ? undefined : { keep, added };
}
