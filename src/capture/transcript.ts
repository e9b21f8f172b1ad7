/**
 * Incremental reader for Claude Code transcript JSONL files (append-only, can exceed 100 MB).
 * Reads from a byte offset in bounded chunks, returns only complete lines, and leaves a partial
 * last line for the next call. Malformed lines are skipped and counted, never thrown.
 */
import { closeSync, readSync } from "node:fs";
import { truncateDeep } from "../util/json-depth.cjs";
import { openRegular } from "../util/read-regular.cjs";
import type { TranscriptLine } from "../store/event-types.js";

export interface ParsedLines {
  lines: TranscriptLine[];
  /** Non-empty lines that were not a JSON object. */
  skipped: number;
}

export interface ReadResult extends ParsedLines {
  /** Byte offset to pass next time: just after the last complete line consumed. */
  nextOffset: number;
  /** True when `offset` was past the end of the file (replaced or truncated); reading restarted at 0. */
  restarted: boolean;
  /** True when the byte budget stopped the read before the end of the file: call again. */
  more: boolean;
  /** Set when the path is not a regular file (a FIFO, a device, a directory) or cannot be opened: nothing was read. */
  refused?: string;
}

export interface ReadOptions {
  /** Stop after consuming about this many bytes of complete lines (default 8 MiB; parsed objects take a few times more). */
  maxBytes?: number;
  /** Lines longer than this are skipped (counted) without being held in memory (default 64 MiB). */
  maxLineBytes?: number;
  /** Size of each read (default 1 MiB). */
  chunkBytes?: number;
  /** Also consume a final line that has no trailing newline (use when the file is known complete). */
  includePartial?: boolean;
}

const NL = 0x0a;

/** Parses one line (nesting past MAX_JSON_DEPTH cut to a marker); undefined for blank lines, null for malformed ones. */
function parseLine(raw: string): TranscriptLine | null | undefined {
  const s = raw.trim();
  if (s === "") return undefined;
  try {
    const v: unknown = JSON.parse(s.charCodeAt(0) === 0xfeff ? s.slice(1) : s);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? truncateDeep(v as TranscriptLine) : null;
  } catch {
    return null;
  }
}

/** Pure: parses every line of `text` (a final line without newline included). */
export function parseTranscriptLines(text: string): ParsedLines {
  const lines: TranscriptLine[] = [];
  let skipped = 0;
  for (const raw of text.split("\n")) {
    const v = parseLine(raw);
    if (v === null) skipped++;
    else if (v !== undefined) lines.push(v);
  }
  return { lines, skipped };
}

/**
 * Reads the complete lines of `path` from byte `offset`. A missing file reads as empty; anything
 * but a regular file reads as empty with `refused` saying what it is.
 * Loop while `more` is true to drain a large file with bounded memory per call.
 */
export function readTranscriptFrom(path: string, offset: number, opts: ReadOptions = {}): ReadResult {
  const maxBytes = opts.maxBytes ?? 8 * 1024 * 1024;
  const maxLine = opts.maxLineBytes ?? 64 * 1024 * 1024;
  const chunkBytes = opts.chunkBytes ?? 1024 * 1024;
  const out: ReadResult = { lines: [], skipped: 0, nextOffset: offset, restarted: false, more: false };

  // Opened non-blocking and checked with fstat: a FIFO would otherwise block the open, and with
  // it the whole process, timers included.
  const opened = openRegular(path);
  if (!opened.ok) return opened.why === "absent" ? out : { ...out, refused: opened.reason };
  const { fd, size } = opened;
  try {
    let pos = Math.max(0, Math.floor(offset));
    if (pos > size) {
      pos = 0;
      out.restarted = true;
    }
    out.nextOffset = pos;
    const startPos = pos;
    const buf = Buffer.allocUnsafe(chunkBytes);
    let pending: Buffer[] = []; // pieces of the current, not yet terminated line
    let pendingLen = 0;
    let oversized = false; // current line exceeded maxLine: drop bytes until its newline

    const finishLine = (tail: Buffer, endOffset: number): void => {
      if (oversized) out.skipped++;
      else {
        const whole = pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
        const v = parseLine(whole.toString("utf8"));
        if (v === null) out.skipped++;
        else if (v !== undefined) out.lines.push(v);
      }
      pending = [];
      pendingLen = 0;
      oversized = false;
      out.nextOffset = endOffset;
    };

    while (pos < size) {
      if (out.nextOffset - startPos >= maxBytes) {
        out.more = true;
        break;
      }
      const n = readSync(fd, buf, 0, Math.min(chunkBytes, size - pos), pos);
      if (n <= 0) break;
      let start = 0;
      for (let i = buf.indexOf(NL, 0); i !== -1 && i < n; i = buf.indexOf(NL, i + 1)) {
        finishLine(buf.subarray(start, i), pos + i + 1);
        start = i + 1;
      }
      if (start < n && !oversized) {
        pendingLen += n - start;
        if (pendingLen > maxLine) {
          oversized = true;
          pending = [];
        } else pending.push(Buffer.from(buf.subarray(start, n))); // copy: buf is reused
      }
      pos += n;
    }
    if (!out.more && opts.includePartial && pos >= size && (pendingLen > 0 || oversized)) {
      finishLine(Buffer.alloc(0), size);
    }
    // An oversized partial line stays unconsumed: nextOffset still points at its start.
    return out;
  } finally {
    closeSync(fd);
  }
}
