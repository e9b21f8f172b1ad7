import type { Table as ArrowTable } from "apache-arrow";
import type { TableChange } from "../store/vec-state.js";
import type { VectorHit, VectorStore } from "../store/vectors.js";
import { CodeRows, DEAD, withHeadroom } from "./code-rows.js";
import { distances, rescore } from "./code-scores.js";
import { refreshLimit } from "./refresh-plan.js";
import { RowFile } from "./row-file.js";
import { codeWords, nearestRows, nibbleBytes } from "./sign-codes.js";

export interface Candidates {
  factor: number;
  min: number;
  share: number;
  /** With the int8 rows in a file: the candidates read back, `limit × readBack`, at least `readBackMin`. */
  readBack?: number;
  readBackMin?: number;
}

/**
 * Candidates rescored per search: `limit × factor`, at least `min`, and at least one row in
 * `share` of the copy. Chosen by measurement (bench:scale, docs/benchmarks.md): rows gathered in
 * dense topics (the LoCoMo USE vectors mixed with noise) need a share of the copy, not a fixed count,
 * for their true top 50 to be among the candidates; 2,000 of 300k held 95% of it, 6,000 all but 0.6%.
 * With the int8 rows in a file, the best `limit × 8` (at least 200) of them by their 4-bit rows
 * are read back: measured, the 4-bit rows' best 200 to 300 already held the int8 rows' top 50.
 */
export const CANDIDATES: Required<Candidates> = { factor: 40, min: 2_000, share: 1 / 50, readBack: 8, readBackMin: 200 };

/** How many candidates a search of `rows` rows for `limit` hits rescores. */
export function candidateCount(rows: number, limit: number, c: Candidates = CANDIDATES): number {
  return Math.max(limit * c.factor, c.min, Math.ceil(rows * c.share));
}

/** How many candidates are read back from the file for `limit` hits. */
export function readBackCount(limit: number, c: Candidates = CANDIDATES): number {
  return Math.max(limit, limit * (c.readBack ?? CANDIDATES.readBack), c.readBackMin ?? CANDIDATES.readBackMin);
}

/**
 * Bytes a code copy holds in memory per row of `dims` (sign code, its rescoring row, scales,
 * project), ids aside: the rescoring row int8, or 4-bit when the int8 rows are in a file (`inFile`).
 */
export function codeBytesPerRow(dims: number, inFile = false): number {
  return codeWords(dims) * 4 + (inFile ? nibbleBytes(dims) + 4 : dims) + 4 + 4 + 2;
}

export interface CodeOptions {
  /** The JS loops even where WebAssembly SIMD is there (tests). */
  prefer?: "js";
  candidates?: Candidates;
  /**
   * A private folder of the data home for the int8 rows' file (./row-file.ts); undefined: the
   * int8 rows in memory. When the file cannot be made, the rows are held in memory and `log` says why.
   */
  rowsDir?: string;
  log?: (line: string) => void;
}

/** The rows' file in `o.rowsDir`, or undefined (none asked for, or it cannot be made: said in the log). */
/** `make` given the file, which is closed (and removed) when `make` throws: no descriptor or file is left behind. */
function withFile<T>(file: RowFile | undefined, make: (file: RowFile | undefined) => T): T {
  try {
    return make(file);
  } catch (err) {
    file?.close();
    throw err;
  }
}

function rowFile(o: CodeOptions, dims: number): RowFile | undefined {
  if (o.rowsDir === undefined) return undefined;
  try {
    return RowFile.create(o.rowsDir, dims);
  } catch (err) {
    o.log?.(`the vector copy's int8 rows cannot be kept in a file (${(err as Error).message}); holding them in memory`);
    return undefined;
  }
}

/**
 * The daemon's copy of a large vector table as compact codes (./sign-codes.ts), not float32: a
 * sign code and an int8 row per row. A search scans the sign codes by Hamming distance, takes the
 * nearest rows of the projects searched (`candidateCount`), and ranks those by their int8 dot
 * product with the query (the float32 ranking but for scores within about 1e-3). With `rowsDir`
 * the int8 rows are kept in a private file and a 4-bit row of each is held in their place: the
 * candidates are ranked by their 4-bit rows, and the best `readBackCount` are read back from the
 * file and ranked by their int8 rows (./code-scores.ts). Refreshed in place (`refresh`,
 * code-rows.ts): no second copy, only the rows recorded since read.
 */
export class CodeIndex {
  private projectNames: string[];

  private constructor(
    readonly table: string,
    private readonly rows: CodeRows,
    /** The table's version (VecState.version) this copy holds; moves on with each `refresh`. */
    public version: string,
    /** Rows read from LanceDB by the last load or refresh. */
    public rowsRead: number,
    readonly candidates: Candidates = CANDIDATES,
  ) {
    this.projectNames = [...rows.names.keys()];
  }

  get dims(): number {
    return this.rows.dims;
  }

  /** Live rows. */
  get size(): number {
    return this.rows.size;
  }

  /** Rows the copy has room for without growing. */
  get capacity(): number {
    return this.rows.capacity;
  }

