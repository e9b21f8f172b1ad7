import type { VectorHit, VectorStore } from "../store/vectors.js";

/**
 * An in-memory copy of one vector table for the warm daemon: a flat Float32Array searched by
 * brute-force dot product (vectors are unit length, so that is cosine similarity). At 10k × 384
 * this is a few milliseconds, well under LanceDB's per-query overhead on a flat table.
 */
export class MemoryIndex {
  private constructor(
    readonly table: string,
    readonly dims: number,
    private readonly ids: string[],
    private readonly projects: string[],
    private readonly matrix: Float32Array,
    /** How many rows SQLite recorded for the table when this copy was taken. */
    readonly version: number,
  ) {}

  get size(): number {
    return this.ids.length;
  }

  static async load(store: VectorStore, table: string, dims: number, version: number): Promise<MemoryIndex> {
    const arrow = await (await store.table(table)).query().select(["id", "project", "vector"]).toArrow();
    const n = arrow.numRows;
    const ids: string[] = new Array(n);
    const projects: string[] = new Array(n);
    const matrix = new Float32Array(n * dims);
    let row = 0;
    for (const batch of arrow.batches) {
      const base = row;
      for (const data of batch.getChild("vector")!.data) {
        const child = data.children[0]!;
        const start = child.offset + data.offset * dims;
        matrix.set((child.values as Float32Array).subarray(start, start + data.length * dims), row * dims);
        row += data.length;
      }
      const id = batch.getChild("id")!;
      const project = batch.getChild("project")!;
      for (let i = 0; i < batch.numRows; i++) {
        ids[base + i] = String(id.get(i));
        projects[base + i] = String(project.get(i));
      }
    }
    return new MemoryIndex(table, dims, ids, projects, matrix, version);
  }

  /** Top `limit` rows of `projects` (all when undefined) by dot product with `q`. */
  search(q: Float32Array, projects: string[] | undefined, limit: number): VectorHit[] {
    const allow = projects ? new Set(projects) : undefined;
    const d = this.dims;
    const m = this.matrix;
    const n = this.ids.length;
    // the best `limit` so far, best first; a row enters only when it beats the current last
    const topS = new Float64Array(limit).fill(-Infinity);
    const topI = new Int32Array(limit).fill(-1);
    for (let i = 0; i < n; i++) {
      if (allow && !allow.has(this.projects[i]!)) continue;
      // four accumulators: about 1.4x faster than one on V8
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      const o = i * d;
      let j = 0;
      for (; j + 3 < d; j += 4) {
        s0 += m[o + j]! * q[j]!;
        s1 += m[o + j + 1]! * q[j + 1]!;
        s2 += m[o + j + 2]! * q[j + 2]!;
        s3 += m[o + j + 3]! * q[j + 3]!;
      }
      for (; j < d; j++) s0 += m[o + j]! * q[j]!;
      const s = s0 + s1 + s2 + s3;
      if (s <= topS[limit - 1]!) continue;
      let k = limit - 1;
      while (k > 0 && topS[k - 1]! < s) {
        topS[k] = topS[k - 1]!;
        topI[k] = topI[k - 1]!;
        k--;
      }
      topS[k] = s;
      topI[k] = i;
    }
    const top: { i: number; s: number }[] = [];
    for (let k = 0; k < limit && topI[k]! >= 0; k++) top.push({ i: topI[k]!, s: topS[k]! });
    return top.map((t) => ({ id: this.ids[t.i]!, similarity: t.s }));
  }
}
