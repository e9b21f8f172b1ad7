import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { chunkCapturedEvents, MAX_CAPTURED_CHARS } from "../../indexer/captured.js";
import { chunksOf } from "../../indexer/file-chunks.js";
import { defaultConfig } from "../../src/config/config.js";
import { clean, cleanText } from "../../src/redact/clean.cjs";
import { ChunkStore } from "../../src/store/chunks.js";
import { openDb } from "../../src/store/db.js";
import { EventStore } from "../../src/store/events.js";
import { prng } from "../../scripts/prng.js";
import { chunkMarkdown, MAX_TITLE_CHARS, parseHeading } from "../../indexer/chunk.js";
import { maxChunkChars, type Chunk, type ChunkOptions } from "../../indexer/chunk-size.js";

const OPTS: ChunkOptions = { chunkTokens: 400, overlapTokens: 80, minChunkTokens: 64 };
const CAP = OPTS.chunkTokens * 4 * 2;

/** Every chunk within the cap, with a sane line range inside the file. */
function assertBounded(chunks: Chunk[], lineCount: number, cap = CAP): void {
  for (const c of chunks) {
    assert.ok(c.text.length <= cap, `a chunk of ${c.text.length} characters (cap ${cap}) at lines ${c.startLine}-${c.endLine}`);
    assert.ok(c.text.trim() !== "", "no blank chunk");
    assert.ok(1 <= c.startLine && c.startLine <= c.endLine && c.endLine <= lineCount, `lines ${c.startLine}-${c.endLine} of ${lineCount}`);
    for (const t of c.headingPath) assert.ok(t.length <= MAX_TITLE_CHARS + 1, `a heading title of ${t.length} characters`);
  }
}

/** Every non-blank line of `md` lies in some chunk's line range. */
function assertCovered(md: string, chunks: Chunk[]): void {
  const lines = md.split("\n");
  const covered = new Uint8Array(lines.length + 2);
  for (const c of chunks) covered.fill(1, c.startLine, c.endLine + 1);
  lines.forEach((l, i) => assert.ok(l.trim() === "" || covered[i + 1] === 1, `line ${i + 1} (${l.slice(0, 40)}) is in no chunk`));
}

