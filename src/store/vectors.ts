import type { Connection, OptimizeStats, Table } from "@lancedb/lancedb";
import { Field, FixedSizeList, Float32, type RecordBatch, Schema, Utf8, type Table as ArrowTable } from "apache-arrow";
import type { Clean } from "../redact/clean.cjs";
import { ensurePrivateDir } from "../util/private-dir.cjs";
import { breathe, SLICE } from "../util/breathe.js";

export { vectorTableName } from "./vector-table-name.js";

/** A LanceDB row: its id and project come from a stored chunk (clean by the redaction boundary). */
export interface VectorRow {
  id: Clean<string>;
  project: Clean<string>;
  vector: Float32Array;
}

export interface VectorHit {
  id: string;
  /** Cosine similarity (1 - cosine distance). */
  similarity: number;
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
const inList = (column: string, values: string[]) => `${column} IN (${values.map(quote).join(", ")})`;

/** The LanceDB side of the stores. Loaded lazily: importing LanceDB costs start-up time. */
export class VectorStore {
  private tables = new Map<string, Table>();
  private constructor(private readonly conn: Connection) {}

  static async open(dir: string): Promise<VectorStore> {
    const lancedb = await import("@lancedb/lancedb");
    ensurePrivateDir(dir); // 0700; LanceDB's files inside get the process umask (bin/mem.cjs: 077)
    // Every read sees what other processes wrote since (the daemon keeps tables open while `mem
    // index`, `mem forget --purge` or `mem reindex` write and compact them): strong consistency.
    return new VectorStore(await lancedb.connect(dir, { readConsistencyInterval: 0 }));
  }

  async list(): Promise<string[]> {
    return this.conn.tableNames();
  }

  async has(name: string): Promise<boolean> {
    return (await this.list()).includes(name);
  }

  /** Opens a table; throws if it is missing or unreadable. */
  async table(name: string): Promise<Table> {
    let t = this.tables.get(name);
    if (!t) {
      t = await this.conn.openTable(name);
      this.tables.set(name, t);
    }
    return t;
  }

  async ensure(name: string, dims: number): Promise<Table> {
    if (await this.has(name)) return this.table(name);
    const schema = new Schema([
      new Field("id", new Utf8(), false),
      new Field("project", new Utf8(), false),
      new Field("vector", new FixedSizeList(dims, new Field("item", new Float32(), true)), false),
    ]);
    const t = await this.conn.createEmptyTable(name, schema, { existOk: true });
    this.tables.set(name, t);
    return t;
  }

  /** Inserts or replaces rows by id (idempotent: a retried batch never duplicates). */
  async upsert(name: string, rows: VectorRow[]): Promise<void> {
    if (rows.length === 0) return;
    const t = await this.table(name);
    const data = rows.map((r) => ({ id: r.id, project: r.project, vector: Array.from(r.vector) }));
    await t.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(data);
  }

  async delete(name: string, ids: string[]): Promise<void> {
    const t = await this.table(name);
    for (let i = 0; i < ids.length; i += 500) await t.delete(inList("id", ids.slice(i, i + 500)));
  }

  /**
   * Deletes rows so that they leave the files too, not only the table. A LanceDB delete only marks
   * rows deleted, and compaction rewrites a fragment only when a tenth of it is deleted, so one
   * forgotten row of a large fragment would stay in its data file for good. Here every fragment
   * that held a deleted row is rewritten whole: its other rows are written again (an update, which
   * leaves the old fragment with no live row, so it is dropped). The caller's `optimize` with a
   * date then removes the old files and versions. Returns how many rows were written again.
   */
  async purgeRows(name: string, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const t = await this.table(name);
    const gone = new Set(ids);
    // A row's address is its fragment's id in the high 32 bits (with stable row ids, all read as one fragment: all rewritten).
    const arrow = await t.query().withRowId().select(["id"]).toArrow();
    const fragmentOf = new Map<string, bigint>();
    for (const batch of arrow.batches) {
      const id = batch.getChild("id")!;
      const row = batch.getChild("_rowid")!;
      for (let i = 0; i < batch.numRows; i++) fragmentOf.set(String(id.get(i)), BigInt(row.get(i) as bigint | number) >> 32n);
      await breathe();
    }
    const touched = new Set([...gone].map((id) => fragmentOf.get(id)).filter((f) => f !== undefined));
    const keep = [...fragmentOf].filter(([id, f]) => touched.has(f) && !gone.has(id)).map(([id]) => id);
    await this.delete(name, [...gone]);
    const present = [...gone].filter((id) => fragmentOf.has(id)).length;
    if (keep.length > 0 && keep.length === fragmentOf.size - present) {
      // Every fragment held one (a compacted table is one fragment): the table read once and written again in one commit.
      const all = await t.query().select(["id", "project", "vector"]).toArrow();
      if (all.numRows > 0) await t.mergeInsert("id").whenMatchedUpdateAll().execute(all);
    } else {
      for (let i = 0; i < keep.length; i += 5_000) {
        for (const rows of await this.rowsById(name, keep.slice(i, i + 5_000))) if (rows.numRows > 0) await t.mergeInsert("id").whenMatchedUpdateAll().execute(rows);
      }
    }
    // A delete's commit records its filter, the ids, and the newest commit is never cleaned up: one
    // more commit that names no chunk (a row with an empty id, added and deleted) comes after it.
    const dims = ((await t.schema()).fields.find((f) => f.name === "vector")?.type as { listSize?: number } | undefined)?.listSize ?? 0;
    if (dims > 0) {
      await t.add([{ id: "", project: "", vector: new Array<number>(dims).fill(0) }]);
      await t.delete("id = ''");
    }
    return keep.length;
  }

