import type { Table as ArrowTable } from "apache-arrow";
import type { VectorHit, VectorStore } from "../store/vectors.js";
import { breathe, SLICE } from "../util/breathe.js";
import { refreshPlan } from "./refresh-plan.js";
import { type CodeKernels, codeKernels } from "./code-kernels.js";
import { bestByScore, codeWords, hammingRows, int8Dot, nearestRows, quantise, quantise16, signBits } from "./sign-codes.js";

const MAX_WASM_BYTES = 2 ** 32 - 2 ** 16;

/**
 * Candidates rescored per search: `limit × factor`, at least `min`, and at least one row in
 * `share` of the copy. Chosen by measurement (bench:scale, docs/benchmarks.md): rows gathered in
 * dense topics (the LoCoMo USE vectors mixed with noise) need a share of the copy, not a fixed count,
 * for their true top 50 to be among the candidates; 2,000 of 300k held 95% of it, 6,000 all but 0.6%.
 */
export const CANDIDATES = { factor: 40, min: 2_000, share: 1 / 50 };

/** How many candidates a search of `rows` rows for `limit` hits rescores. */
export function candidateCount(rows: number, limit: number, c: { factor: number; min: number; share: number } = CANDIDATES): number {
  return Math.max(limit * c.factor, c.min, Math.ceil(rows * c.share));
}

/** Bytes a code copy holds per row of `dims` (sign code, int8 row, its scale, its project), ids aside. */
export function codeBytesPerRow(dims: number): number {
  return codeWords(dims) * 4 + dims + 4 + 4 + 2;
}

/** The parts of a code copy as they are filled: rows read from LanceDB as Arrow, or copied from an older copy. */
class CodeRows {
  readonly ids: string[] = [];
  readonly projectOf: Uint32Array;
  readonly names = new Map<string, number>();
  readonly rowOf = new Map<string, number>();
  readonly codes: Uint32Array;
  readonly q8: Int8Array;
  readonly scales: Float32Array;
  readonly words: number;
  /** The WebAssembly kernels and their memory's layout; undefined: the JS loops. */
  readonly wasm: { k: CodeKernels; memory: WebAssembly.Memory; q: number; q16: number; dist: number; dots: number; rows: number; codes: number; q8: number } | undefined;
  filled = 0;

  constructor(
    readonly capacity: number,
    readonly dims: number,
    prefer?: "js",
  ) {
    this.words = codeWords(dims);
    this.projectOf = new Uint32Array(capacity);
    this.scales = new Float32Array(capacity);
    const up = (b: number) => Math.ceil(b / 16) * 16;
    const n = Math.max(1, capacity);
    // [query code][query int16][distances u16][dot products i32][candidate rows i32][codes][int8 rows]
    const at = { q: 0, q16: up(this.words * 4), dist: 0, dots: 0, rows: 0, codes: 0, q8: 0 };
    at.dist = at.q16 + up(dims * 2);
    at.dots = at.dist + up(n * 2);
    at.rows = at.dots + up(n * 4);
    at.codes = at.rows + up(n * 4);
    at.q8 = at.codes + up(n * this.words * 4);
    const bytes = at.q8 + up(n * dims);
    const fits = prefer !== "js" && dims % 128 === 0 && dims <= 1536 && bytes <= MAX_WASM_BYTES;
    const memory = fits ? new WebAssembly.Memory({ initial: Math.ceil(bytes / 65_536) }) : undefined;
    const k = memory && codeKernels(memory);
    if (memory && k) {
      this.wasm = { k, memory, ...at };
      this.codes = new Uint32Array(memory.buffer, at.codes, capacity * this.words);
      this.q8 = new Int8Array(memory.buffer, at.q8, capacity * dims);
    } else {
      this.wasm = undefined;
      this.codes = new Uint32Array(capacity * this.words);
      this.q8 = new Int8Array(capacity * dims);
    }
  }

  private put(row: number, id: string, project: string): void {
    this.ids[row] = id;
    this.rowOf.set(id, row);
    let k = this.names.get(project);
    if (k === undefined) this.names.set(project, (k = this.names.size));
    this.projectOf[row] = k;
  }

