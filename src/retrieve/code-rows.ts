/**
 * The rows of a code copy (./code-index.ts), changed in place: a row removed is marked dead (its
 * project set to DEAD: no search takes it), a row added is appended, and the dead rows are
 * squeezed out by `compact`. Each step (one row marked, added or moved) is done between two
 * searches, never across one: a search, synchronous on the daemon's thread, always sees every
 * live row once. Capacity beyond the rows held is reserved (headroom), and grown in place.
 *
 * Each row has a sign code (in memory) and an int8 row. The int8 rows are kept either in memory
 * (`file` undefined) or in a private file (./row-file.ts) with a 4-bit row in memory in their
 * place (./code-scores.ts: the 4-bit rows pick the few rows whose int8 rows are read back).
 */
import type { RecordBatch } from "apache-arrow";
import { breathe, SLICE } from "../util/breathe.js";
import { codeKernels } from "./code-kernels.js";
import { type CodeMemory, layout, MAX_WASM_BYTES, PAGE } from "./code-layout.js";
import { IdTable } from "./id-table.js";
import type { RowFile } from "./row-file.js";
import { codeWords, nibbleBytes, quantise, quantise4, signBits } from "./sign-codes.js";
import { vectorRuns } from "./vector-runs.js";

/** A dead row's project. */
export const DEAD = 0xffffffff;
/** Int8 rows staged before they are written to the file together. */
const STAGE_ROWS = 1_024;

/** Room for `rows` and some to come: a refresh's rows are appended without growing. */
export function withHeadroom(rows: number): number {
  return Math.ceil(rows * 1.02) + 1_024;
}

export class CodeRows {
  projectOf: Uint32Array;
  /** Each row's int8 scale. */
  scales: Float32Array;
  /** Each row's 4-bit step (the int8 rows in a file), else empty. */
  steps: Float32Array;
  readonly names = new Map<string, number>();
  readonly ids: IdTable;
  codes!: Uint32Array;
  /** The in-memory rescoring rows: int8 (`file` undefined) or 4-bit, `cellBytes` a row. */
  cells!: Uint8Array;
  readonly words: number;
  readonly cellBytes: number;
  /** The WebAssembly kernels, their memory and its layout; undefined: the JS loops. */
  readonly wasm: CodeMemory | undefined;
  /** A row of zeros, written over a removed row's int8 row in the file. */
  private zeros: Int8Array | undefined;
  /** Rows [0, filled) are in use, `dead` of them dead. */
  filled = 0;
  dead = 0;
  /** Int8 rows not written to the file yet: rows [stageFrom, stageFrom + staged). */
  private readonly stage: Int8Array;
  private stageFrom = 0;
  private staged = 0;

  constructor(
    public capacity: number,
    readonly dims: number,
    prefer?: "js",
    /** Where the int8 rows are kept; undefined: in memory. */
    readonly file?: RowFile,
  ) {
    this.words = codeWords(dims);
    this.cellBytes = file ? nibbleBytes(dims) : dims;
    this.projectOf = new Uint32Array(capacity).fill(DEAD);
    this.scales = new Float32Array(capacity);
    this.steps = new Float32Array(file ? capacity : 0);
    this.stage = new Int8Array(file ? STAGE_ROWS * dims : 0);
    this.ids = new IdTable(capacity);
    const at = layout(capacity, dims, this.words, this.cellBytes, file !== undefined);
    const fits = prefer !== "js" && dims % 128 === 0 && dims <= 1536 && at.bytes <= MAX_WASM_BYTES;
    const memory = fits ? new WebAssembly.Memory({ initial: Math.ceil(at.bytes / PAGE) }) : undefined;
    const k = memory && codeKernels(memory);
    this.wasm = memory && k ? { k, memory, at } : undefined;
    this.views();
  }

  private views(): void {
    const { capacity, words, cellBytes, wasm } = this;
    if (wasm) {
      this.codes = new Uint32Array(wasm.memory.buffer, wasm.at.codes, capacity * words);
      this.cells = new Uint8Array(wasm.memory.buffer, wasm.at.cells, capacity * cellBytes);
    } else {
      this.codes = new Uint32Array(capacity * words);
      this.cells = new Uint8Array(capacity * cellBytes);
    }
  }

  /** The in-memory int8 rows (`file` undefined). */
  get q8(): Int8Array {
    return new Int8Array(this.cells.buffer, this.cells.byteOffset, this.cells.length);
  }

  /** Live rows. */
  get size(): number {
    return this.filled - this.dead;
  }

