/**
 * SQLite's journal of the rows removed from each vector table (vec_gone): what the daemon's copy
 * of a table reads to learn what left since its version, instead of every id in LanceDB.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import Database from "better-sqlite3";
import { cleanText } from "../../src/redact/clean.cjs";
import { REDACTION_VERSION } from "../../src/redact/redact.cjs";
import { openDb, SCHEMA_VERSION } from "../../src/store/db.js";
import { clearDerived } from "../../src/store/derived.js";
import { addRemovalJournal, MIGRATIONS } from "../../src/store/migrations.js";
import { redoVectors, VecState } from "../../src/store/vec-state.js";

const c = cleanText;
const row = (id: string, project = "p") => ({ id: c(id), project: c(project) });
const dir = mkdtempSync(join(tmpdir(), "mem-vecgone-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const sorted = (s: ReadonlySet<string> | undefined) => (s ? [...s].sort() : undefined);

test("what changed since a version: the rows removed (unmarked, redone, cleared, written again) and those recorded", () => {
  const db = openDb(join(dir, "a.sqlite"));
  const state = new VecState(db);
  state.register(c("t"), c("ollama"), c("m"), 8, 1000);
  state.register(c("u"), c("ollama"), c("m2"), 8, 1000);
  state.mark("t", ["a", "b", "c", "d", "e"].map((id) => row(id)));
  state.mark("u", [row("a")]);
  const v1 = state.version("t")!;
  assert.deepEqual(sorted(state.changedSince("t", v1)?.gone), [], "nothing removed yet");
  state.unmark("t", ["a"]); // an orphan's row deleted
  redoVectors(db, "b"); // a chunk written again under its id: its rows unrecorded, in every table
  state.mark("t", [row("b", "q")]); // … and embedded again
  state.clear("t", "p2"); // another project's rows: none
  state.mark("t", [row("f")]);
  const ch = state.changedSince("t", v1)!;
  assert.deepEqual(sorted(ch.gone), ["a", "b"]);
  assert.ok(["b", "f"].every((id) => ch.recorded.has(id)) && ch.recorded.size <= 3, `recorded since: ${sorted(ch.recorded)}`);
  assert.deepEqual(sorted(state.changedSince("u", "1000:0")?.gone), [], "another table's journal is its own");
  // a version after the changes: none of them
  const v2 = state.version("t")!;
  const none = state.changedSince("t", v2)!;
  assert.ok(none.gone.size === 0 && [...none.recorded].every((id) => id === "f"), "at most the last change, stamped with the version it made");
  // too much changed for a refresh: none offered
  assert.equal(state.changedSince("t", v1, 2), undefined);
  assert.ok(state.changedSince("t", v1, 10));
  // not this making of the table, or not a version at all
  assert.equal(state.changedSince("t", "999:0"), undefined);
  assert.equal(state.changedSince("t", "garbage"), undefined);
  assert.equal(state.changedSince("nope", v1), undefined);
  db.close();
});

test("the journal pruned past a copy's version: that copy is read whole; a later one is still brought up to date", () => {
  const db = openDb(join(dir, "prune.sqlite"));
  const state = new VecState(db);
  state.register(c("t"), c("ollama"), c("m"), 8, 1000);
  state.mark("t", ["a", "b", "c"].map((id) => row(id)));
  const v1 = state.version("t")!;
  state.unmark("t", ["a"]);
  const v2 = state.version("t")!;
  state.unmark("t", ["b"]);
  // the first removal is a week old
  db.prepare("UPDATE vec_gone SET at = at - 8 * 86400 WHERE chunk_id = 'a'").run();
  assert.equal(state.pruneGone(Math.floor(Date.now() / 1000) - 7 * 86400), 1);
  assert.equal(state.changedSince("t", v1), undefined, "a removal it needs is no longer journaled");
  assert.deepEqual(sorted(state.changedSince("t", v2)?.gone), ["b"]);
  assert.equal(state.pruneGone(Math.floor(Date.now() / 1000) - 7 * 86400), 0, "nothing more to prune");
  assert.deepEqual(sorted(state.changedSince("t", v2)?.gone), ["b"], "the floor stays where it was");
  db.close();
});

test("a table forgotten, or the derived data cleared: no journal is written for its rows, and none is kept", () => {
  const db = openDb(join(dir, "forget.sqlite"));
  const state = new VecState(db);
  const gone = () => db.prepare("SELECT count(*) FROM vec_gone").pluck().get() as number;
  state.register(c("t"), c("ollama"), c("m"), 8, 1000);
  state.mark("t", Array.from({ length: 50 }, (_, i) => row(`r${i}`)));
  state.unmark("t", ["r1"]);
  assert.equal(gone(), 1);
  state.forget("t");
  assert.equal(gone(), 0);
  state.register(c("t"), c("ollama"), c("m"), 8, 2000);
  state.mark("t", Array.from({ length: 50 }, (_, i) => row(`r${i}`)));
  state.unmark("t", ["r1"]);
  clearDerived(db);
  assert.equal(gone(), 0);
  db.close();
});

test("the migration: a store made before it journals the removals from then on, and its copies older than that are read whole", () => {
  const path = join(dir, "before.sqlite");
  const at = MIGRATIONS.indexOf(addRemovalJournal);
  assert.ok(at > 0);
  const raw = new Database(path);
  raw.pragma("journal_mode = WAL");
  for (const m of MIGRATIONS.slice(0, at)) typeof m === "string" ? raw.exec(m) : m(raw);
  raw.pragma(`user_version = ${at}`);
  raw.prepare("INSERT INTO meta (key, value) VALUES ('redaction-version', ?)").run(String(REDACTION_VERSION));
  raw.prepare("INSERT INTO vec_tables (name, provider, model, dims, created_at) VALUES ('t', 'ollama', 'm', 8, 1000)").run();
  const ins = raw.prepare("INSERT INTO vec_rows (table_name, chunk_id, project) VALUES ('t', ?, 'p')");
  for (const id of ["a", "b", "c", "d"]) ins.run(id);
  const old = `1000:${raw.prepare("SELECT version FROM vec_tables").pluck().get()}`;
  raw.prepare("DELETE FROM vec_rows WHERE chunk_id = 'a'").run(); // removed before the journal
  assert.ok(!(raw.prepare("SELECT name FROM sqlite_master WHERE name = 'vec_gone'").get()), "made before the journal");
  raw.close();

  const db = openDb(path);
  assert.equal(db.pragma("user_version", { simple: true }), SCHEMA_VERSION);
  const state = new VecState(db);
  assert.equal(state.changedSince("t", old), undefined, "a removal before the journal is unknown: read whole");
  const now = state.version("t")!;
  assert.deepEqual(sorted(state.changedSince("t", now)?.gone), []);
  state.unmark("t", ["b"]);
  state.mark("t", [row("e")]);
  const ch = state.changedSince("t", now)!;
  assert.deepEqual(sorted(ch.gone), ["b"]);
  assert.ok(ch.recorded.has("e"));
  assert.equal(state.count("t"), 3);
  db.close();
});
