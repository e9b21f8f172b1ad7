import { readFileSync } from "node:fs";

/**
 * Reads records straight out of a SQLite file's b-tree leaf pages, without SQLite: what is left
 * to salvage when the schema page itself is garbage and SQLite will not open the file. Pages the
 * WAL holds newer copies of are taken from the WAL (up to its last commit). Damaged pages and
 * cells are skipped. Freed pages may still hold old rows: callers keep the newest of duplicates.
 */

export type Value = null | number | bigint | string | Buffer;

export interface RawRecord {
  /** The rowid for a table b-tree leaf; undefined for an index leaf (WITHOUT ROWID tables live there). */
  rowid?: number;
  values: Value[];
}

function varint(b: Buffer, at: number): [bigint, number] {
  let v = 0n;
  for (let i = 0; i < 8; i++) {
    const byte = b[at + i];
    if (byte === undefined) throw new Error("varint past the end");
    v = (v << 7n) | BigInt(byte & 0x7f);
    if ((byte & 0x80) === 0) return [v, i + 1];
  }
  const last = b[at + 8];
  if (last === undefined) throw new Error("varint past the end");
  return [BigInt.asIntN(64, (v << 8n) | BigInt(last)), 9];
}

function decodeRecord(p: Buffer): Value[] {
  const [hsize, n0] = varint(p, 0);
  const headerEnd = Number(hsize);
  if (headerEnd < n0 || headerEnd > p.length) throw new Error("bad record header");
  const types: number[] = [];
  for (let at = n0; at < headerEnd; ) {
    const [t, n] = varint(p, at);
    types.push(Number(t));
    at += n;
  }
  const out: Value[] = [];
  let at = headerEnd;
  const int = (len: number): number | bigint => {
    if (at + len > p.length) throw new Error("record past its payload");
    const v = BigInt.asIntN(len * 8, BigInt(`0x${p.subarray(at, at + len).toString("hex")}`));
    at += len;
    return Number.isSafeInteger(Number(v)) ? Number(v) : v;
  };
  for (const t of types) {
    if (t === 0) out.push(null);
    else if (t >= 1 && t <= 6) out.push(int([0, 1, 2, 3, 4, 6, 8][t]!));
    else if (t === 7) {
      if (at + 8 > p.length) throw new Error("record past its payload");
      out.push(p.readDoubleBE(at));
      at += 8;
    } else if (t === 8 || t === 9) out.push(t - 8);
    else if (t >= 12) {
      const len = t % 2 === 0 ? (t - 12) / 2 : (t - 13) / 2;
      if (at + len > p.length) throw new Error("record past its payload");
      const bytes = p.subarray(at, at + len);
      out.push(t % 2 === 0 ? Buffer.from(bytes) : bytes.toString("utf8"));
      at += len;
    } else throw new Error(`bad serial type ${t}`);
  }
  return out;
}

/** The pages of the file, with the WAL's committed copies laid over them. */
function loadPages(path: string): { page: (n: number) => Buffer | undefined; count: number; size: number } {
  const main = readFileSync(path);
  let size = main.length >= 100 ? main.readUInt16BE(16) : 0;
  if (size === 1) size = 65536;
  const valid = (s: number) => s >= 512 && s <= 65536 && (s & (s - 1)) === 0;
  const wal = new Map<number, Buffer>();
  try {
    const w = readFileSync(`${path}-wal`);
    const magic = w.length >= 32 ? w.readUInt32BE(0) : 0;
    const walSize = magic === 0x377f0682 || magic === 0x377f0683 ? w.readUInt32BE(8) : 0;
    if (valid(walSize)) {
      if (!valid(size)) size = walSize;
      const salt = w.subarray(16, 24);
      let pending = new Map<number, Buffer>();
      for (let at = 32; at + 24 + walSize <= w.length; at += 24 + walSize) {
        if (!w.subarray(at + 8, at + 16).equals(salt)) break; // frames of an older generation
        pending.set(w.readUInt32BE(at), w.subarray(at + 24, at + 24 + walSize));
        if (w.readUInt32BE(at + 4) !== 0) {
          for (const [k, v] of pending) wal.set(k, v); // a commit frame: its transaction counts
          pending = new Map();
        }
      }
    }
  } catch {
    // no WAL
  }
  if (!valid(size)) size = 4096; // the header is garbage too: SQLite's default
  const count = Math.max(Math.ceil(main.length / size), ...wal.keys());
  return { page: (n) => wal.get(n) ?? (n >= 1 && n * size <= main.length ? main.subarray((n - 1) * size, n * size) : undefined), count, size };
}

/** Every record of every table-leaf and index-leaf page that still parses. */
export function rawRecords(path: string): RawRecord[] {
  const { page, count, size } = loadPages(path);
  const usable = size; // mem never sets reserved bytes
  const out: RawRecord[] = [];
  const payloadOf = (pg: Buffer, at: number, total: number, index: boolean): Buffer => {
    const x = index ? Math.floor(((usable - 12) * 64) / 255) - 23 : usable - 35;
    if (total <= x) return pg.subarray(at, at + total);
    const m = Math.floor(((usable - 12) * 32) / 255) - 23;
    const k = m + ((total - m) % (usable - 4));
    const local = k <= x ? k : m;
    const parts = [pg.subarray(at, at + local)];
    let left = total - local;
    let next = pg.readUInt32BE(at + local);
    for (let hops = 0; left > 0 && next > 0 && hops < 100_000; hops++) {
      const ov = page(next);
      if (!ov) throw new Error("overflow page missing");
      const take = Math.min(left, usable - 4);
      parts.push(ov.subarray(4, 4 + take));
      left -= take;
      next = ov.readUInt32BE(0);
    }
    if (left > 0) throw new Error("overflow chain cut short");
    return Buffer.concat(parts);
  };
  for (let n = 1; n <= count; n++) {
    const pg = page(n);
    if (!pg || pg.length < size) continue;
    const h = n === 1 ? 100 : 0;
    const type = pg[h];
    // Table leaves, index leaves, and index interior pages: an index b-tree (a WITHOUT ROWID table)
    // keeps each of its entries once, some of them on its interior pages.
    if (type !== 0x0d && type !== 0x0a && type !== 0x02) continue;
    const head = type === 0x02 ? 12 : 8;
    const cells = pg.readUInt16BE(h + 3);
    for (let i = 0; i < cells && h + head + 2 * i + 2 <= size; i++) {
      try {
        const cell = pg.readUInt16BE(h + head + 2 * i);
        if (cell < h + head || cell >= size) continue;
        const at = type === 0x02 ? cell + 4 : cell; // past the left child's page number
        const [total, n1] = varint(pg, at);
        if (total <= 0n || total > 1_000_000_000n) continue;
        if (type === 0x0d) {
          const [rowid, n2] = varint(pg, at + n1);
          out.push({ rowid: Number(rowid), values: decodeRecord(payloadOf(pg, at + n1 + n2, Number(total), false)) });
        } else out.push({ values: decodeRecord(payloadOf(pg, at + n1, Number(total), true)) });
      } catch {
        // a damaged cell: skip it
      }
    }
  }
  return out;
}