  /**
   * Room for `capacity` rows. In WebAssembly the memory grows (no second copy) and the rescoring
   * rows move up to their new place; the JS loops' arrays are copied. The file needs no room made.
   */
  grow(capacity: number): void {
    if (capacity <= this.capacity) return;
    const { words, dims, cellBytes, wasm } = this;
    const grown = <T extends Uint32Array | Float32Array>(a: T, make: (n: number) => T, fill = 0): T => {
      const b = make(a.length === 0 ? 0 : capacity).fill(fill) as T;
      b.set(a);
      return b;
    };
    this.projectOf = grown(this.projectOf, (n) => new Uint32Array(n), DEAD);
    this.scales = grown(this.scales, (n) => new Float32Array(n));
    this.steps = grown(this.steps, (n) => new Float32Array(n));
    this.ids.grow(capacity);
    if (wasm) {
      const at = layout(capacity, dims, words, cellBytes, this.file !== undefined);
      if (at.bytes > MAX_WASM_BYTES) throw new Error(`${capacity} rows of ${dims} dimensions are over WebAssembly's 4 GiB`);
      const pages = Math.ceil(at.bytes / PAGE) - wasm.memory.buffer.byteLength / PAGE;
      if (pages > 0) wasm.memory.grow(pages);
      new Uint8Array(wasm.memory.buffer).copyWithin(at.cells, wasm.at.cells, wasm.at.cells + this.filled * cellBytes);
      wasm.at = at;
      this.capacity = capacity;
      this.views();
    } else {
      const codes = new Uint32Array(capacity * words);
      codes.set(this.codes.subarray(0, this.filled * words));
      const cells = new Uint8Array(capacity * cellBytes);
      cells.set(this.cells.subarray(0, this.filled * cellBytes));
      this.capacity = capacity;
      this.codes = codes;
      this.cells = cells;
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

  /** Row `row` is gone: no search takes it, and its int8 row in the file is overwritten with zeros. */
  kill(row: number): void {
    if (this.projectOf[row] === DEAD) return;
    this.ids.remove(row);
    this.projectOf[row] = DEAD;
    this.dead++;
    if (this.file) {
      this.zeros ??= new Int8Array(this.dims);
      this.file.write(row, this.zeros, 1);
    }
  }

  /** Writes the staged int8 rows to the file: done before the event loop runs, so no search reads a row not written yet. */
  private flush(): void {
    if (this.staged > 0) this.file!.write(this.stageFrom, this.stage, this.staged);
    this.staged = 0;
  }

  /** Appends every row of a batch of (id, project, vector); an id held already leaves its old row. */
  async append(batch: RecordBatch): Promise<void> {
    const { dims, words, cellBytes, file } = this;
    if (this.filled + batch.numRows > this.capacity) this.grow(Math.max(withHeadroom(this.filled + batch.numRows), Math.ceil(this.capacity * 1.25)));
    const id = batch.getChild("id")!;
    const project = batch.getChild("project")!;
    const q8 = file ? this.stage : this.q8;
    let i = 0;
    for (const run of vectorRuns(batch, dims)) {
      for (let r = 0; r < run.rows; r++, i++) {
        if (i % SLICE === SLICE - 1) {
          if (file) this.flush();
          await breathe(); // the daemon answers prompts meanwhile
        }
        const row = this.filled;
        const v = run.values.subarray(run.start + r * dims, run.start + (r + 1) * dims);
        signBits(v, dims, this.codes, row * words);
        if (file) {
          if (this.staged === STAGE_ROWS) this.flush();
          if (this.staged === 0) this.stageFrom = row;
          this.scales[row] = quantise(v, dims, q8, this.staged++ * dims);
          this.steps[row] = quantise4(v, dims, this.cells, row * cellBytes);
        } else this.scales[row] = quantise(v, dims, q8, row * dims);
        const before = this.ids.add(row, String(id.get(i)));
        this.projectOf[row] = this.project(String(project.get(i)));
        this.filled = row + 1;
        if (before !== undefined && this.projectOf[before] !== DEAD) {
          this.projectOf[before] = DEAD; // its id answers with the new row already
          this.dead++;
        }
      }
    }
    if (file) this.flush();
  }

  /**
   * Squeezes the dead rows out: each live row moves down to the next free row, a slice at a time.
   * Between slices the rows below the cursor are live and moved, those from it to the row being
   * read dead: a search in between sees each live row once. The file's rows move in runs of rows
   * that move together, each run written before the event loop runs.
   */
  async compact(): Promise<void> {
    const { words, cellBytes, file } = this;
    const scratch = new Uint8Array(this.stage.buffer, this.stage.byteOffset, this.stage.byteLength);
    let run = { from: 0, to: 0, n: 0 };
    const flushRun = () => {
      if (file && run.n > 0) file.move(run.from, run.to, run.n, scratch);
      run = { from: 0, to: 0, n: 0 };
    };
    let to = 0;
    let bytesTo = 0;
    const end = this.filled;
    for (let from = 0; from < end; from++) {
      if (from % SLICE === SLICE - 1) {
        flushRun();
        await breathe();
      }
      if (this.projectOf[from] === DEAD) continue;
      if (from !== to) {
        this.codes.copyWithin(to * words, from * words, (from + 1) * words);
        this.cells.copyWithin(to * cellBytes, from * cellBytes, (from + 1) * cellBytes);
        if (file) {
          if (run.n > 0 && run.from + run.n === from && run.to + run.n === to) run.n++;
          else {
            flushRun();
            run = { from, to, n: 1 };
          }
          this.steps[to] = this.steps[from]!;
        }
        this.scales[to] = this.scales[from]!;
        bytesTo = this.ids.move(from, to, bytesTo);
        this.projectOf[to] = this.projectOf[from]!;
        this.projectOf[from] = DEAD;
      } else bytesTo = this.ids.endOf(from);
      to++;
    }
    flushRun();
    // Rows appended meanwhile would break the order: the caller appends only after this.
    this.filled = to;
    this.dead = 0;
    this.ids.truncate(bytesTo);
    file?.truncate(to);
  }
}
