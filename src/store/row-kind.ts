/**
 * What a one id that is no memory's stands for instead: a task's or a prompt run's (both shown by
 * the same kind of 12-hex id, src/store/one-id.ts `rowOneId`), so "no memory X" can say where to
 * look. Run only for an id nothing else matched: a pass over the tasks and the prompt log of the
 * projects in reach, each id worked out again. Read only.
 */
import type { Db } from "./db.js";
import { MIN_ID_CHARS, type RowKind, rowOneId } from "./one-id.js";
import { prepared } from "./statements.js";

export function rowKindOf(db: Db, hex: string, projects?: readonly string[]): RowKind | undefined {
  if (!/^[0-9a-f]+$/.test(hex) || hex.length < MIN_ID_CHARS) return undefined;
  const within = projects === undefined ? "" : " WHERE project IN (SELECT value FROM json_each(?))";
  const scope = projects === undefined ? [] : [JSON.stringify(projects)];
  for (const [kind, table] of [["task", "tasks"], ["prompt", "prompt_runs"]] as const) {
    for (const n of prepared(db, `SELECT id FROM ${table}${within}`).pluck().iterate(...scope) as IterableIterator<number>) {
      if (rowOneId(kind, n).startsWith(hex)) return kind;
    }
  }
  return undefined;
}
