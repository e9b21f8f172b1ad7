import type { RecordBatch } from "apache-arrow";

/** One stretch of a batch's vectors: `rows` rows of `dims` values each, one after another in `values` from `start`. */
export interface VectorRun {
  values: Float32Array;
  start: number;
  rows: number;
}

/**
 * The vectors of a batch of (…, vector) as LanceDB gives them, a fixed-size list column that may be
 * made of several pieces (Arrow data), each a slice of its child's values: the runs in row order.
 */
export function* vectorRuns(batch: RecordBatch, dims: number): Generator<VectorRun> {
  for (const data of batch.getChild("vector")!.data) {
    const child = data.children[0]!;
    yield { values: child.values as Float32Array, start: child.offset + data.offset * dims, rows: data.length };
  }
}
