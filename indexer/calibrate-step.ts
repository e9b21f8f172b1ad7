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
import type { VectorStore } from "../src/store/vectors.js";
import type { VectorReport } from "./embed-step.js";

const SAMPLE = 40;
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
}

/** Whether a stored calibration still stands for a project of `chunks` chunks. */
export function stillCalibrated(stored: { chunks: number; queries: number } | undefined, chunks: number): boolean {
  if (!stored || stored.queries < MIN_QUERIES) return false;
  return Math.abs(chunks - stored.chunks) <= stored.chunks / 5;
}

export async function calibrateStep(o: CalibrateOptions): Promise<Calibration | undefined> {
  const { report: r } = o;
  if (r.status !== "ok" || !r.table || !r.provider || !r.model) return undefined;
  const provider = o.providers.find((p) => p.name === r.provider && p.model === r.model);
  if (!provider) return undefined;
  // Counted first (the project index alone): a calibration that still stands costs no text read.
  const count = o.db.prepare("SELECT count(*) FROM chunks WHERE project = ? AND tier IS NOT 'cold'").pluck().get(o.project) as number;
  const stored = calibrationsOf(o.db, r.table, [o.project])[0];
  if (!o.force && stillCalibrated(stored, count)) return undefined;
  if (count < MIN_QUERIES) return undefined;
  const rows = o.db.prepare("SELECT id, heading, text FROM chunks WHERE project = ? AND tier IS NOT 'cold'").all(o.project) as { id: string; heading: string; text: string }[];
  if (rows.length < MIN_QUERIES) return undefined;
  // Rarity: document frequency over (a spread of) the project's chunks.
  const df = new Map<string, number>();
  const dfRows = rows.length > DF_SAMPLE ? sampleIds(rows.map((x) => x.id), DF_SAMPLE) : undefined;
  const dfSet = dfRows ? new Set(dfRows) : undefined;
  let n = 0;
  for (const row of rows) {
    if (dfSet && !dfSet.has(row.id)) continue;
    n++;
    for (const w of new Set(row.text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])) df.set(w, (df.get(w) ?? 0) + 1);
  }
  const rarity = (w: string) => Math.log(1 + n / ((df.get(w) ?? 0) + 0.5));
  const byId = new Map(rows.map((x) => [x.id, x] as const));
  const queries: PseudoQuery[] = [];
  for (const id of sampleIds([...byId.keys()], SAMPLE)) {
    const text = pseudoQueryText(byId.get(id)!.text, rarity);
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
    const hubs = new Map<string, number>();
    if (len > 0) {
      const unit = mean.map((x) => x / len);
      for (const h of await store.search(r.table, unit, [o.project], rows.length)) hubs.set(h.id, h.similarity * len);
    }
    const vh = [];
    for (const v of vecs) vh.push(centred((await store.search(r.table, v, [o.project], 5 * limit)).map((h) => ({ id: h.id, score: h.similarity })), hubs).slice(0, limit));
    const c = calibrate(scoreLeg(queries, bm), scoreLeg(queries, vh), queries.length, rows.length);
    saveCalibration(o.db, cleanText(r.table), o.project, c, o.now());
    saveHubs(o.db, cleanText(r.table), o.project, hubs);
    return c;
  } catch (err) {
    o.warn(`could not calibrate the vector leg (${(err as Error).message}); fusion keeps its prior weight`);
    return undefined;
  }
}
