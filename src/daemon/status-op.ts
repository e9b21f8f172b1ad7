import type { VectorCopies } from "../retrieve/vector-copies.js";

/** What the daemon's process holds, for `status`: its resident set and V8 heap, and the bytes of the vector copies in it. */
export interface DaemonMemory {
  /** Resident set size (process.memoryUsage().rss), bytes. */
  rss: number;
  /** The V8 heap in use, bytes. */
  heapUsed: number;
  /** The vectors the in-memory copies hold (float32 or codes), bytes. */
  vectorBytes: number;
  /** Memory outside the V8 heap that JS objects hold (array buffers, the code copies' WebAssembly memory), bytes. */
  external: number;
  /** The code copies' int8 rows kept in files (in the page cache, not in the RSS), bytes. */
  vectorFileBytes: number;
}

/** The memory part of the daemon's `status` reply. */
export function daemonMemory(copies: ReturnType<VectorCopies["status"]>): DaemonMemory {
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, vectorBytes: copies.reduce((sum, c) => sum + c.bytes, 0), external: m.external, vectorFileBytes: copies.reduce((sum, c) => sum + c.fileBytes, 0) };
}
