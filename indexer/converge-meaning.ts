/**
 * After the vector step: memories that say the same thing in other words become one
 * (src/memory/same-meaning.ts). For each memory embedded since the last pass (a decision, rejected
 * approach, lesson, preference or note captured or remembered in the project), its nearest
 * neighbours in the vector table; one of the same kind and files, closer than the threshold
 * calibrated on this store's random pairs and passing the value checks, is merged with it as a
 * restatement is (src/capture/merge-same.ts): the oldest stays, with both sources. Where no model
 * runs there is no vector step, and nothing here runs: BM25 alone converges exact restatements only.
 */
import { eventChunkId } from "./captured.js";
import { mergeRecord } from "../src/memory/merged.js";
import { MERGE_KINDS } from "../src/memory/same-memory.js";
import { mayBeOne, meaningThreshold } from "../src/memory/same-meaning.js";
import { clean, cleanText, type Clean } from "../src/redact/clean.cjs";
import type { Db } from "../src/store/db.js";
import { memoryById, memoryIdsOfChunks } from "../src/store/memories.js";
import { absorbRows, storedOrder } from "../src/store/merge.js";
import { getMeta, setMeta } from "../src/store/meta.js";
import { reinforce } from "../src/store/salience.js";
import type { VectorStore } from "../src/store/vectors.js";

/** Random pairs of the project's chunks whose similarity says what "not the same" looks like. */
const BACKGROUND_CHUNKS = 120;
/** Neighbours looked at for each new memory. */
const NEIGHBOURS = 5;
/** New memories looked at in one pass (the rest at the next). */
const PER_PASS = 500;

interface Row {
  id: Clean<string>;
  type: string;
  project: string;
  session: string | null;
  time: string;
  text: string;
  files: string[];
  metadata: Record<string, unknown>;
}

function live(db: Db, id: string): Row | undefined {
  const r = memoryById(db, id);
  if (!r || r.deleted_at) return undefined;
  return { id: r.id, project: r.project, type: r.type, session: r.session, time: r.time, text: r.text, files: JSON.parse(r.files) as string[], metadata: JSON.parse(r.metadata) as Record<string, unknown> };
}

/** The vectors of `ids` in `table` (those it holds). */
async function vectorsOf(store: VectorStore, table: string, ids: readonly string[]): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  for (const arrow of await store.rowsById(table, ids)) {
    for (const batch of arrow.batches) {
      const id = batch.getChild("id")!;
      const vec = batch.getChild("vector")!;
      for (let i = 0; i < batch.numRows; i++) out.set(String(id.get(i)), Float32Array.from(vec.get(i)!.toArray() as Float32Array));
    }
  }
  return out;
}

const cosine = (a: Float32Array, b: Float32Array) => {
  let d = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : d / Math.sqrt(na * nb);
};

/** Similarities of pairs of the project's chunks, spread over them (deterministic). */
async function background(db: Db, store: VectorStore, table: string, project: string): Promise<number[]> {
  const ids = db.prepare("SELECT chunk_id FROM vec_rows v JOIN chunks c ON c.id = v.chunk_id WHERE v.table_name = ? AND c.project = ? ORDER BY c.id").pluck().all(table, project) as string[];
  const step = Math.max(1, Math.floor(ids.length / BACKGROUND_CHUNKS));
  const picked = ids.filter((_, i) => i % step === 0).slice(0, BACKGROUND_CHUNKS);
  const vs = [...(await vectorsOf(store, table, picked)).values()];
  const out: number[] = [];
  // Each with the one half the sample away: pairs of unrelated chunks, mostly.
  const half = Math.floor(vs.length / 2);
  for (let i = 0; i < vs.length; i++) out.push(cosine(vs[i]!, vs[(i + half + (i % 7)) % vs.length]!));
  return out.filter((_, i) => (i + half + (i % 7)) % vs.length !== i);
}

export interface MeaningReport {
  threshold?: number;
  merged: number;
}

/** Runs after the vector step filled `table` for `project`. */
export async function convergeByMeaning(o: { db: Db; project: Clean<string>; table: string; vectors: () => Promise<VectorStore>; now: number }): Promise<MeaningReport> {
  const key = cleanText(`meaning-seen:${o.table}:${o.project}`);
  const seen = Number(getMeta(o.db, key) ?? 0);
  const kinds = [...MERGE_KINDS];
  const fresh = o.db
    .prepare(`SELECT c.rowid AS n, c.id FROM chunks c JOIN vec_rows v ON v.chunk_id = c.id AND v.table_name = ? WHERE c.project = ? AND c.rowid > ? AND c.path LIKE 'session:%' AND c.kind IN (${kinds.map(() => "?").join(", ")}) ORDER BY c.rowid LIMIT ${PER_PASS}`)
    .all(o.table, o.project, seen, ...kinds) as { n: number; id: string }[];
  if (fresh.length === 0) return { merged: 0 };
  const store = await o.vectors();
  const threshold = meaningThreshold(await background(o.db, store, o.table, o.project));
  const last = fresh.at(-1)!.n;
  if (threshold === undefined) {
    setMeta(o.db, key, cleanText(String(last)));
    return { merged: 0 };
  }
  const vectors = await vectorsOf(store, o.table, fresh.map((f) => f.id));
  let merged = 0;
  for (const f of fresh) {
    const v = vectors.get(f.id);
    const self = live(o.db, memoryIdsOfChunks(o.db, [f.id]).get(f.id)!);
    if (!v || !self) continue;
    const hits = (await store.search(o.table, v, [o.project], NEIGHBOURS + 1)).filter((h) => h.id !== f.id && h.similarity >= threshold);
    const others = [...memoryIdsOfChunks(o.db, hits.map((h) => h.id)).values()].flatMap((id) => live(o.db, id) ?? []);
    const same = others.filter((r) => r.id !== self.id && r.project === o.project && mayBeOne({ kind: r.type, text: r.text, files: r.files }, { kind: self.type, text: self.text, files: self.files }));
    if (same.length === 0) continue;
    const group = [...same, self].sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : storedOrder(o.db, a.id) - storedOrder(o.db, b.id)));
    const [keep, ...rest] = group as [Row, ...Row[]];
    absorbRows(o.db, keep.id, rest.map((r) => r.id), clean(mergeRecord(keep, rest)), o.now);
    reinforce(o.db, [{ id: eventChunkId(o.project, keep.id), kind: keep.type, source: "captured" as const, createdAt: Date.parse(keep.time) }], o.now);
    merged += rest.length;
  }
  setMeta(o.db, key, cleanText(String(last)));
  return { threshold, merged };
}
