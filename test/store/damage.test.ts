/** Opening a damaged SQLite store: a typed error with a plain reason, never a silently recreated empty schema. */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { openDb } from "../../src/store/db.js";
import { checkpoint, damagePages } from "../helpers/damage.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-damage-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(tmp, `s${++n}`, "mem.sqlite");

/** A store with one indexed chunk, closed and checkpointed. */
function populated(): string {
  const path = fresh();
  const db = openDb(path);
  db.prepare("INSERT INTO sources (project, path, kind, size, mtime_ms, content_hash, indexed_at) VALUES ('p', '/n.md', 'markdown', 1, 1, 'h', 1)").run();
  db.prepare("INSERT INTO chunks (id, source_id, project, path, kind, start_line, end_line, text, seq) VALUES ('c', 1, 'p', '/n.md', 'note', 1, 1, 'hello', 0)").run();
  db.close();
  checkpoint(path);
  return path;
}

const old = (path: string) => utimesSync(path, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));

describe("openDb on a damaged store", () => {
  test("a fresh data home is created and migrated as before", () => {
    const db = openDb(fresh());
    assert.equal(db.prepare("SELECT count(*) FROM chunks").pluck().get(), 0);
    db.close();
  });

  test("a file that is not SQLite raises StoreDamagedError and is left as it was", () => {
    const path = fresh();
    openDb(path).close();
    writeFileSync(path, "these are someone's notes, not a database\n".repeat(200));
    const before = statSync(path).size;
    assert.throws(() => openDb(path), (err: Error) => err.name === "StoreDamagedError" && /not a SQLite database/.test(err.message) && /mem doctor --repair/.test(err.message));
    assert.equal(statSync(path).size, before, "nothing was written to it");
  });

  test("a 0-byte store older than a few seconds is a truncated one, not a new one", () => {
    const path = populated();
    writeFileSync(path, "");
    old(path);
    assert.throws(() => openDb(path), (err: Error) => err.name === "StoreDamagedError" && /empty \(0 bytes\)/.test(err.message));
    assert.equal(statSync(path).size, 0, "no schema was recreated over it");
  });

  test("a 0-byte store created this instant in a new data home (another process is creating it) opens and is migrated", () => {
    const path = fresh();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, "");
    const db = openDb(path);
    assert.equal(db.prepare("SELECT count(*) FROM sources").pluck().get(), 0);
    db.close();
  });

  test("garbage over the schema page: SQLite's 'malformed' becomes StoreDamagedError at open", () => {
    const path = populated();
    damagePages(path, [1]);
    assert.throws(() => openDb(path), (err: Error) => err.name === "StoreDamagedError" && /malformed|not a SQLite/.test(err.message));
  });
});
