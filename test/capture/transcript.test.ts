import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseTranscriptLines, readTranscriptFrom, type ReadOptions } from "../../src/capture/transcript.js";
import type { TranscriptLine } from "../../src/store/event-types.js";
import { SKIP, SPOTTER, spotterSessions } from "./shared-data.js";

const dir = mkdtempSync(join(tmpdir(), "mem-capture-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = (content: string | Buffer = ""): string => {
  const p = join(dir, `t${n++}.jsonl`);
  writeFileSync(p, content);
  return p;
};

/** Reads `path` to the end from `offset`, call after call, as a tail would. */
function drain(path: string, offset = 0, opts?: ReadOptions): { lines: TranscriptLine[]; skipped: number; offset: number; calls: number } {
  const lines: TranscriptLine[] = [];
  let skipped = 0;
  let calls = 0;
  for (;;) {
    const r = readTranscriptFrom(path, offset, opts);
    calls++;
    lines.push(...r.lines);
    skipped += r.skipped;
    assert.ok(r.nextOffset >= offset, "offsets never go back");
    offset = r.nextOffset;
    if (!r.more) return { lines, skipped, offset, calls };
  }
}

const rec = (i: number): string => `${JSON.stringify({ type: "user", uuid: `u${i}`, text: "é✓ ".repeat(i % 7) })}\n`;

describe("incremental transcript reader", () => {
  test("appending in chunks, with a partial last line each time, yields exactly the lines of one read", () => {
    const all = Array.from({ length: 200 }, (_, i) => rec(i)).join("");
    const bytes = Buffer.from(all, "utf8");
    const p = file();
    let offset = 0;
    const got: TranscriptLine[] = [];
    // Cut at awkward byte positions, including inside multi-byte characters.
    for (let cut = 0; cut < bytes.length; ) {
      const next = Math.min(bytes.length, cut + 97 + (cut % 13));
      appendFileSync(p, bytes.subarray(cut, next));
      cut = next;
      const r = readTranscriptFrom(p, offset, { chunkBytes: 64 });
      got.push(...r.lines);
      assert.equal(r.skipped, 0);
      // nextOffset always sits just after a newline (or at the start).
      assert.ok(r.nextOffset === 0 || bytes[r.nextOffset - 1] === 0x0a);
      assert.ok(r.nextOffset <= next);
      offset = r.nextOffset;
    }
    assert.equal(offset, bytes.length);
    assert.deepEqual(got, parseTranscriptLines(all).lines);
    assert.equal(got.length, 200);
  });

  test("a partial last line is left for next time; includePartial takes it", () => {
    const p = file('{"a":1}\n{"b":');
    const r1 = readTranscriptFrom(p, 0);
    assert.deepEqual(r1.lines, [{ a: 1 }]);
    assert.equal(r1.nextOffset, 8);
    assert.deepEqual(readTranscriptFrom(p, 8).lines, []);
    appendFileSync(p, '2}\n{"c":3}');
    const r2 = readTranscriptFrom(p, 8);
    assert.deepEqual(r2.lines, [{ b: 2 }]);
    const r3 = readTranscriptFrom(p, r2.nextOffset, { includePartial: true });
    assert.deepEqual(r3.lines, [{ c: 3 }]);
    assert.equal(r3.nextOffset, statSync(p).size);
  });

  test("malformed lines are skipped and counted; blank lines and CRLF are fine", () => {
    const p = file('{"a":1}\r\nnot json\n\n  \n[1,2]\n"str"\nnull\n{"b":2}\n{"trunc\n\uFEFF{"c":3}\n');
    const r = readTranscriptFrom(p, 0);
    assert.deepEqual(r.lines, [{ a: 1 }, { b: 2 }, { c: 3 }]);
    assert.equal(r.skipped, 5);
    assert.equal(parseTranscriptLines(readFileSync(p, "utf8")).skipped, 5);
  });

  test("a byte budget splits a big read into bounded calls with the same result", () => {
    const all = Array.from({ length: 300 }, (_, i) => rec(i)).join("");
    const p = file(all);
    const once = drain(p);
    assert.equal(once.calls, 1);
    const bounded = drain(p, 0, { maxBytes: 1000, chunkBytes: 256 });
    assert.ok(bounded.calls > 10);
    assert.deepEqual(bounded.lines, once.lines);
    assert.equal(bounded.offset, Buffer.byteLength(all));
  });

  test("an over-long line is skipped without holding it, the rest is read", () => {
    const long = JSON.stringify({ big: "x".repeat(5000) });
    const p = file(`{"a":1}\n${long}\n{"b":2}\n`);
    const r = readTranscriptFrom(p, 0, { maxLineBytes: 1000, chunkBytes: 256 });
    assert.deepEqual(r.lines, [{ a: 1 }, { b: 2 }]);
    assert.equal(r.skipped, 1);
  });

  test("a missing file reads as empty; an offset past the end restarts at 0", () => {
    const missing = readTranscriptFrom(join(dir, "nope.jsonl"), 42);
    assert.deepEqual([missing.lines, missing.nextOffset], [[], 42]);
    const p = file('{"a":1}\n');
    const r = readTranscriptFrom(p, 10_000);
    assert.equal(r.restarted, true);
    assert.deepEqual(r.lines, [{ a: 1 }]);
  });

  test("real transcripts: reading in 1 MiB-bounded steps equals parsing the whole file", { skip: SKIP }, () => {
    const s = spotterSessions().find((x) => x.main)!;
    const whole = parseTranscriptLines(readFileSync(s.main!, "utf8"));
    const stepped = drain(s.main!, 0, { maxBytes: 1 << 20, chunkBytes: 1 << 16 });
    assert.ok(stepped.calls >= 3, `${SPOTTER}: ${stepped.calls} calls`);
    assert.equal(stepped.skipped, whole.skipped);
    assert.deepEqual(stepped.lines, whole.lines);
  });
});
