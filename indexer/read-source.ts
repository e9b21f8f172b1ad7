/** Reading one source the walk found (./sources.ts) as the indexer takes it: UTF-8 text, or why not. */
import { readRegular } from "../src/util/read-regular.cjs";

export type ReadResult = { ok: true; text: string; size: number } | { ok: false; reason: string };

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a source as UTF-8 text, refusing huge, binary, non-UTF-8, unreadable and special files
 * (FIFOs, devices: never opened for a read that would not end) with a reason; with `wall` (a
 * walked file's), a file whose real path leaves it (a link swapped in since the walk) too.
 */
export function readSource(path: string, maxBytes: number, wall?: string): ReadResult {
  const r = readRegular(path, maxBytes, wall === undefined ? {} : { within: wall });
  if (!r.ok) {
    if (r.why === "too-large") return { ok: false, reason: `too large (${r.size} bytes, limit ${maxBytes}; raise index.maxFileBytes to include it)` };
    return { ok: false, reason: r.why === "absent" ? "unreadable (ENOENT)" : r.reason };
  }
  const buf = r.data;
  if (buf.subarray(0, 8192).includes(0)) return { ok: false, reason: "binary content (NUL bytes)" };
  try {
    return { ok: true, text: utf8.decode(buf), size: buf.length };
  } catch {
    return { ok: false, reason: "not valid UTF-8" };
  }
}
