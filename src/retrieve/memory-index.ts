import type { VectorHit, VectorStore } from "../store/vectors.js";
import { scoreMatrix, type ScoreMatrix } from "./dot-scores.js";

/**
 * An in-memory copy of one vector table for the warm daemon: a flat Float32Array searched by
 * brute-force dot product (vectors are unit length, so that is cosine similarity), with the
 * WebAssembly SIMD kernel of dot-scores.ts: about 1 ms at 10k × 384, against LanceDB's 15 to 28 ms
 * on a flat table.
 */
export class MemoryIndex {
  private constructor(
    readonly table: string,
    private readonly ids: string[],
    /** Each row's project, as an index into `projectNames`. */
    private readonly projectOf: Uint32Array,
    private readonly projectNames: string[],
    private readonly matrix: ScoreMatrix,
    /** The table's version (VecState.version) when this copy was taken. */
    readonly version: string,
  ) {}

  get size(): number {
    return this.ids.length;
  }

  get kernel(): string {
    return this.matrix.kernel;
  }

  static async load(store: VectorStore, table: string, dims: number, version: string, prefer?: "js"): Promise<MemoryIndex> {
    const arrow = await (await store.table(table)).query().select(["id", "project", "vector"]).toArrow();
    const n = arrow.numRows;
    const ids: string[] = new Array(n);
    const projectOf = new Uint32Array(n);
    const names = new Map<string, number>();
    const matrix = scoreMatrix(n, dims, prefer);
    let row = 0;
    for (const batch of arrow.batches) {
      const base = row;
      for (const data of batch.getChild("vector")!.data) {
        const child = data.children[0]!;
        const start = child.offset + data.offset * dims;
        matrix.data.set((child.values as Float32Array).subarray(start, start + data.length * dims), row * dims);
        row += data.length;
      }
      const id = batch.getChild("id")!;
      const project = batch.getChild("project")!;
      for (let i = 0; i < batch.numRows; i++) {
        ids[base + i] = String(id.get(i));
        const p = String(project.get(i));
        let k = names.get(p);
        if (k === undefined) names.set(p, (k = names.size));
        projectOf[base + i] = k;
      }
    }
    return new MemoryIndex(table, ids, projectOf, [...names.keys()], matrix, version);
  }

  /** Top `limit` rows of `projects` (all when undefined) by dot product with `q`. */
  search(q: Float32Array, projects: string[] | undefined, limit: number): VectorHit[] {
    const allowed = projects ? new Set(projects) : undefined;
    const ok = this.projectNames.map((p) => !allowed || allowed.has(p));
    if (!ok.some(Boolean) || limit <= 0) return [];
    const scores = this.matrix.scores(q);
    const n = this.ids.length;
    // the best `limit` so far, best first; a row enters only when it beats the current last
    const topS = new Float64Array(limit).fill(Number.NEGATIVE_INFINITY);
    const topI = new Int32Array(limit).fill(-1);
    for (let i = 0; i < n; i++) {
      const s = scores[i]!;
      if (s <= topS[limit - 1]! || !ok[this.projectOf[i]!]) continue;
      let k = limit - 1;
      while (k > 0 && topS[k - 1]! < s) {
        topS[k] = topS[k - 1]!;
        topI[k] = topI[k - 1]!;
        k--;
      }
      topS[k] = s;
      topI[k] = i;
    }
    const hits: VectorHit[] = [];
    for (let k = 0; k < limit && topI[k]! >= 0; k++) hits.push({ id: this.ids[topI[k]!]!, similarity: topS[k]! });
    return hits;
  }
}