  async deleteProject(name: string, project: string): Promise<void> {
    await (await this.table(name)).delete(`project = ${quote(project)}`);
  }

  /** Every id in the table (the id column alone). */
  async ids(name: string): Promise<string[]> {
    // Read as Arrow, not as row objects: at 100k rows about half the time.
    const arrow = await (await this.table(name)).query().select(["id"]).toArrow();
    const out: string[] = new Array(arrow.numRows);
    let k = 0;
    for (const batch of arrow.batches) {
      const col = batch.getChild("id")!;
      for (let i = 0; i < batch.numRows; i++) {
        out[k++] = String(col.get(i));
        if (k % SLICE === 0) await breathe(); // the daemon answers prompts meanwhile
      }
    }
    return out;
  }

  /**
   * Every row (id, project, vector), or only those of `projects`, batch by batch as LanceDB reads
   * them: a copy of a large table is made without the whole table in memory at once (3 GB of
   * float32 at 1M × 768), and a project's rows are read once however many queries are scored in it.
   */
  async *batches(name: string, projects?: string[]): AsyncGenerator<RecordBatch> {
    const q = (await this.table(name)).query();
    for await (const batch of (projects ? q.where(inList("project", projects)) : q).select(["id", "project", "vector"])) yield batch;
  }

  /** The rows (id, project, vector) with these ids, as Arrow, read 500 ids at a time. */
  async rowsById(name: string, ids: readonly string[]): Promise<ArrowTable[]> {
    const t = await this.table(name);
    const out: ArrowTable[] = [];
    for (let i = 0; i < ids.length; i += 500) out.push(await t.query().where(inList("id", ids.slice(i, i + 500))).select(["id", "project", "vector"]).toArrow());
    return out;
  }

  async count(name: string): Promise<number> {
    return (await this.table(name)).countRows();
  }

  /** Cosine top-`limit` among rows of `projects` (all rows when undefined). */
  async search(name: string, vector: Float32Array, projects: string[] | undefined, limit: number): Promise<VectorHit[]> {
    const t = await this.table(name);
    let q = t.vectorSearch(Array.from(vector)).distanceType("cosine").select(["id", "_distance"]).limit(limit);
    if (projects) q = q.where(inList("project", projects));
    const rows = (await q.toArray()) as { id: string; _distance: number }[];
    return rows.map((r) => ({ id: r.id, similarity: 1 - r._distance }));
  }

  /**
   * Compacts small fragments into larger files. Old versions are pruned only when `pruneBefore` is
   * given (LanceDB's own default keeps a week), since a concurrent reader may still hold one.
   */
  async optimize(name: string, pruneBefore?: Date): Promise<OptimizeStats> {
    return (await this.table(name)).optimize(pruneBefore ? { cleanupOlderThan: pruneBefore } : {});
  }

  /** The table's fragments (one per write until compacted), and how many of them LanceDB counts as small. */
  async fragments(name: string): Promise<{ all: number; small: number }> {
    const f = (await (await this.table(name)).stats()).fragmentStats;
    return { all: f.numFragments, small: f.numSmallFragments };
  }

  /** How many versions of the table are kept on disk (each write makes one; `optimize` with a date prunes them). */
  async versions(name: string): Promise<number> {
    return (await (await this.table(name)).listVersions()).length;
  }

  async drop(name: string): Promise<void> {
    this.tables.get(name)?.close();
    this.tables.delete(name);
    await this.conn.dropTable(name);
  }

  close(): void {
    for (const t of this.tables.values()) t.close();
    this.tables.clear();
    this.conn.close();
  }
}
