/**
 * The chunk and vector counts the triggers keep agree with counting the rows, through appends,
 * edits, forgetting, purging and a rebuild's clearing; a store migrated with rows already in it
 * starts from their counts.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { openApp } from "../../src/app.js";
import { asStored } from "../../src/redact/clean.cjs";
import { forgetMemory, purge } from "../../src/service/forget.js";
import { MemoryService } from "../../src/service/memory.js";
import { ChunkStore } from "../../src/store/chunks.js";
import { clearDerived } from "../../src/store/derived.js";
import { VecState } from "../../src/store/vec-state.js";
import { openDb, SCHEMA_VERSION } from "../../src/store/db.js";
import { EventStore } from "../../src/store/events.js";
import { defaultConfig } from "../../src/config/config.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-counts-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("kept counts equal counted rows, per project and table", async () => {
  const app = openApp({ MEM_HOME: join(tmp, "home"), HOME: tmp, MEM_EMBED_ORDER: "none" });
  after(() => app.close());
  const svc = new MemoryService({ db: app.db, config: app.config, projectRoot: () => undefined });
  const chunks = new ChunkStore(app.db);
  const state = new VecState(app.db);
  const check = (when: string) => {
    for (const p of ["/a", "/b"]) {
      assert.equal(chunks.countChunks(p), app.db.prepare("SELECT count(*) FROM chunks WHERE project = ?").pluck().get(p), `${when}: chunks of ${p}`);
      for (const t of ["t1", "t2"]) assert.equal(state.count(t, p), app.db.prepare("SELECT count(*) FROM vec_rows WHERE table_name = ? AND project = ?").pluck().get(t, p), `${when}: ${t} of ${p}`);
    }
    assert.equal(chunks.countChunks(), app.db.prepare("SELECT count(*) FROM chunks").pluck().get(), `${when}: all chunks`);
    assert.equal(state.count("t1"), app.db.prepare("SELECT count(*) FROM vec_rows WHERE table_name = 't1'").pluck().get(), `${when}: all of t1`);
  };
  const ids = [...Array(30).keys()].map((i) => svc.put({ project: i % 3 ? "/a" : "/b", session: `s${i % 4}`, text: `memory number ${i} about counting` }).memory);
  const all = () => app.db.prepare("SELECT id, project FROM chunks").all() as { id: string; project: string }[];
  state.mark("t1", all().map((r) => ({ id: asStored(r.id), project: asStored(r.project) })));
  state.mark("t2", all().slice(0, 10).map((r) => ({ id: asStored(r.id), project: asStored(r.project) })));
  check("after puts and vectors");
  svc.patch(ids[4]!.id, { text: "memory number 4, edited" });
  check("after an edit");
  forgetMemory(app.db, svc, ids[7]!.id, Date.now());
  await purge(app.db, app.vectors);
  check("after forget and purge");
  clearDerived(app.db);
  check("after a rebuild's clearing");
  assert.equal(chunks.countChunks(), 0);
  assert.equal(state.count("t1"), 0);
});

test("a store migrated by the first release of migration 7 gets the counts and indexes of migration 8, counted from its rows", () => {
  const file = join(tmp, "v7.sqlite");
  const db = openDb(file);
  const svc = new MemoryService({ db, config: defaultConfig(), projectRoot: () => undefined });
  for (let i = 0; i < 12; i++) svc.put({ project: i % 2 ? "/a" : "/b", session: "s1", text: `an earlier memory ${i}` });
  // As that release left it: none of migration 8's objects, user_version 7.
  db.exec(`DROP TRIGGER chunk_counts_ai; DROP TRIGGER chunk_counts_ad; DROP TABLE chunk_counts;
    DROP TRIGGER vec_counts_ai; DROP TRIGGER vec_counts_ad; DROP TABLE vec_counts;
    DROP INDEX events_unchunked_session; CREATE INDEX events_unchunked ON events(project) WHERE chunked = 0;
    DROP INDEX events_live; DROP INDEX chunks_hot; DROP INDEX tasks_open;`);
  db.pragma("user_version = 7");
  db.close();
  const again = openDb(file);
  after(() => again.close());
  assert.equal(again.pragma("user_version", { simple: true }), SCHEMA_VERSION, "up to date (migration 8 and any later one)");
  assert.equal(new ChunkStore(again).countChunks("/a"), again.prepare("SELECT count(*) FROM chunks WHERE project = '/a'").pluck().get());
  assert.equal(new ChunkStore(again).countChunks(), 12);
  const indexes = again.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").pluck().all();
  for (const name of ["events_unchunked_session", "events_live", "chunks_hot", "tasks_open"]) assert.ok(indexes.includes(name), name);
  assert.ok(!indexes.includes("events_unchunked"));
  assert.ok(new EventStore(again).sessionsToChunk("/a").length === 0, "the partial index answers");
});
