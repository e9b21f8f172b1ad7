/**
 * A chunk's camelCase identifiers are indexed by their words too (chunks.idents, the text index's
 * third column): a search for "user name" finds a note that only says getUserName, while the
 * whole name still ranks it first. Real SQLite stores: one written now, one made at the schema
 * version before (migrated on open, snapshot first), one scrubbed under newer redaction rules.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import Database from "better-sqlite3";
import { clean } from "../../src/redact/clean.cjs";
import { REDACTION_VERSION } from "../../src/redact/redact.cjs";
import { bm25Leg } from "../../src/retrieve/bm25.js";
import { ChunkStore, checkFtsIntegrity, type NewChunk } from "../../src/store/chunks.js";
import { openDb, SCHEMA_VERSION, type Db } from "../../src/store/db.js";
import { MIGRATIONS } from "../../src/store/migrations.js";
import { scrubStore } from "../../src/store/scrub.js";
import { listSnapshots } from "../../src/store/snapshots.js";
import { addIdentifierWords } from "../../src/store/chunk-idents.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-idents-"));
const open: Db[] = [];
after(() => {
  for (const db of open) db.close();
  rmSync(tmp, { recursive: true, force: true });
});
/** A store opened for one test, closed after all. */
function opened(path: string): Db {
  const db = openDb(path);
  open.push(db);
  return db;
}

const chunk = (id: string, text: string, heading = "Notes"): NewChunk => ({ id, kind: "note", tier: "warm", heading, startLine: 1, endLine: 2, text, tags: [], date: "2026-11-01", metadata: {} });
const source = (project: string, path: string) => clean({ project, path, kind: "markdown", tier: "warm", size: 1, mtimeMs: 1, hash: path, metadata: {} });
const NOTES: [string, string][] = [
  ["c-ident", "The session helper getUserName reads the login from the cookie."],
  ["c-config", "HTTPServerConfig holds the port and the TLS certificate paths."],
  ["c-prose", "Billing sends invoices at the end of every month."],
  ["c-plain", "The dashboard shows a chart of deploys per week."],
];
const ids = (db: Db, q: string, projects?: string[]) => bm25Leg(db, q, projects ? { projects } : {}, 10).map((h) => h.id);

function checkSearch(db: Db): void {
  const cases: [string, string][] = [
    ["how do we get the user name", "c-ident"],
    ["user name", "c-ident"],
    ["getUserName", "c-ident"],
    ["http server config", "c-config"],
    ["which server config holds the port", "c-config"],
    ["HTTPServerConfig", "c-config"],
  ];
  for (const [q, id] of cases) assert.equal(ids(db, q)[0], id, q);
  assert.deepEqual(ids(db, "invoices"), ["c-prose"], "an ordinary word finds only its own chunk");
  assert.deepEqual(ids(db, "username"), [], "a word the notes do not hold finds nothing: parts are not glued together");
  checkFtsIntegrity(db);
}

describe("identifier words in the text index", () => {
  test("written by the store: found by their words and by the whole name; edits, deletes and other projects keep the index right", () => {
    const db = opened(join(tmp, "now.sqlite"));
    const store = new ChunkStore(db);
    store.replaceSource(source("p1", "notes.md"), clean(NOTES.map(([id, text]) => chunk(id, text))), 1);
    assert.equal(db.prepare("SELECT idents FROM chunks WHERE id = 'c-ident'").pluck().get(), "get user name");
    assert.equal(db.prepare("SELECT idents FROM chunks WHERE id = 'c-prose'").pluck().get(), "");
    checkSearch(db);

    // The whole name ranks first over a chunk that holds its words written out.
    store.replaceSource(source("p1", "more.md"), clean([chunk("c-words", "To get user name values, call the session helper.")]), 2);
    assert.equal(ids(db, "getUserName")[0], "c-ident");
    assert.deepEqual(new Set(ids(db, "user name")), new Set(["c-ident", "c-words"]));

    // An identifier in a heading counts too; an edited chunk is indexed by its new words only.
    store.appendToSource(clean({ project: "p1", path: "session:s1", kind: "events", tier: "warm", mtimeMs: 1, metadata: {} }), [clean(chunk("c-ev", "Renamed it.", "fetchOrderTotals"))], (h) => `${h}x`, 3);
    assert.equal(ids(db, "order totals")[0], "c-ev");
    store.appendToSource(clean({ project: "p1", path: "session:s1", kind: "events", tier: "warm", mtimeMs: 1, metadata: {} }), [clean(chunk("c-ev", "Renamed it to loadInvoiceLines.", "Rename"))], (h) => `${h}y`, 4);
    assert.deepEqual(ids(db, "order totals"), []);
    assert.equal(ids(db, "invoice lines")[0], "c-ev");
    checkFtsIntegrity(db);

    // Another project's chunks stay out of a project's search.
    store.replaceSource(source("p2", "notes.md"), clean([chunk("c-other", "p2 calls getUserName as well.")]), 5);
    assert.deepEqual(ids(db, "user name", ["p2"]), ["c-other"]);
    assert.ok(!ids(db, "user name", ["p1"]).includes("c-other"));

    const src = store.getSource("p2", "notes.md")!;
    store.deleteSource(src.id);
    assert.deepEqual(ids(db, "user name", ["p2"]), []);
    checkFtsIntegrity(db);
  });

  test("the words of a redacted text bring nothing of the secret back", () => {
    const db = opened(join(tmp, "redacted.sqlite"));
    const secret = "SuperSecretValueHere9";
    new ChunkStore(db).replaceSource(source("p1", "env.md"), clean([chunk("c-env", `Set token=${secret} before calling getUserName.`)]), 1);
    const row = db.prepare("SELECT text, idents FROM chunks WHERE id = 'c-env'").get() as { text: string; idents: string };
    assert.ok(!row.text.includes(secret), row.text);
    assert.equal(row.idents, "get user name");
    for (const piece of ["super", "here9", secret.toLowerCase()]) assert.deepEqual(ids(db, piece), [], piece);
  });

  test("a scrub under newer rules makes the words again from the scrubbed text", () => {
    const path = join(tmp, "scrub.sqlite");
    const db = opened(path);
    const secret = "SuperSecretValueHere9";
    // As a store written before the rule that finds it: text and words raw.
    db.prepare("INSERT INTO sources (project, path, kind, size, mtime_ms, content_hash, indexed_at) VALUES ('p1', 'env.md', 'markdown', 1, 1, 'h', 1)").run();
    db.prepare("INSERT INTO chunks (id, source_id, project, path, kind, heading, start_line, end_line, text, seq, idents) VALUES ('c1', 1, 'p1', 'env.md', 'note', '', 1, 1, ?, 0, ?)").run(`token=${secret} for getUserName`, "super secret value here9 get user name");
    assert.deepEqual(ids(db, "here9"), ["c1"]);
    scrubStore(db, { force: true });
    assert.equal(db.prepare("SELECT idents FROM chunks WHERE id = 'c1'").pluck().get(), "get user name");
    assert.deepEqual(ids(db, "here9"), []);
    assert.deepEqual(ids(db, "user name"), ["c1"]);
    checkFtsIntegrity(db);
  });
});

