import { CodeIndex, codeBytesPerRow } from "./code-index.js";
import { MemoryIndex } from "./memory-index.js";
import { refreshLimit } from "./refresh-plan.js";
import type { VecState } from "../store/vec-state.js";
import type { VectorHit, VectorStore } from "../store/vectors.js";

export interface VectorCopiesOptions {
  state: VecState;
  vectors: () => Promise<VectorStore>;
  config: { vectorMemoryMB: number; scanWorkerRows: number; codeRows: number };
  log: (line: string) => void;
  /**
   * A private folder of the data home where a code copy keeps its int8 rows (a file each, made at
   * load, removed on close: ./row-file.ts); undefined: they are held in memory.
   */
  rowsDir?: string;
}

/**
 * In-memory copies of vector tables, for a process that stays up (the daemon, `mem ui`). A copy whose table changed since (SQLite's
 * version counter) is reloaded in the background and keeps answering meanwhile: a chunk deleted
 * since is dropped by the search's row lookup, and one added since is still found by BM25. A
 * table too big to copy (`daemon.vectorMemoryMB`) is left to LanceDB, as is one not loaded yet.
 */
export class VectorCopies {
  private readonly copies = new Map<string, MemoryIndex | CodeIndex>();
  private readonly loading = new Set<string>();
  private readonly tooBig = new Map<string, string>(); // table → the version found too big to hold
  private closed = false;

  constructor(private readonly opts: VectorCopiesOptions) {}

  /** The nearest rows from the copy of `table`; undefined when LanceDB must answer. */
  readonly search = async (table: string, dims: number, vec: Float32Array, projects: string[] | undefined, limit: number): Promise<VectorHit[] | undefined> => {
    if (!this.follow(table, dims)) return undefined;
    const idx = this.copies.get(table);
    try {
      return await idx?.find(vec, projects, limit); // undefined: LanceDB answers
    } catch (err) {
      if (!(idx instanceof CodeIndex)) throw err;
      // The code copy cannot answer (its int8 rows' file cut or unreadable): let go of it; LanceDB answers, and the next search reads it again.
      this.opts.log(`the copy of ${table} failed (${(err as Error).message}); searching LanceDB and reading it again`);
      if (idx && this.copies.get(table) === idx) {
        this.copies.delete(table);
        void idx.close();
      }
      return undefined;
    }
  };

  /**
   * Starts reading what changed in `table` since its copy's version, in the background (the whole
   * table for a first copy, or when too much changed, unless `whole` is false: then only a change
   * small enough to read in part is); false when the table is too big to copy (LanceDB answers).
   */
  private follow(table: string, dims: number, whole = true): boolean {
    const { state, config, log } = this.opts;
    const version = state.version(table);
    if (version !== undefined && this.tooBig.get(table) === version) return false;
    const idx = this.copies.get(table);
    if (version !== undefined && idx?.version !== version && !this.loading.has(table) && !this.closed) {
      const rows = state.count(table);
      // A catch-up keeps the copy's kind (a purge that takes a table of codes just under
      // daemon.codeRows is read in part too); the next search reads it whole in the other.
      const codes = !whole && idx ? idx instanceof CodeIndex : rows >= config.codeRows;
      const mib = (rows * (codes ? codeBytesPerRow(dims, this.opts.rowsDir !== undefined) : dims * 4)) / 2 ** 20;
      if (mib > config.vectorMemoryMB) {
        // Too big to copy (it grew, or always was): LanceDB answers, as it would with no copy.
        void this.copies.get(table)?.close();
        this.copies.delete(table);
        this.tooBig.set(table, version);
        log(`${table}: ${Math.round(mib)} MiB of vectors is over daemon.vectorMemoryMB (${config.vectorMemoryMB}); searching it in LanceDB`);
        return false;
      }
      this.reload(table, dims, version, codes, whole);
    }
    return true;
  }

