/**
 * Both sources of a memory: a team record that a local memory is (src/team/view.ts), and
 * that local memory. The record carries the local memories it stands for (`alsoLocal`), the
 * local memory the record it is (`team`). Reading only.
 */
import { convergedLocals, localsOfRecord, teamOfLocals } from "../team/view.js";
import { eventChunkId } from "../store/chunk-ids.js";
import type { Db } from "../store/db.js";
import { oneId } from "../store/one-id.js";
import { recordsOfChunks } from "../store/records.js";
import type { Memory } from "./types.js";

const localId = (project: string, id: string) => oneId(eventChunkId(project, id));

/** A memory with its other source, when it has one; a markdown chunk of a record with its record. */
export function withSources(db: Db, m: Memory): Memory {
  if (m.source === "markdown") {
    const r = recordsOfChunks(db, [m.id]).get(m.id);
    if (!r) return m;
    const locals = r.record.team ? localsOfRecord(db, m.project, r.first) : [];
    return { ...m, record: r.record, ...(locals.length > 0 ? { alsoLocal: locals.map((id) => localId(m.project, id)) } : {}) };
  }
  const t = teamOfLocals(db, m.project, [{ id: m.id, kind: m.kind, text: m.text }]).get(m.id);
  return t ? { ...m, team: { id: oneId(t.id), path: t.path, record: t.record } } : m;
}

/** What the list needs: the local memories a team record stands for (listed as the record), and each record's. */
export function listSources(db: Db, project: string): { hidden: string[]; alsoLocal: (recordId: string) => string[] } {
  const pairs = convergedLocals(db, project);
  const byRecord = new Map<string, string[]>();
  for (const [local, t] of pairs) byRecord.set(t.id, [...(byRecord.get(t.id) ?? []), localId(project, local)]);
  return { hidden: [...pairs.keys()], alsoLocal: (id) => byRecord.get(id) ?? [] };
}
