import type { Table as ArrowTable } from "apache-arrow";
import type { TableChange } from "../store/vec-state.js";
import type { VectorHit, VectorStore } from "../store/vectors.js";
import { CodeRows, DEAD, withHeadroom } from "./code-rows.js";
import { refreshLimit } from "./refresh-plan.js";
import { bestByScore, codeWords, nearestRows } from "./sign-codes.js";

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

/**
 * The daemon's copy of a large vector table as compact codes (./sign-codes.ts), not float32: a
 * sign code and an int8 row per row, about a quarter of the float32 copy's memory and a thirtieth
 * of its scan's memory traffic. A search scans the sign codes by Hamming distance, takes the
 * nearest `limit × 40` rows (at least 2,000) of the projects searched, and ranks those by their
 * int8 dot product with the query (the float32 ranking but for scores within about 1e-3).
 * Refreshed in place (`refresh`, code-rows.ts): no second copy, only the rows recorded since read.
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
    readonly candidates = CANDIDATES,
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

  /** Bytes of the codes of the rows in use (ids and their lookup aside: `idBytes`). */
  get bytes(): number {
    return this.rows.filled * codeBytesPerRow(this.dims);
  }

  /** Bytes of the ids and their lookup (id-table.ts). */
  get idBytes(): number {
    return this.rows.ids.bytes;
  }

  /** The scan is on this thread: nothing to start. */
  useWorker(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * A copy of the whole table, read batch by batch (never the whole table at once), into room for
   * the rows LanceDB counts and some headroom.
   */
  static async load(store: VectorStore, table: string, dims: number, version: string, prefer?: "js", candidates?: CodeIndex["candidates"]): Promise<CodeIndex> {
    const rows = new CodeRows(withHeadroom(await store.count(table)), dims, prefer);
    for await (const batch of store.batches(table)) await rows.append(batch);
    return new CodeIndex(table, rows, version, rows.filled, candidates);
  }

  /** A copy of the rows of `tables` (Arrow tables of id, project, vector). */
  static async fromArrow(table: string, dims: number, version: string, tables: ArrowTable[], candidates?: CodeIndex["candidates"], prefer?: "js"): Promise<CodeIndex> {
    const rows = new CodeRows(withHeadroom(tables.reduce((n, t) => n + t.numRows, 0)), dims, prefer);
    for (const t of tables) for (const batch of t.batches) await rows.append(batch);
    return new CodeIndex(table, rows, version, rows.filled, candidates);
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
    const dist = rows.distances(q);
    const want = candidateCount(rows.size, limit, this.candidates);
    // A dead row's project (DEAD) is past the end of `ok`: never allowed.
    const projectOf = rows.projectOf;
    const take: (row: number) => boolean = !ok.every(Boolean) ? (i) => ok[projectOf[i]!] === true : rows.dead > 0 ? (i) => projectOf[i] !== DEAD : () => true;
    const near = nearestRows(dist, rows.filled, rows.dims, want, take);
    return bestByScore(near, rows.rescore(q, near), limit).map((b) => ({ id: rows.ids.idOf(b.row), similarity: b.score }));
  }

  /** As `search` (the scan is short enough for this thread). */
  async find(q: Float32Array, projects: string[] | undefined, limit: number): Promise<VectorHit[]> {
    return this.search(q, projects, limit);
  }
}