  /**
   * Brings every copy held up to its table's version without waiting for a search: rows removed
   * (`mem forget --purge` in another process) leave the copy, and a code copy's file, soon after,
   * not at the next prompt. Cheap when nothing changed (a version read per copy). Rows only added
   * wait for the next search, which BM25 finds meanwhile (a float32 copy is copied whole to be
   * refreshed: not every few seconds of an indexing session), as does a change too large to read
   * in part (a bulk index).
   */
  catchUp(): void {
    const { state } = this.opts;
    for (const m of [...this.copies.values()]) {
      if (state.version(m.table) === m.version || this.loading.has(m.table)) continue;
      if (state.changedSince(m.table, m.version, refreshLimit(m.size))?.gone.size) this.follow(m.table, m.dims, false);
    }
  }

  /** `codes`: the copy is held as compact codes (CodeIndex), else as float32 (MemoryIndex). */
  private reload(table: string, dims: number, version: string, codes: boolean, whole = true): void {
    this.loading.add(table);
    const current = this.copies.get(table);
    // A copy of the other kind (the table crossed daemon.codeRows) is read whole.
    const held = current && current instanceof CodeIndex === codes ? current : undefined;
    // What changed since the copy held, from SQLite (the rows removed, journaled, and those
    // recorded): only the rows recorded are read (MemoryIndex.refresh, CodeIndex.refresh). A first
    // copy, a table made again, one whose journal was pruned past the copy, or one that changed a
    // lot is read whole.
    const load = async (store: VectorStore) => {
      // Closed meanwhile (the daemon stopping): nothing is refreshed or read any more.
      if (this.closed) throw new Error("the copies are closed");
      const change = held && held.dims === dims ? this.opts.state.changedSince(table, held.version, refreshLimit(held.size)) : undefined;
      if (held && change) {
        const fresh = await held.refresh(store, version, change).catch((err: Error) => {
          if (!this.closed) this.opts.log(`refreshing the copy of ${table} failed (${err.message}); ${whole ? "reading it whole" : "the next search reads it whole"}`);
          return undefined;
        });
        if (fresh) return fresh;
        if (this.closed) throw new Error("the copies are closed");
      }
      if (!whole && current) return current; // kept as it is: the next search reads it whole
      if (codes && this.copies.get(table) === current && current) {
        // A copy of a large table is let go before it is read whole again, not held beside the
        // new one (two at once would double the daemon's memory): LanceDB answers meanwhile.
        this.copies.delete(table);
        void current.close();
      }
      return codes ? CodeIndex.load(store, table, dims, version, { rowsDir: this.opts.rowsDir, log: this.opts.log }) : MemoryIndex.load(store, table, dims, version);
    };
    void this.opts
      .vectors()
      .then(load)
      .then((m) => {
        if (this.closed) return void m.close();
        // The copy kept or refreshed in place, let go meanwhile (a search found its rows' file cut, and closed it): not held again.
        if (m === current && this.copies.get(table) !== current) return;
        // A large table is scanned by a worker thread and this one together, the worker's part
        // while this thread runs the BM25 leg (src/retrieve/scan-pool.ts).
        if (m.size >= this.opts.config.scanWorkerRows) void m.useWorker({ log: this.opts.log });
        const old = this.copies.get(table);
        this.copies.set(table, m);
        if (old !== m) void old?.close(); // its worker ends once the searches still using it are done (a code copy is refreshed in place: the same)
      })
      .catch((err: Error) => {
        if (!this.closed) this.opts.log(`loading ${table} into memory failed: ${err.message}`);
      })
      .finally(() => this.loading.delete(table));
  }

  /** For `status`: each copy held, with the bytes of its vectors in memory (float32, or the codes) and in a file (a code copy's int8 rows). */
  status(): { table: string; rows: number; bytes: number; fileBytes: number; version: string; kernel: string; scan: string; rowsRead: number }[] {
    return [...this.copies.values()].map((m) => ({ table: m.table, rows: m.size, bytes: m.bytes, fileBytes: m instanceof CodeIndex ? m.fileBytes : 0, version: m.version, kernel: m.kernel, scan: m.scan, rowsRead: m.rowsRead }));
  }

  /** Ends the copies and their scan workers. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.copies.values()].map((m) => m.close()));
    this.copies.clear();
  }
}
