import { checkFtsIntegrity } from "../store/chunks.js";
import type { Db } from "../store/db.js";
import { damageReason, isStoreDamage } from "../store/damage.js";
import type { VecTableRow } from "../store/vec-state.js";
import type { VectorStore } from "../store/vectors.js";

/**
 * Health of the two stores, read only. SQLite: quick_check and the FTS5 index's own check.
 * LanceDB: every row of every table read (all columns, in batches), so garbage in a data file is
 * found even where the row count and a top-1 search still look fine.
 */

export interface SqliteHealth {
  status: "ok" | "damaged";
  /** quick_check's findings, or the error that stopped it. */
  reason?: string;
  /** The FTS5 index is inconsistent with the chunks (the tables themselves read fine). */
  ftsProblem?: string;
  chunks?: number;
}

export function checkSqlite(db: Db): SqliteHealth {
  try {
    const rows = db.pragma("quick_check(20)") as { quick_check: string }[];
    const findings = rows.map((r) => r.quick_check);
    if (findings.length !== 1 || findings[0] !== "ok") return { status: "damaged", reason: `SQLite's quick_check found damaged pages: ${findings.slice(0, 3).join("; ")}${findings.length > 3 ? "; …" : ""}` };
    const chunks = db.prepare("SELECT count(*) FROM chunks").pluck().get() as number;
    try {
      checkFtsIntegrity(db);
      return { status: "ok", chunks };
    } catch (err) {
      return { status: "ok", chunks, ftsProblem: (err as Error).message };
    }
  } catch (err) {
    return { status: "damaged", reason: isStoreDamage(err) ? damageReason(err) : (err as Error).message };
  }
}

export interface TableHealth {
  name: string;
  status: "ok" | "damaged" | "missing";
  rows: number;
  dims?: number;
  /** Rows SQLite records for the table (when the SQLite store could be read). */
  recorded?: number;
  reason?: string;
  ms: number;
}

const CHUNK_ID = /^[0-9a-f]{32}$/;

interface Column {
  get(i: number): unknown;
}
interface Batch {
  numRows: number;
  getChild(name: string): Column | null;
}

/** Why a row is not one mem wrote: undefined when it is. Vectors are unit length (or zero) and finite. */
function badRow(id: unknown, project: unknown, vector: unknown, dims: number | undefined): string | undefined {
  if (typeof id !== "string" || !CHUNK_ID.test(id)) return "a row id that is not a chunk id";
  if (typeof project !== "string" || project === "") return "a row with no project";
  const v = vector as { length?: number; toArray?: () => ArrayLike<number> } | null;
  if (!v || typeof v.toArray !== "function") return "a row with no vector";
  const xs = v.toArray();
  if (dims !== undefined && xs.length !== dims) return `a vector of ${xs.length} dimensions, not ${dims}`;
  let sum = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    if (!Number.isFinite(x)) return "a vector holding a value that is not a finite number";
    sum += x * x;
  }
  if (sum !== 0 && Math.abs(Math.sqrt(sum) - 1) > 1e-3) return `a vector of length ${Math.sqrt(sum).toPrecision(4)} (mem stores unit vectors)`;
  return undefined;
}

/** Reads every row of one table; throws (or returns a reason) when it is damaged. */
async function scanTable(store: VectorStore, name: string, dims: number | undefined): Promise<{ rows: number; dims?: number; reason?: string }> {
  const t = await store.table(name);
  const expected = await t.countRows();
  let rows = 0;
  let seenDims = dims;
  for await (const b of t.query().select(["id", "project", "vector"]) as AsyncIterable<Batch>) {
    const id = b.getChild("id");
    const project = b.getChild("project");
    const vector = b.getChild("vector");
    if (!id || !project || !vector) return { rows, reason: "columns id, project and vector are not all there" };
    for (let i = 0; i < b.numRows; i++) {
      const v = vector.get(i) as { length?: number } | null;
      seenDims ??= v?.length;
      const bad = badRow(id.get(i), project.get(i), v, seenDims);
      if (bad) return { rows: rows + i, reason: `row ${rows + i + 1} of ${expected} is garbage (${bad})` };
    }
    rows += b.numRows;
  }
  if (rows !== expected) return { rows, reason: `${rows} rows read, ${expected} counted` };
  return { rows, ...(seenDims !== undefined ? { dims: seenDims } : {}) };
}

/**
 * Scans every vector table LanceDB lists, and every table SQLite records (`recorded`, undefined
 * when SQLite could not be read). `countOf` gives SQLite's row count of a recorded table.
 */
export async function scanVectorTables(store: VectorStore, recorded: VecTableRow[] | undefined, countOf: (table: string) => number): Promise<TableHealth[]> {
  const listed = await store.list();
  const names = [...new Set([...(recorded ?? []).map((t) => t.name), ...listed])].sort();
  const out: TableHealth[] = [];
  for (const name of names) {
    const t0 = performance.now();
    const rec = recorded?.find((t) => t.name === name);
    const count = rec ? countOf(name) : undefined;
    const base = { name, ...(count !== undefined ? { recorded: count } : {}) };
    if (!listed.includes(name)) {
      out.push({ ...base, status: "missing", rows: 0, ms: 0 });
      continue;
    }
    try {
      const r = await scanTable(store, name, rec?.dims);
      out.push({ ...base, status: r.reason ? "damaged" : "ok", rows: r.rows, ...(r.dims !== undefined ? { dims: r.dims } : {}), ...(r.reason ? { reason: r.reason } : {}), ms: performance.now() - t0 });
    } catch (err) {
      out.push({ ...base, status: "damaged", rows: 0, reason: `unreadable: ${(err as Error).message.split("\n")[0]}`, ms: performance.now() - t0 });
    }
  }
  return out;
}
