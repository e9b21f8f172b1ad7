/**
 * Captured events become chunks by appending: a new event in a long session adds its own chunk and
 * leaves every other chunk of the session as it was (same row, same place in the text index), an
 * edited memory is written again, and chunking the same events twice changes nothing.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { chunkCapturedEvents } from "../../indexer/captured.js";
import { openApp } from "../../src/app.js";
import { cleanText } from "../../src/redact/clean.cjs";
import { MemoryService } from "../../src/service/memory.js";
import { ChunkStore } from "../../src/store/chunks.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-append-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("a put in a long session adds one chunk and leaves the others untouched", () => {
  const app = openApp({ MEM_HOME: join(tmp, "home"), HOME: tmp, MEM_EMBED_ORDER: "none" });
  after(() => app.close());
  let clock = Date.parse("2026-11-01T00:00:00Z");
  const svc = new MemoryService({ db: app.db, config: app.config, projectRoot: () => undefined, now: () => (clock += 1000) });
  const project = "/p";
  const ids = Array.from({ length: 50 }, (_, i) => svc.put({ project, session: "s1", text: `fact number ${i} about the parser` }).memory.id);
  const rows = () => app.db.prepare("SELECT rowid, id, seq, start_line, text FROM chunks WHERE path = 'session:s1' ORDER BY seq").all() as { rowid: number; id: string; seq: number; start_line: number; text: string }[];
  const before = rows();
  assert.equal(before.length, 50);
  assert.deepEqual(before.map((r) => r.seq), [...Array(50).keys()], "in the order put");
  assert.deepEqual(before.map((r) => r.start_line), [...Array(50).keys()].map((i) => i + 1));

  svc.put({ project, session: "s1", text: "one more fact about the lexer" });
  const afterPut = rows();
  assert.deepEqual(afterPut.slice(0, 50), before, "the earlier chunks keep their rows, text and places");
  assert.deepEqual([afterPut[50]!.seq, afterPut[50]!.start_line], [50, 51]);
  const src = app.db.prepare("SELECT size, metadata FROM sources WHERE path = 'session:s1'").get() as { size: number; metadata: string };
  assert.deepEqual([src.size, JSON.parse(src.metadata).events], [51, 51]);

  svc.patch(ids[3]!, { text: "fact number 3, corrected: about the tokenizer" });
  const afterPatch = rows();
  assert.equal(afterPatch.length, 51);
  assert.match(afterPatch.at(-1)!.text, /corrected: about the tokenizer/, "the edited memory is chunked again, at the end");
  assert.ok(!afterPatch.some((r) => /fact number 3 about/.test(r.text)), "its old text is gone");
  const fts = app.db.prepare("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'tokenizer'").pluck().get();
  assert.equal(fts, 1, "the text index follows");

  assert.equal(chunkCapturedEvents(app.db, new ChunkStore(app.db), cleanText(project), clock), 0, "nothing left to chunk");
  assert.deepEqual(rows(), afterPatch, "chunking again changes nothing");
});
