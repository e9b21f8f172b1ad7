/**
 * The rows of a code copy (./code-index.ts), changed in place: a row removed is marked dead (its
 * project set to DEAD: no search takes it), a row added is appended, and the dead rows are
 * squeezed out by `compact`. Each step (one row marked, added or moved) is done between two
 * searches, never across one: a search, synchronous on the daemon's thread, always sees every
 * live row once. Capacity beyond the rows held is reserved (headroom), and grown in place.
 */
import type { RecordBatch } from "apache-arrow";
import { breathe, SLICE } from "../util/breathe.js";
import { type CodeKernels, codeKernels } from "./code-kernels.js";
import { IdTable } from "./id-table.js";
import { codeWords, hammingRows, int8Dot, quantise, quantise16, signBits } from "./sign-codes.js";

const MAX_WASM_BYTES = 2 ** 32 - 2 ** 16;
const PAGE = 65_536;
/** A dead row's project. */
export const DEAD = 0xffffffff;

/** Room for `rows` and some to come: a refresh's rows are appended without growing. */
export function withHeadroom(rows: number): number {
  return Math.ceil(rows * 1.02) + 1_024;
}

interface Layout {
  q: number;
  q16: number;
  codes: number;
  q8: number;
  dist: number;
  dots: number;
  rows: number;
  bytes: number;
}

/** [query code][query int16][codes][int8 rows][distances u16][dot products i32][candidate rows i32]: the parts that keep data first. */
function layout(capacity: number, dims: number, words: number): Layout {
  const up = (b: number) => Math.ceil(b / 16) * 16;
  const n = Math.max(1, capacity);
  const q16 = up(words * 4);
  const codes = q16 + up(dims * 2);
  const q8 = codes + up(n * words * 4);
  const dist = q8 + up(n * dims);
  const dots = dist + up(n * 2);
  const rows = dots + up(n * 4);
  return { q: 0, q16, codes, q8, dist, dots, rows, bytes: rows + up(n * 4) };
}

export class CodeRows {
  projectOf: Uint32Array;
  scales: Float32Array;
  readonly names = new Map<string, number>();
  readonly ids: IdTable;
  codes!: Uint32Array;
  q8!: Int8Array;
  readonly words: number;
  /** The WebAssembly kernels, their memory and its layout; undefined: the JS loops. */
  readonly wasm: { k: CodeKernels; memory: WebAssembly.Memory; at: Layout } | undefined;
  /** Rows [0, filled) are in use, `dead` of them dead. */
  filled = 0;
  dead = 0;

  constructor(
    public capacity: number,
    readonly dims: number,
    prefer?: "js",
  ) {
    this.words = codeWords(dims);
    this.projectOf = new Uint32Array(capacity).fill(DEAD);
    this.scales = new Float32Array(capacity);
    this.ids = new IdTable(capacity);
    const at = layout(capacity, dims, this.words);
    const fits = prefer !== "js" && dims % 128 === 0 && dims <= 1536 && at.bytes <= MAX_WASM_BYTES;
    const memory = fits ? new WebAssembly.Memory({ initial: Math.ceil(at.bytes / PAGE) }) : undefined;
    const k = memory && codeKernels(memory);
    this.wasm = memory && k ? { k, memory, at } : undefined;
    this.views();
  }

  private views(): void {
    const { capacity, words, dims, wasm } = this;
    if (wasm) {
      this.codes = new Uint32Array(wasm.memory.buffer, wasm.at.codes, capacity * words);
      this.q8 = new Int8Array(wasm.memory.buffer, wasm.at.q8, capacity * dims);
    } else {
      this.codes = new Uint32Array(capacity * words);
      this.q8 = new Int8Array(capacity * dims);
    }
  }

  /** Live rows. */
  get size(): number {
    return this.filled - this.dead;
  }

  /**
   * Room for `capacity` rows. In WebAssembly the memory grows (no second copy) and the int8 rows
   * move up to their new place; the JS loops' arrays are copied.
   */
  grow(capacity: number): void {
    if (capacity <= this.capacity) return;
    const { words, dims, wasm } = this;
    const grown = (a: Uint32Array, fill: number) => {
      const b = new Uint32Array(capacity).fill(fill);
      b.set(a);
      return b;
    };
    this.projectOf = grown(this.projectOf, DEAD);
    const scales = new Float32Array(capacity);
    scales.set(this.scales);
    this.scales = scales;
    this.ids.grow(capacity);
    if (wasm) {
      const at = layout(capacity, dims, words);
      if (at.bytes > MAX_WASM_BYTES) throw new Error(`${capacity} rows of ${dims} dimensions are over WebAssembly's 4 GiB`);
      const pages = Math.ceil(at.bytes / PAGE) - wasm.memory.buffer.byteLength / PAGE;
      if (pages > 0) wasm.memory.grow(pages);
      new Uint8Array(wasm.memory.buffer).copyWithin(at.q8, wasm.at.q8, wasm.at.q8 + this.filled * dims);
      wasm.at = at;
      this.capacity = capacity;
      this.views();
    } else {
      const codes = new Uint32Array(capacity * words);
      codes.set(this.codes.subarray(0, this.filled * words));
      const q8 = new Int8Array(capacity * dims);
      q8.set(this.q8.subarray(0, this.filled * dims));
      this.capacity = capacity;
      this.codes = codes;
      this.q8 = q8;
    }
  }

