import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { openDb } from "../../src/store/db.js";
import { VecState } from "../../src/store/vec-state.js";
import { cleanText } from "../../src/redact/clean.cjs";

const c = cleanText;
const row = (id: string, project: string) => ({ id: c(id), project: c(project) });
const dir = mkdtempSync(join(tmpdir(), "mem-vecstate-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("a table's version changes on every add and remove, also when as many rows leave as arrive", () => {
  const db = openDb(join(dir, "a.sqlite"));
  const state = new VecState(db);
  assert.equal(state.version("t"), undefined, "unknown table");
  assert.equal(state.has("t"), false);
  state.register(c("t"), c("ollama"), c("m"), 8, 1000);
  const seen = new Set([state.version("t")]);
  state.mark("t", [row("a", "p"), row("b", "p")]);
  assert.ok(state.has("t"));
  seen.add(state.version("t"));
  state.mark("t", [row("a", "p")]); // already there: no change
  assert.equal(seen.size, 2);
  assert.ok(seen.has(state.version("t")));
  state.unmark("t", ["a"]);
  state.mark("t", [row("c", "p")]);
  assert.equal(state.count("t"), 2, "same count as before…");
  assert.ok(!seen.has(state.version("t")), "…but a new version");
  seen.add(state.version("t"));
  state.forget("t");
  assert.equal(state.version("t"), undefined);
  state.register(c("t"), c("ollama"), c("m"), 8, 2000);
  state.mark("t", [row("a", "p"), row("b", "p")]);
  assert.ok(!seen.has(state.version("t")), "a table built again never reuses an old version");
  // other tables are not touched
  state.register(c("u"), c("ollama"), c("m2"), 8, 1000);
  const u = state.version("u");
  state.mark("t", [row("d", "p")]);
  assert.equal(state.version("u"), u);
  db.close();
});

test("versions are stored: reopening the data home keeps them", () => {
  const db = openDb(join(dir, "b.sqlite"));
  const state = new VecState(db);
  state.register(c("t"), c("ollama"), c("m"), 8, 1000);
  state.mark("t", [row("a", "p")]);
  const v = state.version("t");
  db.close();
  const again = openDb(join(dir, "b.sqlite"));
  assert.equal(new VecState(again).version("t"), v, "reopening changes nothing");
  again.close();
});

test("the rows recorded since a version: new ones and ones recorded again, none from before; none for a table made again", () => {
  const db = openDb(join(dir, "since.sqlite"));
  const state = new VecState(db);
  state.register(c("t"), c("ollama"), c("m"), 8, 1000);
  state.mark("t", [row("a", "p"), row("b", "p"), row("c", "p")]);
  const v1 = state.version("t")!;
  const atV1 = state.changedSince("t", v1)!.recorded;
  assert.ok(atV1.size === 0 || (atV1.size === 1 && atV1.has("c")), "at most the last row recorded before it");
  state.mark("t", [row("d", "p")]);
  state.unmark("t", ["b"]);
  state.mark("t", [row("b", "q")]); // recorded again (an edited memory keeps its id)
  assert.deepEqual(state.changedSince("t", v1)?.recorded, new Set([...atV1, "d", "b"]));
  assert.ok([...state.changedSince("t", state.version("t")!)!.recorded].every((id) => id === "b"));
  assert.equal(state.changedSince("t", "999:0"), undefined, "another making of the table");
  assert.equal(state.changedSince("t", "garbage"), undefined);
  state.forget("t");
  state.register(c("t"), c("ollama"), c("m"), 8, 2000);
  assert.equal(state.changedSince("t", v1), undefined, "made again since");
  db.close();
});
