/**
 * The packed ids of a code copy (src/retrieve/id-table.ts) against a Map kept beside it: every
 * step (add, a duplicate added, remove, the compaction's moves, growth) leaves each id answering
 * with its row, and no removed id answering at all.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { IdTable } from "../../src/retrieve/id-table.js";
import { prng } from "../../scripts/prng.js";

/** Every id the model holds answers with its row; `gone` ids answer with nothing. */
function check(t: IdTable, model: Map<string, number>, gone: Iterable<string>, what: string): void {
  for (const [id, row] of model) {
    assert.equal(t.get(id), row, `${what}: ${id}`);
    assert.equal(t.idOf(row), id, `${what}: row ${row}`);
  }
  for (const id of gone) if (!model.has(id)) assert.equal(t.get(id), undefined, `${what}: ${id} is gone`);
}

test("ids added, added again, removed, moved down and grown past their room answer as a Map does", () => {
  const rand = prng(5);
  const t = new IdTable(600, 4); // few slots and a small buffer: long probe runs, buffer and slots grown
  const model = new Map<string, number>();
  const rowId: (string | undefined)[] = [];
  const idOf = (k: number) => (k % 5 === 0 ? `é-${k}-✓` : `c${k.toString(16).padStart(31, "0")}`);
  let next = 0;
  for (let k = 0; k < 500; k++) {
    const id = idOf(k);
    assert.equal(t.add(next, id), undefined);
    model.set(id, next);
    rowId[next++] = id;
  }
  check(t, model, [], "added");
  // an id added again: the new row answers, the old one is returned (the caller marks it dead)
  const again = idOf(42);
  const old = model.get(again)!;
  assert.equal(t.add(next, again), old);
  model.set(again, next);
  rowId[old] = undefined;
  rowId[next++] = again;
  check(t, model, [], "added again");
  // a third removed at random: later entries of each probe run move back, none is lost
  const gone: string[] = [];
  for (let row = 0; row < next; row++) {
    const id = rowId[row];
    if (id === undefined || rand() > 0.33) continue;
    t.remove(row);
    model.delete(id);
    rowId[row] = undefined;
    gone.push(id);
  }
  check(t, model, gone, "removed");
  // the compaction: each live row down to the next free one, its bytes below
  let to = 0;
  let at = 0;
  for (let from = 0; from < next; from++) {
    const id = rowId[from];
    if (id === undefined) continue;
    at = from === to ? t.endOf(from) : t.move(from, to, at);
    model.set(id, to);
    rowId[to++] = id;
  }
  t.truncate(at);
  next = to;
  check(t, model, gone, "compacted");
  // room for more: grown, then filled past the old room
  t.grow(2_000);
  for (let k = 1_000; next < 1_900; k++) {
    const id = idOf(k);
    t.add(next, id);
    model.set(id, next++);
  }
  check(t, model, gone, "grown");
  // a removed id added back
  t.add(next, gone[0]!);
  model.set(gone[0]!, next++);
  check(t, model, gone.slice(1), "added back");
  assert.ok(t.bytes > 0);
});

test("a lookup of an id never held, of the empty id, and of one too long to add", () => {
  const t = new IdTable(10);
  assert.equal(t.get("nope"), undefined);
  t.add(0, "");
  assert.equal(t.get(""), 0);
  assert.equal(t.idOf(0), "");
  assert.throws(() => t.add(1, "x".repeat(70_000)), /too long/);
  assert.equal(t.get("x".repeat(2_000)), undefined, "a long lookup is encoded apart from the scratch buffer");
});
