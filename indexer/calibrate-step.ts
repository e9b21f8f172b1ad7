/**
 * After the vector step: calibrates the active vector table's leg for the project (how far fusion
 * may trust it: src/retrieve/calibration.ts), when it has never been calibrated there or the
 * project grew or shrank by a fifth since. Pseudo-queries made from the project's own chunks are
 * asked of both legs; the answer is stored per table and project. Never fails the run: a leg that
 * cannot be asked is left uncalibrated, with a warning.
 */
import type { EmbeddingProvider } from "../src/embed/provider.js";
import { bm25Leg } from "../src/retrieve/bm25.js";
import { calibrate, MIN_QUERIES, pseudoQueryText, sampleIds, scoreLeg, type Calibration, type PseudoQuery } from "../src/retrieve/calibration.js";
import { cleanText, type Clean } from "../src/redact/clean.cjs";
import type { Db } from "../src/store/db.js";
import { calibrationsOf, saveCalibration, saveHubs } from "../src/store/fusion-calibration.js";
import { centred, meanVector } from "../src/retrieve/fusion.js";
import { nearestInOnePass } from "../src/retrieve/one-pass.js";
import type { VectorStore } from "../src/store/vectors.js";
import type { VectorReport } from "./embed-step.js";

/** Chunks made into pseudo-queries: 100 (`npm run bench:calibration`: on adr-2 with a good leg the weight's spread between samples 0.072 at 40, 0.019 at 100, 0.016 at 200). */
const SAMPLE = 100;
const DF_SAMPLE = 2000;

export interface CalibrateOptions {
  db: Db;
  project: Clean<string>;
  providers: EmbeddingProvider[];
  vectors: () => Promise<VectorStore>;
  report: VectorReport;
  now: () => number;
  warn: (m: string) => void;
  /** Calibrate even when the stored calibration is recent enough. */
  force?: boolean;
  /** How many chunks to make pseudo-queries of (`SAMPLE`), and where the sample starts (`sampleIds`): benches draw several. */
  sample?: { size: number; offset: number };
}

/** Whether a stored calibration still stands for a project of `chunks` chunks. */
export function stillCalibrated(stored: { chunks: number; queries: number } | undefined, chunks: number): boolean {
  if (!stored || stored.queries < MIN_QUERIES) return false;
  return Math.abs(chunks - stored.chunks) <= stored.chunks / 5;
}

/** The sample of the calibrations stored before it was recorded. */
const OLD_SAMPLE = 40;

/**
 * Whether a stored calibration was made from a sample as large as today's would be: every chunk
 * it was made from (`chunks`, not the cold tier), or `sample` of them. One made from 40, before,
 * is made again once.
 */
export function sampleStands(stored: { chunks: number; sampled?: number }, sample = SAMPLE): boolean {
  return (stored.sampled ?? OLD_SAMPLE) >= Math.min(sample, stored.chunks);
}

export async function calibrateStep(o: CalibrateOptions): Promise<Calibration | undefined> {
  const { report: r } = o;
  if (r.status !== "ok" || !r.table || !r.provider || !r.model) return undefined;
  const provider = o.providers.find((p) => p.name === r.provider && p.model === r.model);
  if (!provider) return undefined;
  // Whether it still stands, from the project's chunk count the triggers keep (all tiers): a check
  // that costs one lookup whatever the project's size. A calibration stored before it recorded
  // that count is checked against a count of the chunks it was made from.
  const total = (o.db.prepare("SELECT n FROM chunk_counts WHERE project = ?").pluck().get(o.project) as number | undefined) ?? 0;
  const stored = calibrationsOf(o.db, r.table, [o.project])[0];
  const now = stored?.total !== undefined ? total : (o.db.prepare("SELECT count(*) FROM chunks WHERE project = ? AND tier IS NOT 'cold'").pluck().get(o.project) as number);
  if (!o.force && stored && sampleStands(stored) && stillCalibrated(stored.total !== undefined ? { chunks: stored.total, queries: stored.queries } : stored, now)) return undefined;
  if (total < MIN_QUERIES) return undefined;
  // Ids first; texts only of the chunks sampled (a large project's texts are never all read at once).
  const ids = o.db.prepare("SELECT id FROM chunks WHERE project = ? AND tier IS NOT 'cold'").pluck().all(o.project) as string[];
  if (ids.length < MIN_QUERIES) return undefined;
  const dfIds = ids.length > DF_SAMPLE ? sampleIds(ids, DF_SAMPLE) : ids;
  const queryIds = sampleIds(ids, o.sample?.size ?? SAMPLE, o.sample?.offset);
  const textOf = new Map<string, string>();
  const read = o.db.prepare("SELECT c.id, c.text FROM json_each(?) j CROSS JOIN chunks c ON c.id = j.value");
  for (const r of read.all(JSON.stringify([...new Set([...dfIds, ...queryIds])])) as { id: string; text: string }[]) textOf.set(r.id, r.text);
  // Rarity: document frequency over (a spread of) the project's chunks.
  const df = new Map<string, number>();
  let n = 0;
  for (const id of dfIds) {
    const text = textOf.get(id);
    if (text === undefined) continue;
    n++;
    for (const w of new Set(text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])) df.set(w, (df.get(w) ?? 0) + 1);
  }
  const rarity = (w: string) => Math.log(1 + n / ((df.get(w) ?? 0) + 0.5));
  const queries: PseudoQuery[] = [];
  for (const id of queryIds) {
    const text = pseudoQueryText(textOf.get(id) ?? "", rarity);
    if (text) queries.push({ source: id, text });
  }
  if (queries.length < MIN_QUERIES) return undefined;
  try {
    const limit = 10;
    const bm = queries.map((q) => bm25Leg(o.db, q.text, { projects: [o.project] }, limit));
    const vecs = await provider.embed(queries.map((q) => q.text), "query");
    const store = await o.vectors();
    // The direction the project's texts share: its cosine with every chunk, scaled by how long the
    // mean is (how much of each text it is), is each chunk's hub share (see centred()).
    const mean = meanVector(vecs);
    const len = Math.hypot(...mean);
    // The queries and the mean in one read of the project's rows (a flat search each would read them once per pseudo-query).
    const pass = await nearestInOnePass(store.batches(r.table, [o.project]), vecs, 5 * limit, len > 0 ? mean : undefined);
    const hubs = new Map<string, number>();
    const probed = pass.probe.length > ids.length ? pass.probe.sort((a, b) => b.similarity - a.similarity).slice(0, ids.length) : pass.probe;
    for (const h of probed) hubs.set(h.id, h.similarity * len);
    const vh = pass.top.map((hits) => centred(hits.map((h) => ({ id: h.id, score: h.similarity })), hubs).slice(0, limit));
    const c = calibrate(scoreLeg(queries, bm), scoreLeg(queries, vh), queries.length, ids.length);
    saveCalibration(o.db, cleanText(r.table), o.project, { ...c, total, sampled: queryIds.length }, o.now());
    saveHubs(o.db, cleanText(r.table), o.project, hubs);
    return c;
  } catch (err) {
    o.warn(`could not calibrate the vector leg (${(err as Error).message}); fusion keeps its prior weight`);
    return undefined;
  }
}
