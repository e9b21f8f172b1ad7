/**
 * The parts of an in-memory vector copy (./memory-index.ts) as they are filled: rows read from
 * LanceDB as Arrow, or copied from an older copy. A large copy is filled in slices, between which
 * the daemon's event loop runs (a prompt's answer does not wait for a refresh).
 */
import type { Table as ArrowTable } from "apache-arrow";
import { breathe, SLICE } from "../util/breathe.js";
import { scoreMatrix, type ScoreMatrix } from "./dot-scores.js";
import { vectorRuns } from "./vector-runs.js";

/** What rows are copied from: another copy's parts. */
export interface RowSource {
  ids: readonly string[];
  projectOf: Uint32Array;
  projectNames: readonly string[];
  matrix: ScoreMatrix;
}

export class Rows {
  readonly ids: string[] = [];
  readonly projectOf: Uint32Array;
  readonly names = new Map<string, number>();
  readonly rowOf = new Map<string, number>();
  readonly matrix: ScoreMatrix;
  filled = 0;

  constructor(n: number, dims: number, prefer?: "js") {
    this.projectOf = new Uint32Array(n);
    this.matrix = scoreMatrix(n, dims, prefer);
  }

  private project(p: string): number {
    let k = this.names.get(p);
    if (k === undefined) this.names.set(p, (k = this.names.size));
    return k;
  }

  private put(row: number, id: string, project: string): void {
    this.ids[row] = id;
    this.rowOf.set(id, row);
    this.projectOf[row] = this.project(project);
  }

  /** Every row of an Arrow table of (id, project, vector). */
  append(arrow: ArrowTable): void {
    const dims = this.matrix.dims;
    for (const batch of arrow.batches) {
      const base = this.filled;
      let row = base;
      for (const run of vectorRuns(batch, dims)) {
        this.matrix.data.set(run.values.subarray(run.start, run.start + run.rows * dims), row * dims);
        row += run.rows;
      }
      const id = batch.getChild("id")!;
      const project = batch.getChild("project")!;
      for (let i = 0; i < batch.numRows; i++) this.put(base + i, String(id.get(i)), String(project.get(i)));
      this.filled = base + batch.numRows;
    }
  }

  /** Rows `which` of another copy, in that order: their vectors copied in runs, a slice at a time. */
  async copyFrom(from: RowSource, which: readonly number[]): Promise<void> {
    const dims = this.matrix.dims;
    // About 8 MiB of vectors a slice (the first touch of new memory costs more than the copy).
    const slice = Math.max(256, Math.min(SLICE, Math.floor((8 * 2 ** 20) / (dims * 4))));
    for (let s = 0; s < which.length; s += slice) {
      if (s > 0) await breathe();
      const stop = Math.min(which.length, s + slice);
      for (let k = s; k < stop; ) {
        let end = k + 1;
        while (end < stop && which[end] === which[end - 1]! + 1) end++;
        const first = which[k]!;
        this.matrix.data.set(from.matrix.data.subarray(first * dims, (first + end - k) * dims), (this.filled + k) * dims);
        k = end;
      }
      for (let k = s; k < stop; k++) {
        const i = which[k]!;
        this.put(this.filled + k, from.ids[i]!, from.projectNames[from.projectOf[i]!]!);
      }
    }
    this.filled += which.length;
  }
}
