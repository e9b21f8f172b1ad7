import Database from "better-sqlite3";
import { closeSync, openSync, readdirSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { prng } from "../../scripts/prng.js";

/** Deterministic garbage: `n` pseudo-random bytes. */
export function garbage(n: number, seed = 7): Buffer {
  const next = prng(seed);
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = Math.floor(next() * 256);
  return b;
}

/** Overwrites `length` bytes of `file` at `offset` with garbage. */
export function overwrite(file: string, offset: number, length: number, seed = 7): void {
  const fd = openSync(file, "r+");
  try {
    writeSync(fd, garbage(length, seed), 0, length, offset);
  } finally {
    closeSync(fd);
  }
}

/** The pages (1-based) of each b-tree in a (healthy, closed) SQLite file, from SQLite's dbstat. */
export function pagesByName(file: string): Map<string, number[]> {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare("SELECT name, pageno FROM dbstat ORDER BY pageno").all() as { name: string; pageno: number }[];
    const m = new Map<string, number[]>();
    for (const r of rows) m.set(r.name, [...(m.get(r.name) ?? []), r.pageno]);
    return m;
  } finally {
    db.close();
  }
}

/** Overwrites whole pages (1-based numbers) of a SQLite file with garbage. Page 1 keeps its 100-byte file header. */
export function damagePages(file: string, pages: number[], pageSize = 4096): void {
  pages.forEach((p, i) => {
    const start = (p - 1) * pageSize + (p === 1 ? 100 : 0);
    overwrite(file, start, p * pageSize - start, 100 + i);
  });
}

/** Folds the WAL into the main file (so damage to the file is all there is). */
export function checkpoint(file: string): void {
  const db = new Database(file);
  try {
    db.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
}

/** The largest data file of a LanceDB table directory (`<vectors>/<table>.lance`). */
export function lanceDataFile(tableDir: string): string {
  const dir = join(tableDir, "data");
  const files = readdirSync(dir).map((f) => join(dir, f));
  return files.sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
}