  private project(p: string): number {
    let k = this.names.get(p);
    if (k === undefined) this.names.set(p, (k = this.names.size));
    return k;
  }

  /** The live row of `id`, if any. */
  row(id: string): number | undefined {
    return this.ids.get(id);
  }

  /** Row `row` is gone: no search takes it. */
  kill(row: number): void {
    if (this.projectOf[row] === DEAD) return;
    this.ids.remove(row);
    this.projectOf[row] = DEAD;
    this.dead++;
  }

  /** Appends every row of a batch of (id, project, vector); an id held already leaves its old row. */
  async append(batch: RecordBatch): Promise<void> {
    const { dims, words } = this;
    if (this.filled + batch.numRows > this.capacity) this.grow(Math.max(withHeadroom(this.filled + batch.numRows), Math.ceil(this.capacity * 1.25)));
    const id = batch.getChild("id")!;
    const project = batch.getChild("project")!;
    let i = 0;
    for (const data of batch.getChild("vector")!.data) {
      const child = data.children[0]!;
      const values = child.values as Float32Array;
      for (let r = 0; r < data.length; r++, i++) {
        if (i % SLICE === SLICE - 1) await breathe(); // the daemon answers prompts meanwhile
        const row = this.filled;
        const start = child.offset + (data.offset + r) * dims;
        const v = values.subarray(start, start + dims);
        signBits(v, dims, this.codes, row * words);
        this.scales[row] = quantise(v, dims, this.q8, row * dims);
        const before = this.ids.add(row, String(id.get(i)));
        this.projectOf[row] = this.project(String(project.get(i)));
        this.filled = row + 1;
        if (before !== undefined && this.projectOf[before] !== DEAD) {
          this.projectOf[before] = DEAD; // its id answers with the new row already
          this.dead++;
        }
      }
    }
  }

  /**
   * Squeezes the dead rows out: each live row moves down to the next free row, a slice at a time.
   * Between slices the rows below the cursor are live and moved, those from it to the row being
   * read dead: a search in between sees each live row once.
   */
  async compact(): Promise<void> {
    const { dims, words } = this;
    let to = 0;
    let bytesTo = 0;
    const end = this.filled;
    for (let from = 0; from < end; from++) {
      if (from % SLICE === SLICE - 1) await breathe();
      if (this.projectOf[from] === DEAD) continue;
      if (from !== to) {
        this.codes.copyWithin(to * words, from * words, (from + 1) * words);
        this.q8.copyWithin(to * dims, from * dims, (from + 1) * dims);
        this.scales[to] = this.scales[from]!;
        bytesTo = this.ids.move(from, to, bytesTo);
        this.projectOf[to] = this.projectOf[from]!;
        this.projectOf[from] = DEAD;
      } else bytesTo = this.ids.endOf(from);
      to++;
    }
    // Rows appended meanwhile would break the order: the caller appends only after this.
    this.filled = to;
    this.dead = 0;
    this.ids.truncate(bytesTo);
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
    const { memory, at, k } = wasm;
    signBits(q, dims, new Uint32Array(memory.buffer, at.q, words), 0);
    k.hamming(at.q, at.codes, filled, words * 4, at.dist);
    return new Uint16Array(memory.buffer, at.dist, filled);
  }

  /** `q · row` for each of `rows`, from the int8 rows (the query as int16 in the kernel). */
  rescore(q: Float32Array, rows: Int32Array): Float64Array {
    const { dims, wasm } = this;
    const out = new Float64Array(rows.length);
    if (!wasm) {
      for (let k = 0; k < rows.length; k++) out[k] = int8Dot(q, this.q8, rows[k]! * dims, dims, this.scales[rows[k]!]!);
      return out;
    }
    const { memory, at, k } = wasm;
    const q16 = new Int16Array(memory.buffer, at.q16, dims);
    const qScale = quantise16(q, dims, q16);
    new Int32Array(memory.buffer, at.rows, rows.length).set(rows);
    k.dots(at.q16, at.q8, at.rows, rows.length, dims, at.dots);
    const dots = new Int32Array(memory.buffer, at.dots, rows.length);
    for (let j = 0; j < rows.length; j++) out[j] = dots[j]! * qScale * this.scales[rows[j]!]!;
    return out;
  }
}
