/**
 * The identity beside the store (mem.identity.json): a first run creates both; a store that is
 * missing, truncated (however recently), replaced by another, put back older or emptied is refused
 * as lost, and nothing is written over it. Real SQLite files.
 */
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { openDb } from "../../src/store/db.js";
import { StoreDamagedError } from "../../src/store/damage.js";
import { identityPath, noteWrites, readIdentity, recordIdentity, stampOf, stampStore } from "../../src/store/identity.js";
import { purgeTombstones } from "../../src/store/memories.js";
import { checkpoint } from "../helpers/damage.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-identity-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(tmp, `h${++n}`, "mem.sqlite");

/** A store with `events` captured events and one session, its identity recording them, closed and checkpointed. */
function populated(events = 351): string {
  const path = fresh();
  const db = openDb(path);
  const ins = db.prepare("INSERT INTO events (id, project, session, type, time, text) VALUES (?, 'p', 's', 'command_run', '2026-01-01T00:00:00Z', ?)");
  db.transaction(() => {
    for (let i = 0; i < events; i++) ins.run(`e${i}`, `$ make step-${i}`);
  })();
  db.prepare("INSERT INTO sessions (session, project, offset, updated_at) VALUES ('s', 'p', 0, 1)").run();
  assert.equal(noteWrites(db, path), true, "the first write batch records the counts");
  db.close();
  checkpoint(path);
  return path;
}

const lost = (re: RegExp) => (err: unknown) => err instanceof StoreDamagedError && err.kind === "lost" && re.test(err.reason) && /mem restore latest/.test(err.message) && /mem doctor --repair/.test(err.message) && /mem restore --fresh/.test(err.message);

describe("the store's identity", () => {
  test("a first run creates the store and a private identity naming it", () => {
    const path = fresh();
    const db = openDb(path);
    const id = readIdentity(path);
    assert.ok(id, "identity written");
    assert.equal(stampOf(db).storeId, id.storeId);
    assert.equal(id.reason, "created");
    assert.deepEqual(id.counts, { events: 0, sessions: 0, memories: 0, tasks: 0, chunks: 0 });
    db.close();
    assert.equal(statSync(identityPath(path)).mode & 0o777, 0o600);
    assert.equal(identityPath(path), join(path, "..", "mem.identity.json"));
    openDb(path).close(); // and it opens again
  });

  test("a store truncated to 0 bytes a moment ago (no WAL) is refused as lost, and left at 0 bytes", () => {
    const path = populated();
    writeFileSync(path, ""); // mtime now: within the grace a new store has
    assert.throws(() => openDb(path), lost(/empty \(0 bytes\).*351 events/));
    assert.equal(statSync(path).size, 0, "no schema was created over it");
  });

  test("a missing store file is refused as lost; no new one is created", () => {
    const path = populated();
    rmSync(path);
    assert.throws(() => openDb(path), lost(/missing/));
    assert.ok(!existsSync(path));
  });

  test("another store put in its place is refused, and the message offers to keep it on purpose", () => {
    const path = populated();
    const other = populated(3);
    copyFileSync(other, path);
    assert.throws(() => openDb(path), (err: Error) => lost(/another store/)(err) && /mem restore --adopt/.test(err.message));
  });

  test("a new empty store made over it (no store id) is refused", () => {
    const path = populated();
    rmSync(path);
    const db = new Database(path); // what SQLite does with a path it finds empty
    db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE events (id TEXT PRIMARY KEY); CREATE TABLE sessions (session TEXT PRIMARY KEY)");
    db.close();
    assert.throws(() => openDb(path), lost(/no store id/));
  });

  test("a fresh mem schema put in its place (made without an identity) is refused", () => {
    const path = populated();
    const other = fresh();
    openDb(other, { identity: false }).close();
    checkpoint(other);
    copyFileSync(other, path);
    assert.throws(() => openDb(path), lost(/new, empty store/));
  });

  test("its events table emptied: refused as lost", () => {
    const path = populated();
    const db = new Database(path);
    db.exec("DELETE FROM events");
    db.close();
    assert.throws(() => openDb(path), lost(/events table is empty.*351/));
  });

  test("fewer events than recorded: refused as lost", () => {
    const path = populated();
    const db = new Database(path);
    db.exec("DELETE FROM events WHERE rowid > 100");
    db.exec("VACUUM");
    db.close();
    assert.throws(() => openDb(path), lost(/fewer rows than the 351/));
  });

  test("an older copy of the same store put back by hand (a lower generation) is refused", () => {
    const path = populated();
    const old = `${path}.old`;
    copyFileSync(path, old);
    const db = openDb(path);
    stampStore(db, { generation: 1 }); // a restore or repair made generation 1
    recordIdentity(db, path, "restore");
    db.close();
    checkpoint(path);
    copyFileSync(old, path);
    assert.throws(() => openDb(path), (err: Error) => lost(/older copy/)(err) && /mem restore --adopt/.test(err.message));
  });

  test("forgotten and purged memories keep their rows: the store still opens", () => {
    const path = populated(5);
    const db = openDb(path);
    db.prepare("UPDATE events SET deleted_at = 1").run();
    assert.equal(purgeTombstones(db), 5);
    db.close();
    const again = openDb(path);
    assert.equal(again.prepare("SELECT count(*) FROM events").pluck().get(), 5);
    again.close();
  });

  test("a store made before identities is adopted: its identity is written, its rows counted", () => {
    const path = populated(7);
    rmSync(identityPath(path));
    const db = new Database(path);
    db.exec("DELETE FROM meta WHERE key IN ('store-id', 'store-generation')");
    db.close();
    openDb(path).close();
    const id = readIdentity(path);
    assert.equal(id?.reason, "adopted");
    assert.equal(id?.counts.events, 7);
  });

  test("a read-only open writes no identity; a garbled identity is replaced, not trusted", () => {
    const path = populated(2);
    rmSync(identityPath(path));
    openDb(path, { readonly: true }).close();
    assert.ok(!existsSync(identityPath(path)));
    writeFileSync(identityPath(path), "{ not json");
    openDb(path).close();
    assert.equal(readIdentity(path)?.counts.events, 2);
    assert.match(readFileSync(identityPath(path), "utf8"), /"storeId"/);
  });

  test("a working file opened with identity: false is neither checked nor recorded", () => {
    const path = fresh();
    openDb(path, { identity: false }).close();
    assert.ok(!existsSync(identityPath(path)));
  });
});