  /** Every row of an Arrow table of (id, project, vector), encoded. */
  async append(arrow: ArrowTable): Promise<void> {
    const { dims, words } = this;
    for (const batch of arrow.batches) {
      let row = this.filled;
      for (const data of batch.getChild("vector")!.data) {
        const child = data.children[0]!;
        const values = child.values as Float32Array;
        for (let r = 0; r < data.length; r++, row++) {
          if (row % SLICE === SLICE - 1) await breathe(); // the daemon answers prompts meanwhile
          const start = child.offset + (data.offset + r) * dims;
          const v = values.subarray(start, start + dims);
          signBits(v, dims, this.codes, row * words);
          this.scales[row] = quantise(v, dims, this.q8, row * dims);
        }
      }
      const id = batch.getChild("id")!;
      const project = batch.getChild("project")!;
      for (let i = 0; i < batch.numRows; i++) this.put(this.filled + i, String(id.get(i)), String(project.get(i)));
      this.filled += batch.numRows;
    }
  }

  /** Rows `which` of another copy, in that order: their codes copied in runs, a slice at a time. */
  async copyFrom(from: CodeRows, which: readonly number[]): Promise<void> {
    const { dims, words } = this;
    const names = [...from.names.keys()];
    for (let s = 0; s < which.length; s += SLICE) {
      if (s > 0) await breathe();
      const stop = Math.min(which.length, s + SLICE);
      for (let k = s; k < stop; ) {
        let end = k + 1;
        while (end < stop && which[end] === which[end - 1]! + 1) end++;
        const first = which[k]!;
        const last = first + end - k;
        const row = this.filled + k;
        this.codes.set(from.codes.subarray(first * words, last * words), row * words);
        this.q8.set(from.q8.subarray(first * dims, last * dims), row * dims);
        this.scales.set(from.scales.subarray(first, last), row);
        k = end;
      }
      for (let k = s; k < stop; k++) this.put(this.filled + k, from.ids[which[k]!]!, names[from.projectOf[which[k]!]!]!);
    }
    this.filled += which.length;
  }

  /** Hamming distance of every row's sign code to `q`'s. */
  distances(q: Float32Array): Uint16Array {
    const { words, dims, filled, wasm } = this;
    if (!wasm) {
      const query = new Uint32Array(words);
      signBits(q, dims, query, 0);
      const dist = new Uint16Array(filled);
      hammingRows(this.codes, words, query, 0, filled, dist);
      return dist;
    }
    signBits(q, dims, new Uint32Array(wasm.memory.buffer, wasm.q, words), 0);
    wasm.k.hamming(wasm.q, wasm.codes, filled, words * 4, wasm.dist);
    return new Uint16Array(wasm.memory.buffer, wasm.dist, filled);
  }

  /** `q · row` for each of `rows`, from the int8 rows (the query as int16 in the kernel). */
  rescore(q: Float32Array, rows: Int32Array): Float64Array {
    const { dims, wasm } = this;
    const out = new Float64Array(rows.length);
    if (!wasm) {
      for (let k = 0; k < rows.length; k++) out[k] = int8Dot(q, this.q8, rows[k]! * dims, dims, this.scales[rows[k]!]!);
      return out;
    }
    const q16 = new Int16Array(wasm.memory.buffer, wasm.q16, dims);
    const qScale = quantise16(q, dims, q16);
    new Int32Array(wasm.memory.buffer, wasm.rows, rows.length).set(rows);
    wasm.k.dots(wasm.q16, wasm.q8, wasm.rows, rows.length, dims, wasm.dots);
    const dots = new Int32Array(wasm.memory.buffer, wasm.dots, rows.length);
    for (let k = 0; k < rows.length; k++) out[k] = dots[k]! * qScale * this.scales[rows[k]!]!;
    return out;
  }
}