describe("chunk sizes are bounded whatever the markdown", () => {
  test("the cap is twice the chunk size, in characters", () => {
    assert.equal(maxChunkChars(OPTS), CAP);
  });

  test("50,000 lines of headings only are cut into bounded chunks (not one of 200,000 characters), quickly", () => {
    const md = "# h\n".repeat(50_000);
    const started = Date.now();
    const chunks = chunkMarkdown(md, OPTS);
    assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
    assertBounded(chunks, 50_001);
    assertCovered(md, chunks);
    assert.equal(chunks.reduce((n, c) => n + c.text.split("\n").length, 0), 50_000, "every heading once: runs of headings are not overlapped");
    assert.ok(chunks.length >= 50_000 / OPTS.chunkTokens, `${chunks.length} chunks`);
  });

  test("headings-only runs between sections are cut too, and the sections keep their own chunks", () => {
    const deep = Array.from({ length: 3_000 }, (_, i) => `${"#".repeat((i % 6) + 1)} level ${i}`).join("\n");
    const md = `# Intro\n\nThe heron waits at the pond.\n\n${deep}\n\nThe kingfisher dives.\n`;
    const chunks = chunkMarkdown(md, OPTS);
    assertBounded(chunks, md.split("\n").length);
    assertCovered(md, chunks);
    assert.ok(chunks[0]!.text.includes("heron"));
    assert.deepEqual(chunks[0]!.headingPath, ["Intro"]);
    assert.ok(chunks[chunks.length - 1]!.text.includes("kingfisher"));
  });

  test("a heading line of a megabyte is cut at word boundaries, and titles in heading paths are bounded", () => {
    const md = `# ${"osprey ".repeat(150_000)}\n\nThe osprey nest is on the pylon.\n\n## Next\n\nShort.\n`;
    const chunks = chunkMarkdown(md, OPTS);
    assertBounded(chunks, md.split("\n").length);
    assert.ok(chunks.length > 1_000_000 / CAP, `${chunks.length} chunks`);
    assert.ok(chunks.some((c) => c.text.includes("nest is on the pylon")));
    const pieces = chunks.filter((c) => !/pylon|Short|Next/.test(c.text));
    for (const c of pieces) assert.ok(c.text.split(/\s+/).every((w) => w === "" || w === "#" || w === "osprey"), "cut between words");
    const title = chunks.find((c) => c.text.includes("pylon"))!.headingPath[0]!;
    assert.ok(title.startsWith("osprey osprey") && title.endsWith("…") && title.length === MAX_TITLE_CHARS + 1, title.slice(-20));
  });

  test("100,000 blank lines between two paragraphs make no giant chunk, and line numbers stay right", () => {
    const md = `# Notes\n\nThe first paragraph.\n${"\n".repeat(100_000)}The second paragraph.\n`;
    const chunks = chunkMarkdown(md, OPTS);
    assertBounded(chunks, md.split("\n").length);
    const second = chunks.find((c) => c.text.includes("second paragraph"))!;
    assert.equal(second.startLine, 100_004);
    assert.equal(second.endLine, 100_004);
    assert.equal(second.text, "The second paragraph.");
    assert.ok(chunks.find((c) => c.text.includes("first paragraph"))!.text.length < 100);
  });

  test("random hostile markdown (heading runs, blank runs, long lines, open fences) never yields a chunk over the cap", () => {
    const rand = prng(20260101);
    const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
    const word = () => pick(["gull", "tern", "skua", "auk", "x".repeat(1 + Math.floor(rand() * 3000))]);
    for (let doc = 0; doc < 40; doc++) {
      const opts = pick<ChunkOptions>([OPTS, { chunkTokens: 50, overlapTokens: 10, minChunkTokens: 20 }, { chunkTokens: 16, overlapTokens: 4, minChunkTokens: 0 }]);
      const parts: string[] = [];
      for (let i = 0; i < 200; i++) {
        const r = rand();
        if (r < 0.3) parts.push(`${"#".repeat(1 + Math.floor(rand() * 6))} ${word()}`);
        else if (r < 0.4) parts.push(pick(["\n", "\t", " "]).repeat(Math.floor(rand() * 3000)));
        else if (r < 0.45) parts.push(pick(["```", "~~~~", "- item", "1. step"]));
        else parts.push(Array.from({ length: 1 + Math.floor(rand() * 30) }, word).join(rand() < 0.9 ? " " : ""));
      }
      const md = parts.join("\n");
      const chunks = chunkMarkdown(md, opts);
      assertBounded(chunks, md.split("\n").length, maxChunkChars(opts));
      assertCovered(md, chunks);
    }
  });

  test("heading lines are recognised as the ATX expression recognises them, in linear time on long runs of spaces", () => {
    const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
    const alphabet = [" ", "\t", "#", "a", "\r"];
    let checked = 0;
    const visit = (s: string, left: number): void => {
      for (const line of [s, `#${s}`, `## ${s}`]) {
        const m = ATX.exec(line);
        assert.deepEqual(parseHeading(line), m ? { level: m[1]!.length, title: (m[2] ?? "").trim() } : undefined, JSON.stringify(line));
        checked++;
      }
      if (left > 0) for (const c of alphabet) visit(s + c, left - 1);
    };
    visit("", 7);
    assert.ok(checked > 200_000);
    const started = Date.now();
    assert.deepEqual(parseHeading(`# a${" ".repeat(1_000_000)}b`), { level: 1, title: `a${" ".repeat(MAX_TITLE_CHARS - 1)}…` });
    const md = `# a${" ".repeat(400_000)}x\n\nbody\n`;
    assertBounded(chunkMarkdown(md, OPTS), 4);
    assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms (the expression takes minutes)`);
  });
});

describe("event chunks are bounded too", () => {
  test("an event log line with a huge text or file list is indexed truncated to the cap, with a warning naming the line", () => {
    const config = defaultConfig();
    const warnings: string[] = [];
    const huge = JSON.stringify({ type: "decision", text: "We chose SQLite. ".repeat(1_000), files: Array.from({ length: 100 }, (_, i) => `src/very/long/path/number/${i}/${"x".repeat(150)}.ts`) });
    const small = JSON.stringify({ type: "decision", text: "We chose WAL mode." });
    const { chunks } = chunksOf({ path: "/p/ops.events.jsonl", rel: "ops.events.jsonl", kind: "events" }, `${small}\n${huge}\n`, "p", config, (w) => warnings.push(w));
    assert.equal(chunks.length, 2);
    const max = maxChunkChars(config.index);
    for (const c of chunks) assert.ok(c.text.length <= max, `${c.text.length} > ${max}`);
    assert.match(chunks[1]!.text, /^decision: We chose SQLite\..*…\[truncated\]$/s);
    assert.equal(chunks[0]!.text, "decision: We chose WAL mode.");
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /1 event\(s\) longer than \d+ characters indexed truncated \(first: line 2\)/);
  });
  test("a captured event's chunk is capped however many files it names", () => {
    const dir = mkdtempSync(join(tmpdir(), "mem-capcap-"));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const db = openDb(join(dir, "mem.sqlite"));
    const project = cleanText("p");
    const files = Array.from({ length: 200 }, (_, i) => `/p/src/${"deep/".repeat(30)}${i}.ts`);
    new EventStore(db).insert(project, clean([{ id: "e1", type: "file_modified", time: "2026-11-20T10:00:00Z", session: "s", files, text: "Edit many files", metadata: {} }]));
    assert.equal(chunkCapturedEvents(db, new ChunkStore(db), project, 0), 1);
    const text = db.prepare("SELECT text FROM chunks").pluck().get() as string;
    assert.ok(text.length <= MAX_CAPTURED_CHARS, `${text.length}`);
    assert.match(text, /^file_modified: Edit many files\nfiles: \/p\/src\//);
    db.close();
  });
});
