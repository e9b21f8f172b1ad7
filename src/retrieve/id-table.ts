/**
 * The ids of a code copy's rows (./code-rows.ts), packed: every id's UTF-8 bytes in one buffer, in
 * row order, and an open-addressing hash of typed arrays from id to row. At 1M rows of 32-character
 * ids that is about 45 bytes a row, against about 130 for an array of strings and a Map (measured:
 * docs/benchmarks.md, Scale). Rows are added in increasing order; a row is removed, or moved to a
 * lower row by the compaction, one at a time: each step leaves the table whole.
 */
const EMPTY = 0; // a slot holds row + 1

export class IdTable {
  private heap: Buffer;
  private used = 0;
  private start: Uint32Array;
  private len: Uint16Array;
  private slots: Int32Array;
  private mask: number;
  private readonly scratch = Buffer.alloc(1024);

  constructor(capacity: number, bytesPerId = 32) {
    this.heap = Buffer.alloc(Math.max(1024, capacity * bytesPerId));
    this.start = new Uint32Array(capacity);
    this.len = new Uint16Array(capacity);
    this.slots = new Int32Array(IdTable.slotsFor(capacity));
    this.mask = this.slots.length - 1;
  }

  private static slotsFor(capacity: number): number {
    let n = 1024;
    while (n < capacity * 2) n *= 2;
    return n;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.heap.length + this.start.byteLength + this.len.byteLength + this.slots.byteLength;
  }

  /** Room for `capacity` rows (the rows held keep their numbers). */
  grow(capacity: number): void {
    if (capacity <= this.start.length) return;
    const start = new Uint32Array(capacity);
    start.set(this.start);
    const len = new Uint16Array(capacity);
    len.set(this.len);
    this.start = start;
    this.len = len;
    const old = this.slots;
    this.slots = new Int32Array(IdTable.slotsFor(capacity));
    this.mask = this.slots.length - 1;
    for (const v of old) if (v !== EMPTY) this.slots[this.free(this.hashAt(this.start[v - 1]!, this.len[v - 1]!))] = v;
  }

  /** The row of `id`, if held. */
  get(id: string): number | undefined {
    const [buf, n] = this.encode(id);
    for (let s = this.hashAt(0, n, buf) & this.mask; ; s = (s + 1) & this.mask) {
      const v = this.slots[s]!;
      if (v === EMPTY) return undefined;
      if (this.len[v - 1] === n && buf.compare(this.heap, this.start[v - 1]!, this.start[v - 1]! + n, 0, n) === 0) return v - 1;
    }
  }

  idOf(row: number): string {
    const s = this.start[row]!;
    return this.heap.toString("utf8", s, s + this.len[row]!);
  }

  /**
   * `id` as row `row` (above every row held). Returns the row that held it before, if any: that
   * row no longer answers to it (the caller marks it dead).
   */
  add(row: number, id: string): number | undefined {
    const n = Buffer.byteLength(id, "utf8");
    if (n > 0xffff) throw new Error(`an id of ${n} bytes is too long`);
    if (row >= this.start.length) throw new Error(`row ${row} is past the table's room (${this.start.length}): grow it first`);
    if (this.used + n > this.heap.length) {
      const heap = Buffer.alloc(Math.max(this.heap.length * 2, this.used + n));
      this.heap.copy(heap, 0, 0, this.used);
      this.heap = heap;
    }
    this.heap.write(id, this.used, n, "utf8");
    this.start[row] = this.used;
    this.len[row] = n;
    this.used += n;
    let s = this.hashAt(this.start[row]!, n) & this.mask;
    for (; this.slots[s] !== EMPTY; s = (s + 1) & this.mask) {
      const v = this.slots[s]!;
      if (this.len[v - 1] === n && this.heap.compare(this.heap, this.start[v - 1]!, this.start[v - 1]! + n, this.start[row]!, this.start[row]! + n) === 0) {
        this.slots[s] = row + 1;
        return v - 1;
      }
    }
    this.slots[s] = row + 1;
    return undefined;
  }

  /** Row `row` answers to its id no longer (its bytes stay until the compaction). */
  remove(row: number): void {
    const s = this.slotOf(row);
    if (s === undefined) return;
    // Deletion from linear probing without tombstones: later entries of the run move back.
    let hole = s;
    this.slots[hole] = EMPTY;
    for (let j = (hole + 1) & this.mask; this.slots[j] !== EMPTY; j = (j + 1) & this.mask) {
      const v = this.slots[j]!;
      const home = this.hashAt(this.start[v - 1]!, this.len[v - 1]!) & this.mask;
      // Move v back into the hole unless its home lies cyclically in (hole, j].
      const between = hole <= j ? home > hole && home <= j : home > hole || home <= j;
      if (!between) {
        this.slots[hole] = v;
        this.slots[j] = EMPTY;
        hole = j;
      }
    }
  }

  /**
   * Row `from`'s id as row `to` (below it; every row between is dead), its bytes moved to `at` in
   * the buffer (at most where they are). For the compaction; returns where the next row's go.
   */
  move(from: number, to: number, at: number): number {
    const s = this.start[from]!;
    const n = this.len[from]!;
    const slot = this.slotOf(from);
    this.heap.copyWithin(at, s, s + n);
    this.start[to] = at;
    this.len[to] = n;
    if (slot !== undefined) this.slots[slot] = to + 1;
    return at + n;
  }

  /** After a compaction: the buffer holds ids up to `used`. */
  truncate(used: number): void {
    this.used = used;
  }

  /** Where the bytes of `row` end (the compaction moves the next live row's there). */
  endOf(row: number): number {
    return this.start[row]! + this.len[row]!;
  }

  private slotOf(row: number): number | undefined {
    for (let s = this.hashAt(this.start[row]!, this.len[row]!) & this.mask; this.slots[s] !== EMPTY; s = (s + 1) & this.mask) if (this.slots[s] === row + 1) return s;
    return undefined;
  }

  private free(home: number): number {
    let s = home & this.mask;
    while (this.slots[s] !== EMPTY) s = (s + 1) & this.mask;
    return s;
  }

  private encode(id: string): [Buffer, number] {
    const n = Buffer.byteLength(id, "utf8");
    if (n <= this.scratch.length) return [this.scratch, this.scratch.write(id, 0, "utf8")];
    return [Buffer.from(id, "utf8"), n];
  }

  /** FNV-1a of `n` bytes of `buf` (the heap by default) from `at`. */
  private hashAt(at: number, n: number, buf: Buffer = this.heap): number {
    let h = 0x811c9dc5;
    for (let i = at; i < at + n; i++) h = Math.imul(h ^ buf[i]!, 0x01000193);
    return h >>> 0;
  }
}