describe("the migration to identifier words", () => {
  /** The schema version of a store made before it (later migrations run after it too). */
  const WORDS = MIGRATIONS.indexOf(addIdentifierWords);
  /** A store made by the schema before this one, its chunks written as that version wrote them. */
  function previousStore(path: string): void {
    const raw = new Database(path);
    raw.pragma("journal_mode = WAL");
    for (const m of MIGRATIONS.slice(0, WORDS)) typeof m === "string" ? raw.exec(m) : m(raw);
    raw.pragma(`user_version = ${WORDS}`);
    raw.prepare("INSERT INTO meta (key, value) VALUES ('redaction-version', ?)").run(String(REDACTION_VERSION));
    raw.prepare("INSERT INTO sources (project, path, kind, size, mtime_ms, content_hash, indexed_at) VALUES ('p1', 'notes.md', 'markdown', 1, 1, 'h', 1)").run();
    const ins = raw.prepare("INSERT INTO chunks (id, source_id, project, path, kind, heading, start_line, end_line, text, seq) VALUES (?, 1, 'p1', 'notes.md', 'note', 'Notes', 1, 2, ?, ?)");
    NOTES.forEach(([id, text], i) => ins.run(id, text, i));
    assert.ok(!(raw.prepare("PRAGMA table_info(chunks)").all() as { name: string }[]).some((c) => c.name === "idents"), "made before the column");
    raw.close();
  }

  test("a store of the previous version: snapshot first, then every chunk's words filled and the index made again", () => {
    const path = join(tmp, "previous.sqlite");
    previousStore(path);
    const db = opened(path);
    assert.equal(db.pragma("user_version", { simple: true }), SCHEMA_VERSION);
    const snaps = listSnapshots(path);
    assert.equal(snaps.length, 1);
    assert.equal(snaps[0]!.reason, "migration");
    assert.equal(snaps[0]!.schemaVersion, WORDS);
    assert.equal(db.prepare("SELECT idents FROM chunks WHERE id = 'c-config'").pluck().get(), "http server config");
    checkSearch(db);
    // The triggers keep the new index: a chunk added and one removed after the migration.
    const store = new ChunkStore(db);
    store.replaceSource(source("p1", "notes.md"), clean([...NOTES.slice(1), ["c-new", "saveUserName writes it back."] as [string, string]].map(([id, text]) => chunk(id, text))), 2);
    assert.deepEqual(ids(db, "user name"), ["c-new"]);
    checkFtsIntegrity(db);
  });

  test("run again (a store whose version was set back), it changes nothing and fails nothing", () => {
    const path = join(tmp, "again.sqlite");
    previousStore(path);
    openDb(path).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${WORDS}`);
    raw.close();
    const db = opened(path);
    assert.equal(db.pragma("user_version", { simple: true }), SCHEMA_VERSION);
    assert.equal(db.prepare("SELECT count(*) FROM chunks WHERE idents <> ''").pluck().get(), 2);
    checkSearch(db);
  });
});
