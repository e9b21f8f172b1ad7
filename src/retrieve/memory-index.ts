import type { TableChange } from "../store/vec-state.js";
import type { VectorHit, VectorStore } from "../store/vectors.js";
import type { ScoreMatrix } from "./dot-scores.js";
import { refreshLimit, refreshPlan } from "./refresh-plan.js";
import { Rows } from "./memory-rows.js";
import { ScanPool, type ScanPoolOptions } from "./scan-pool.js";

/**
 * An in-memory copy of one vector table for the warm daemon: a flat Float32Array searched by
 * brute-force dot product (vectors are unit length, so that is cosine similarity), with the
 * WebAssembly SIMD kernel of dot-scores.ts: about 1 ms at 10k × 384, against LanceDB's 15 to 28 ms
 * on a flat table. A large copy is scanned by two threads (`useWorker`, scan-pool.ts): `find`.
 */
export class MemoryIndex {
  private pool: ScanPool | undefined;

  private constructor(
    readonly table: string,
    private readonly ids: string[],
    /** Each row's project, as an index into `projectNames`. */
    private readonly projectOf: Uint32Array,
    private readonly projectNames: string[],
    private readonly matrix: ScoreMatrix,
    /** The table's version (VecState.version) when this copy was taken. */
    readonly version: string,
    /** Rows read from LanceDB to make this copy: all of them, or those added since the copy it was refreshed from. */
    readonly rowsRead: number,
    /** Each id's row (the last, should LanceDB hold an id twice). */
    private readonly rowOf: ReadonlyMap<string, number>,
  ) {}

  get dims(): number {
    return this.matrix.dims;
  }

  get size(): number {
    return this.ids.length;
  }

  /** Bytes of the float32 vectors held (ids and their lookup aside). */
  get bytes(): number {
    return this.size * this.dims * 4;
  }

  get kernel(): string {
    return this.matrix.kernel;
  }

  /** "worker" when a worker thread shares the scans (`useWorker`), else "inline". */
  get scan(): "worker" | "inline" {
    return this.pool?.mode ?? "inline";
  }

  /** Scans shared with the worker, their blocks, how many of those the caller's thread scored, and of those how many it took over from the worker. */
  get scanCounts(): ScanPool["counts"] | undefined {
    return this.pool ? { ...this.pool.counts } : undefined;
  }

  /**
   * From now on `find` scans with a worker thread too (the same memory, no copy); `close` ends it.
   * Resolves once the worker is ready (or dropped); scans need not wait for it.
   */
  useWorker(opts: Omit<ScanPoolOptions, "name">): Promise<void> {
    this.pool ??= new ScanPool(this.matrix, { ...opts, name: this.table });
    return this.pool.ready;
  }

  /** Ends the worker, if any, once the scans under way are done; `find` then scans inline. */
  async close(): Promise<void> {
    await this.pool?.close();
  }

  static async load(store: VectorStore, table: string, dims: number, version: string, prefer?: "js"): Promise<MemoryIndex> {
    const arrow = await (await store.table(table)).query().select(["id", "project", "vector"]).toArrow();
    const rows = new Rows(arrow.numRows, dims, prefer);
    rows.append(arrow);
    return MemoryIndex.from(table, rows, version, arrow.numRows);
  }

  /**
   * This copy brought to `version` without reading it all again: rows removed or recorded again
   * since (`change`: SQLite's journal, VecState.changedSince) are dropped, rows held are copied
   * from this copy's memory, and only the rows recorded since are read from LanceDB (an id can come
   * back with a new vector: an edited memory keeps its chunk id). Undefined when so much changed
   * that a full `load` costs about as much. The work is done in slices, between which the daemon
   * answers prompts.
   */
  async refresh(store: VectorStore, version: string, change: TableChange): Promise<MemoryIndex | undefined> {
    const plan = await refreshPlan(this.ids, this.rowOf, change, refreshLimit(this.size));
    if (!plan) return undefined;
    const { keep, added } = plan;
    const fetched = await store.rowsById(this.table, added);
    const rows = new Rows(keep.length + fetched.reduce((n, t) => n + t.numRows, 0), this.matrix.dims, this.kernel === "js" ? "js" : undefined);
    await rows.copyFrom({ ids: this.ids, projectOf: this.projectOf, projectNames: this.projectNames, matrix: this.matrix }, keep);
    for (const t of fetched) rows.append(t);
    return MemoryIndex.from(this.table, rows, version, rows.filled - keep.length);
  }

  private static from(table: string, rows: Rows, version: string, read: number): MemoryIndex {
    return new MemoryIndex(table, rows.ids, rows.projectOf, [...rows.names.keys()], rows.matrix, version, read, rows.rowOf);
  }

  /** Top `limit` rows of `projects` (all when undefined) by dot product with `q`, scanned on this thread. */
  search(q: Float32Array, projects: string[] | undefined, limit: number): VectorHit[] {
    const ok = this.allowed(projects);
    if (!ok || limit <= 0) return [];
    return this.top(this.matrix.scores(q), ok, limit);
  }

  /**
   * The same hits as `search`, scanned with the worker when there is one: its part of the scan runs
   * while this thread does other work (the search's BM25 leg).
   */
  async find(q: Float32Array, projects: string[] | undefined, limit: number): Promise<VectorHit[]> {
    const ok = this.allowed(projects);
    if (!ok || limit <= 0) return [];
    if (!this.pool) return this.top(this.matrix.scores(q), ok, limit);
    return this.pool.run(q, (scores) => this.top(scores, ok, limit));
  }

  /** Which projects (by index into `projectNames`) are searched; undefined when none is. */
  private allowed(projects: string[] | undefined): boolean[] | undefined {
    const allowed = projects ? new Set(projects) : undefined;
    const ok = this.projectNames.map((p) => !allowed || allowed.has(p));
    return ok.some(Boolean) ? ok : undefined;
  }

  /** The best `limit` allowed rows, best first; equal scores in row order. */
  private top(scores: Float32Array, ok: boolean[], limit: number): VectorHit[] {
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
