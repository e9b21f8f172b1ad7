import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { openDb } from "../../src/store/db.js";
import { VecState } from "../../src/store/vec-state.js";

const dir = mkdtempSync(join(tmpdir(), "mem-vecstate-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("a table's version changes on every add and remove, also when as many rows leave as arrive", () => {
  const db = openDb(join(dir, "a.sqlite"));
  const state = new VecState(db);
  assert.equal(state.version("t"), undefined, "unknown table");
  assert.equal(state.has("t"), false);
  state.register("t", "ollama", "m", 8, 1000);
  const seen = new Set([state.version("t")]);
  state.mark("t", [{ id: "a", project: "p" }, { id: "b", project: "p" }]);
  assert.ok(state.has("t"));
  seen.add(state.version("t"));
  state.mark("t", [{ id: "a", project: "p" }]); // already there: no change
  assert.equal(seen.size, 2);
  assert.ok(seen.has(state.version("t")));
  state.unmark("t", ["a"]);
  state.mark("t", [{ id: "c", project: "p" }]);
  assert.equal(state.count("t"), 2, "same count as before…");
  assert.ok(!seen.has(state.version("t")), "…but a new version");
  seen.add(state.version("t"));
  state.forget("t");
  assert.equal(state.version("t"), undefined);
  state.register("t", "ollama", "m", 8, 2000);
  state.mark("t", [{ id: "a", project: "p" }, { id: "b", project: "p" }]);
  assert.ok(!seen.has(state.version("t")), "a table built again never reuses an old version");
  // other tables are not touched
  state.register("u", "ollama", "m2", 8, 1000);
  const u = state.version("u");
  state.mark("t", [{ id: "d", project: "p" }]);
  assert.equal(state.version("u"), u);
  db.close();
});

test("versions are stored: reopening the data home keeps them", () => {
  const db = openDb(join(dir, "b.sqlite"));
  const state = new VecState(db);
  state.register("t", "ollama", "m", 8, 1000);
  state.mark("t", [{ id: "a", project: "p" }]);
  const v = state.version("t");
  db.close();
  const again = openDb(join(dir, "b.sqlite"));
  assert.equal(new VecState(again).version("t"), v, "reopening changes nothing");
  again.close();
});