/**
 * The daemon's copy of a large vector table as compact codes (./sign-codes.ts), not float32: a
 * sign code and an int8 row per row, about a quarter of the float32 copy's memory and a thirtieth
 * of its scan's memory traffic. A search scans the sign codes by Hamming distance, takes the
 * nearest `limit × 40` rows (at least 2,000) of the projects searched, and ranks those by their
 * int8 dot product with the query (the float32 ranking but for scores within about 1e-3).
 * Refreshed like MemoryIndex: rows removed are dropped, only rows added or recorded again read.
 */
export class CodeIndex {
  private readonly projectNames: string[];

  private constructor(
    readonly table: string,
    private readonly rows: CodeRows,
    readonly version: string,
    readonly rowsRead: number,
    readonly candidates = CANDIDATES,
  ) {
    this.projectNames = [...rows.names.keys()];
  }

  get dims(): number {
    return this.rows.dims;
  }

  get size(): number {
    return this.rows.filled;
  }

  get kernel(): string {
    return this.rows.wasm ? "codes-wasm-simd" : "codes-js";
  }

  get scan(): "inline" {
    return "inline";
  }

  get scanCounts(): undefined {
    return undefined;
  }

  /** Bytes of the codes held (ids and their lookup aside). */
  get bytes(): number {
    return this.size * codeBytesPerRow(this.dims);
  }

  /** The scan is on this thread: nothing to start. */
  useWorker(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  static async load(store: VectorStore, table: string, dims: number, version: string, prefer?: "js"): Promise<CodeIndex> {
    const arrow = await (await store.table(table)).query().select(["id", "project", "vector"]).toArrow();
    return CodeIndex.fromArrow(table, dims, version, [arrow], undefined, prefer);
  }

  /** A copy of the rows of `tables` (Arrow tables of id, project, vector). */
  static async fromArrow(table: string, dims: number, version: string, tables: ArrowTable[], candidates?: CodeIndex["candidates"], prefer?: "js"): Promise<CodeIndex> {
    const rows = new CodeRows(
      tables.reduce((n, t) => n + t.numRows, 0),
      dims,
      prefer,
    );
    for (const t of tables) await rows.append(t);
    return new CodeIndex(table, rows, version, rows.filled, candidates);
  }

  /** This copy brought to `version` (see MemoryIndex.refresh); undefined when so much changed that a full `load` costs about as much. */
  async refresh(store: VectorStore, version: string, reread: ReadonlySet<string>): Promise<CodeIndex | undefined> {
    const plan = await refreshPlan(store, this.table, this.rows.rowOf, reread, Math.max(1_000, this.size / 5));
    if (!plan) return undefined;
    const { keep, added } = plan;
    const fetched = await store.rowsById(this.table, added);
    const rows = new CodeRows(keep.length + fetched.reduce((n, t) => n + t.numRows, 0), this.dims, this.rows.wasm ? undefined : "js");
    await rows.copyFrom(this.rows, keep);
    for (const t of fetched) await rows.append(t);
    return new CodeIndex(this.table, rows, version, rows.filled - keep.length, this.candidates);
  }

  /** The nearest rows of `projects` (all when undefined) to `q`, best first. */
  search(q: Float32Array, projects: string[] | undefined, limit: number): VectorHit[] {
    const allowed = projects ? new Set(projects) : undefined;
    const ok = this.projectNames.map((p) => !allowed || allowed.has(p));
    if (limit <= 0 || !ok.some(Boolean)) return [];
    const rows = this.rows;
    const dist = rows.distances(q);
    const want = candidateCount(rows.filled, limit, this.candidates);
    const all = ok.every(Boolean);
    const near = nearestRows(dist, rows.filled, rows.dims, want, all ? () => true : (i) => ok[rows.projectOf[i]!]!);
    return bestByScore(near, rows.rescore(q, near), limit).map((b) => ({ id: rows.ids[b.row]!, similarity: b.score }));
  }

  /** As `search` (the scan is short enough for this thread). */
  async find(q: Float32Array, projects: string[] | undefined, limit: number): Promise<VectorHit[]> {
    return this.search(q, projects, limit);
  }
}
