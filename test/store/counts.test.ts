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