  /** Rows marked dead, not compacted yet. */
  get dead(): number {
    return this.rows.dead;
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

  /** Bytes of the codes held in memory for the rows in use (ids and their lookup aside: `idBytes`; the file aside: `fileBytes`). */
  get bytes(): number {
    return this.rows.filled * codeBytesPerRow(this.dims, this.rows.file !== undefined);
  }

  /** Bytes of the int8 rows kept in the file (0: held in memory, counted in `bytes`). */
  get fileBytes(): number {
    return this.rows.file ? this.rows.filled * this.dims : 0;
  }

  /** The int8 rows' file, if they are kept in one. */
  get rowsPath(): string | undefined {
    return this.rows.file?.path;
  }

  /** Bytes of the ids and their lookup (id-table.ts). */
  get idBytes(): number {
    return this.rows.ids.bytes;
  }

  /** The scan is on this thread: nothing to start. */
  useWorker(): Promise<void> {
    return Promise.resolve();
  }

  /** Removes the int8 rows' file. */
  close(): Promise<void> {
    this.rows.file?.close();
    return Promise.resolve();
  }

  /**
   * A copy of the whole table, read batch by batch (never the whole table at once), into room for
   * the rows LanceDB counts and some headroom.
   */
  static async load(store: VectorStore, table: string, dims: number, version: string, o: CodeOptions = {}): Promise<CodeIndex> {
    const count = await store.count(table);
    const rows = withFile(rowFile(o, dims), (file) => new CodeRows(withHeadroom(count), dims, o.prefer, file));
    try {
      for await (const batch of store.batches(table)) await rows.append(batch);
    } catch (err) {
      rows.file?.close();
      // A file that cannot be written (a full disk: an error of a system call, not LanceDB's): read again with the int8 rows in memory.
      if (!rows.file || (err as NodeJS.ErrnoException).syscall === undefined) throw err;
      o.log?.(`the vector copy's int8 rows cannot be kept in a file (${(err as Error).message}); holding them in memory`);
      return CodeIndex.load(store, table, dims, version, { ...o, rowsDir: undefined });
    }
    return new CodeIndex(table, rows, version, rows.filled, o.candidates);
  }

  /** A copy of the rows of `tables` (Arrow tables of id, project, vector). */
  static async fromArrow(table: string, dims: number, version: string, tables: ArrowTable[], o: CodeOptions = {}): Promise<CodeIndex> {
    const rows = withFile(rowFile(o, dims), (file) => new CodeRows(withHeadroom(tables.reduce((n, t) => n + t.numRows, 0)), dims, o.prefer, file));
    try {
      for (const t of tables) for (const batch of t.batches) await rows.append(batch);
    } catch (err) {
      rows.file?.close();
      throw err;
    }
    return new CodeIndex(table, rows, version, rows.filled, o.candidates);
  }

  /**
   * This copy brought to `version` in place: the rows recorded since (`change`, from SQLite's
   * journal: VecState.changedSince) are read from LanceDB and appended, each replacing its old row;
   * the rows removed since are marked dead; when the dead are a tenth of the rows, they are
   * squeezed out. LanceDB is read before anything changes, so a failed read leaves the copy as it
   * was. Each step is whole between two searches (code-rows.ts). Returns this copy, or undefined
   * when so much changed that a full `load` costs about as much.
   */
  async refresh(store: VectorStore, version: string, change: TableChange): Promise<CodeIndex | undefined> {
    if (change.gone.size + change.recorded.size > refreshLimit(this.size)) return undefined;
    const fetched = await store.rowsById(this.table, [...change.recorded]);
    const read = new Set<string>();
    let n = 0;
    for (const t of fetched) {
      for (const batch of t.batches) {
        await this.rows.append(batch);
        const id = batch.getChild("id")!;
        for (let i = 0; i < batch.numRows; i++) read.add(String(id.get(i)));
        n += batch.numRows;
      }
    }
    // Removed since, or recorded but no longer in LanceDB: their rows leave.
    for (const id of [...change.gone, ...change.recorded]) {
      if (read.has(id)) continue;
      const row = this.rows.row(id);
      if (row !== undefined) this.rows.kill(row);
    }
    this.projectNames = [...this.rows.names.keys()];
    this.version = version;
    this.rowsRead = n;
    if (this.rows.dead > Math.max(1_024, this.rows.filled / 10)) await this.rows.compact();
    return this;
  }

  /** The nearest rows of `projects` (all when undefined) to `q`, best first. */
  search(q: Float32Array, projects: string[] | undefined, limit: number): VectorHit[] {
    const allowed = projects ? new Set(projects) : undefined;
    const ok = this.projectNames.map((p) => !allowed || allowed.has(p));
    if (limit <= 0 || !ok.some(Boolean)) return [];
    const rows = this.rows;
    const dist = distances(rows, q);
    const want = candidateCount(rows.size, limit, this.candidates);
    // A dead row's project (DEAD) is past the end of `ok`: never allowed.
    const projectOf = rows.projectOf;
    const take: ((row: number) => boolean) | undefined = !ok.every(Boolean) ? (i) => ok[projectOf[i]!] === true : rows.dead > 0 ? (i) => projectOf[i] !== DEAD : undefined;
    const near = nearestRows(dist, rows.filled, rows.dims, want, take);
    return rescore(rows, q, near, limit, readBackCount(limit, this.candidates)).map((b) => ({ id: rows.ids.idOf(b.row), similarity: b.score }));
  }

  /** As `search` (the scan is short enough for this thread). */
  async find(q: Float32Array, projects: string[] | undefined, limit: number): Promise<VectorHit[]> {
    return this.search(q, projects, limit);
  }
}
