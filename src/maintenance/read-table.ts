import type Database from "better-sqlite3";

export type Row = Record<string, unknown>;

/** Reads a rowid table, stepping over unreadable pages; returns the rows and how many reads failed. */
export function readTable(db: Database.Database, table: string): { rows: Row[]; failures: number } {
  const rows: Row[] = [];
  let failures = 0;
  let from = Number.MIN_SAFE_INTEGER;
  const scan = db.prepare(`SELECT rowid AS _rowid_, * FROM ${table} WHERE rowid > ? ORDER BY rowid`);
  const probe = db.prepare(`SELECT rowid FROM ${table} WHERE rowid >= ? ORDER BY rowid LIMIT 1`).pluck();
  const readable = (x: number): boolean | "end" => {
    try {
      return probe.get(x) === undefined ? "end" : true;
    } catch {
      return false;
    }
  };
  for (;;) {
    try {
      for (const r of scan.iterate(from) as IterableIterator<Row>) {
        rows.push(r);
        from = r._rowid_ as number;
      }
      return { rows, failures };
    } catch {
      failures++;
    }
    if (from === Number.MIN_SAFE_INTEGER) from = 0;
    const stuck = from;
    // Past the damage: the first rowid whose page reads again (stride doubling, then bisection back).
    let step = 1;
    let ok: boolean | "end" = false;
    while (step < 2 ** 52 && !(ok = readable(from + step))) step *= 2;
    if (ok !== true) return { rows, failures };
    let lo = from + Math.floor(step / 2);
    let hi = from + step;
    while (hi - lo > 1) {
      const mid = lo + Math.floor((hi - lo) / 2);
      if (readable(mid) === true) hi = mid;
      else lo = mid;
    }
    from = Math.max(hi - 1, stuck + 1); // always onwards: a row whose own payload fails is stepped over
  }
}
