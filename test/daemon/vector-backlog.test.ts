/**
 * Which projects the daemon's vector step visits (src/daemon/vector-backlog.ts): the pure retry
 * policy, table-driven, and the backlog read from a real SQLite store written the ways chunks
 * arrive (appended, written over under their id, deleted and added in one go).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { dueForVectors, RETRY_MS, VectorBacklog, type Visit } from "../../src/daemon/vector-backlog.js";
import { clean, cleanText } from "../../src/redact/clean.cjs";
import { ChunkStore, type NewChunk } from "../../src/store/chunks.js";
import { openDb } from "../../src/store/db.js";
import { VecState } from "../../src/store/vec-state.js";

const dir = mkdtempSync(join(tmpdir(), "mem-backlog-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("dueForVectors: a project is visited when its counts changed, or a skipped step is a minute old", () => {
  const cases: [string, Visit | undefined, string, number, boolean][] = [
    ["never visited", undefined, "3:0", 0, true],
    ["counts changed since an ok step", { sig: "3:3", at: 0, ok: true }, "4:3", 1, true],
    ["an ok step left a gap that stays: not again", { sig: "4:3", at: 0, ok: true }, "4:3", 10 * RETRY_MS, false],
    ["a skipped step, counts unchanged, too soon", { sig: "4:0", at: 1_000, ok: false }, "4:0", 1_000 + RETRY_MS - 1, false],
    ["a skipped step, counts unchanged, a minute on", { sig: "4:0", at: 1_000, ok: false }, "4:0", 1_000 + RETRY_MS, true],
    ["a skipped step, counts changed", { sig: "4:0", at: 1_000, ok: false }, "5:0", 1_001, true],
  ];
  for (const [name, last, sig, now, want] of cases) assert.equal(dueForVectors(last, sig, now), want, name);
});

const chunk = (id: string, text: string): NewChunk => ({ id, kind: "note", tier: "warm", heading: "", startLine: 1, endLine: 1, text, tags: [], date: null, metadata: {} });

test("the backlog: what the table lacks at the first look, chunks added or written over since, nothing once embedded", async () => {
  const db = openDb(join(dir, "a.sqlite"));
  const store = new ChunkStore(db);
  const state = new VecState(db);
  const T = "v_test_8";
  state.register(cleanText(T), cleanText("test"), cleanText("m"), 8, 0);
  const put = (project: string, path: string, chunks: NewChunk[]) => store.replaceSource(clean({ project, path, kind: "markdown", tier: "warm", size: 1, mtimeMs: 1, hash: path, metadata: {} }), clean(chunks), 0);
  const embedAll = () => state.mark(T, (db.prepare("SELECT id, project FROM chunks").all() as { id: string; project: string }[]).map((r) => ({ id: cleanText(r.id), project: cleanText(r.project) })));
  put("/p/a", "/p/a/x.md", [chunk("a1", "one"), chunk("a2", "two")]);
  put("/p/b", "/p/b/y.md", [chunk("b1", "three")]);
  state.mark(T, [{ id: cleanText("b1"), project: cleanText("/p/b") }]);
  const backlog = new VectorBacklog(db);
  assert.deepEqual(await backlog.due(T, 0), ["/p/a"], "first look: the project with a chunk the table lacks");
  embedAll();
  backlog.visited(T, "/p/a", true, 0);
  assert.deepEqual(await backlog.due(T, 1), [], "all embedded: nothing");

  put("/p/b", "/p/b/y.md", [chunk("b1", "three"), chunk("b2", "four")]);
  assert.deepEqual(await backlog.due(T, 2), ["/p/b"], "a chunk added");
  embedAll();
  backlog.visited(T, "/p/b", true, 2);
  assert.deepEqual(await backlog.due(T, 3), []);

  // One chunk gone and another added between two looks: the counts match, the new rowid tells.
  put("/p/a", "/p/a/x.md", [chunk("a1", "one"), chunk("a3", "three again")]);
  assert.equal(db.prepare("SELECT count(*) FROM vec_rows WHERE chunk_id = 'a2'").pluck().get(), 1, "a2's row is still recorded (an orphan until the next vector step)");
  assert.deepEqual(await backlog.due(T, 4), ["/p/a"], "a chunk replaced by another, counts unchanged");

  // A chunk written over under its id (an edited memory): its vector is redone.
  embedAll();
  db.prepare("DELETE FROM vec_rows WHERE chunk_id = 'a2'").run();
  backlog.visited(T, "/p/a", true, 5);
  assert.deepEqual(await backlog.due(T, 6), []);
  put("/p/a", "/p/a/x.md", [chunk("a1", "one, edited"), chunk("a3", "three again")]);
  assert.deepEqual(await backlog.due(T, 7), ["/p/a"], "written over: its vector record is dropped, the counts differ");

  // A gap an ok step cannot close (say, a chunk no model can embed) is not visited at every tick.
  backlog.visited(T, "/p/a", true, 8);
  assert.deepEqual(await backlog.due(T, 9), [], "not again while the counts stay");
  backlog.visited(T, "/p/a", false, 10);
  assert.deepEqual(await backlog.due(T, 11), [], "a skipped step: not before a minute");
  assert.deepEqual(await backlog.due(T, 10 + RETRY_MS), ["/p/a"], "a minute on: tried again");
  db.close();
});

test("a table no vector step has made yet: every project with chunks is due at the first look", async () => {
  const db = openDb(join(dir, "b.sqlite"));
  const store = new ChunkStore(db);
  store.replaceSource(clean({ project: "/p/c", path: "/p/c/z.md", kind: "markdown", tier: "warm", size: 1, mtimeMs: 1, hash: "h", metadata: {} }), clean([chunk("c1", "five")]), 0);
  assert.deepEqual(await new VectorBacklog(db).due("v_never_made_8", 0), ["/p/c"]);
  db.close();
});

test("the first look reads the chunks a slice at a time, the event loop running between slices", async () => {
  const db = openDb(join(dir, "slices.sqlite"));
  const store = new ChunkStore(db);
  const state = new VecState(db);
  const T = "v_test_8";
  state.register(cleanText(T), cleanText("test"), cleanText("m"), 8, 0);
  const put = (project: string, n: number) => store.replaceSource(clean({ project, path: `${project}/n.md`, kind: "markdown", tier: "warm", size: 1, mtimeMs: 1, hash: project, metadata: {} }), clean(Array.from({ length: n }, (_, i) => chunk(`${project}-${i}`, `text ${i}`))), 0);
  // rowids 1-20 /p/a, 21-40 /p/b, 41-60 /p/c; only /p/a's and /p/c's last chunk lack a vector
  put("/p/a", 20);
  put("/p/b", 20);
  put("/p/c", 20);
  state.mark(T, (db.prepare("SELECT id, project FROM chunks WHERE project = '/p/b' OR (project = '/p/c' AND rowid < 60) OR (project = '/p/a' AND rowid > 1)").all() as { id: string; project: string }[]).map((r) => ({ id: cleanText(r.id), project: cleanText(r.project) })));
  let turns = 0;
  let on = true;
  const spin = () => {
    if (!on) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  const due = await new VectorBacklog(db, 7).due(T, 0);
  on = false;
  assert.deepEqual(due, ["/p/a", "/p/c"], "the projects lacking a vector, in the first slice and the last");
  assert.ok(turns >= 5, `the event loop ran ${turns} times during the look (9 slices)`);
  db.close();
});
