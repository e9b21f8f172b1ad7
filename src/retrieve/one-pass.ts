/**
 * Many vector queries answered in one read of the rows: each query's nearest rows by cosine (what
 * a flat LanceDB search gives: similarity = 1 - cosine distance), and every row's similarity with
 * a probe. A flat LanceDB search reads every row of the table for each query; calibrating a vector
 * leg asks 41 (indexer/calibrate-step.ts), so at 100k rows a read each cost seconds a run. Here the
 * rows are read once, a batch at a time (never all in memory), and scored with the daemon's dot
 * kernel (./dot-scores.ts).
 */
import type { RecordBatch } from "apache-arrow";
import { normalize } from "../embed/provider.js";
import type { VectorHit } from "../store/vectors.js";
import { scoreMatrix, type ScoreMatrix } from "./dot-scores.js";
import { vectorRuns } from "./vector-runs.js";

export interface OnePass {
  /** Per query, its `k` nearest rows, best first (ties by id). */
  top: VectorHit[][];
  /** Every row's similarity with the probe, in the order read (empty without a probe). */
  probe: VectorHit[];
}

const unit = (v: Float32Array): Float32Array => normalize(Float32Array.from(v));

const best = (a: VectorHit, b: VectorHit) => b.similarity - a.similarity || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Reads `batches` of (id, vector) once; returns each query's `k` nearest and the probe's similarity with every row. */
export async function nearestInOnePass(batches: AsyncIterable<RecordBatch>, queries: readonly Float32Array[], k: number, probe?: Float32Array): Promise<OnePass> {
  const dims = (queries[0] ?? probe)?.length ?? 0;
  const qs = queries.map(unit);
  const p = probe ? unit(probe) : undefined;
  const top: VectorHit[][] = queries.map(() => []);
  const probed: VectorHit[] = [];
  let matrix: ScoreMatrix | undefined;
  const norms: number[] = [];
  for await (const batch of batches) {
    const rows = batch.numRows;
    if (rows === 0 || dims === 0) continue;
    if (!matrix || matrix.rows < rows) matrix = scoreMatrix(Math.max(rows, 1024), dims);
    let row = 0;
    for (const run of vectorRuns(batch, dims)) {
      matrix.data.set(run.values.subarray(run.start, run.start + run.rows * dims), row * dims);
      row += run.rows;
    }
    const col = batch.getChild("id")!;
    const ids: string[] = new Array(rows);
    for (let r = 0; r < rows; r++) {
      ids[r] = String(col.get(r));
      let n = 0;
      for (let i = r * dims, end = i + dims; i < end; i++) n += matrix.data[i]! * matrix.data[i]!;
      norms[r] = Math.sqrt(n);
    }
    const score = (q: Float32Array, each: (id: string, similarity: number) => void) => {
      matrix!.setQuery(q);
      matrix!.scoreRows(0, rows);
      const out = matrix!.out;
      for (let r = 0; r < rows; r++) each(ids[r]!, norms[r]! === 0 ? 0 : out[r]! / norms[r]!);
    };
    qs.forEach((q, j) => {
      const kept = top[j]!;
      const floor = kept.length >= k ? kept[k - 1]!.similarity : Number.NEGATIVE_INFINITY;
      score(q, (id, similarity) => {
        if (similarity >= floor) kept.push({ id, similarity });
      });
      kept.sort(best);
      kept.length = Math.min(kept.length, k);
    });
    if (p) score(p, (id, similarity) => probed.push({ id, similarity }));
  }
  return { top, probe: probed };
}
