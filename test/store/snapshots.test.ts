/**
 * Snapshots of the SQLite store: whole and consistent (VACUUM INTO) while another connection
 * writes, private, listed newest first with what each holds, pruned to the newest few; one taken
 * before a migration. Real SQLite files.
 */
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { openDb, SCHEMA_VERSION } from "../../src/store/db.js";
import { noteWrites } from "../../src/store/identity.js";
import { findSnapshot, listSnapshots, pruneSnapshots, snapshotDir, snapshotIfDue, takeSnapshot } from "../../src/store/snapshots.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-snapshots-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;

function store(events: number): string {
  const path = join(tmp, `h${++n}`, "mem.sqlite");
  const db = openDb(path);
  const ins = db.prepare("INSERT INTO events (id, project, session, type, time, text) VALUES (?, 'p', 's', 'decision', '2026-01-01T00:00:00Z', ?)");
  db.transaction(() => {
    for (let i = 0; i < events; i++) ins.run(`e${i}`, `we chose option ${i}`);
  })();
  noteWrites(db, path);
  db.close();
  return path;
}

describe("snapshots", () => {
  test("a snapshot is a whole, private copy with a manifest; listed newest first; found by latest or a prefix", () => {
    const path = store(40);
    const db = openDb(path);
    const a = takeSnapshot(db, path, "reindex", Date.parse("2026-11-01T10:00:00Z"));
    db.prepare("INSERT INTO events (id, project, session, type, time, text) VALUES ('late', 'p', 's', 'decision', 't', 'a later decision')").run();
    const b = takeSnapshot(db, path, "repair", Date.parse("2026-11-02T10:00:00Z"));
    db.close();
    assert.equal(a.counts.events, 40);
    assert.equal(b.counts.events, 41);
    assert.equal(statSync(a.file).mode & 0o777, 0o600);
    assert.equal(statSync(join(snapshotDir(path), `${a.id}.json`)).mode & 0o777, 0o600);
    assert.equal(statSync(snapshotDir(path)).mode & 0o777, 0o700);
    const copy = new Database(a.file, { readonly: true });
    assert.equal(copy.pragma("quick_check", { simple: true }), "ok");
    assert.equal(copy.prepare("SELECT count(*) FROM events").pluck().get(), 40);
    copy.close();
    assert.deepEqual(listSnapshots(path).map((s) => s.id), [b.id, a.id]);
    assert.equal(findSnapshot(path, "latest")?.id, b.id);
    assert.equal(findSnapshot(path, "20261101")?.id, a.id);
    assert.equal(findSnapshot(path, "2026"), undefined, "an ambiguous prefix names none");
  });

  test("consistent while another process's connection writes (WAL): the copy opens and checks ok", () => {
    const path = store(2000);
    const writer = new Database(path);
    writer.pragma("busy_timeout = 5000");
    writer.exec("BEGIN IMMEDIATE");
    writer.prepare("INSERT INTO events (id, project, session, type, time, text) VALUES ('open-tx', 'p', 's', 'decision', 't', 'not committed')").run();
    const db = openDb(path);
    const s = takeSnapshot(db, path, "reindex");
    writer.exec("COMMIT");
    writer.close();
    db.close();
    const copy = new Database(s.file, { readonly: true });
    assert.equal(copy.pragma("integrity_check", { simple: true }), "ok");
    assert.equal(copy.prepare("SELECT count(*) FROM events").pluck().get(), 2000, "the uncommitted row is not in it");
    copy.close();
  });

  test("pruning keeps the newest N; an unfinished copy (no manifest) is never offered", () => {
    const path = store(3);
    const db = openDb(path);
    const ids = [1, 2, 3, 4, 5, 6, 7].map((d) => takeSnapshot(db, path, "reindex", Date.parse(`2026-10-0${d}T00:00:00Z`)).id);
    db.close();
    writeFileSync(join(snapshotDir(path), "20261009T000000000Z-reindex.sqlite"), "half a copy");
    assert.equal(listSnapshots(path).length, 7);
    assert.deepEqual(pruneSnapshots(path, 5), [ids[1], ids[0]]);
    assert.deepEqual(listSnapshots(path).map((s) => s.id), ids.slice(2).reverse());
    assert.ok(!existsSync(join(snapshotDir(path), `${ids[0]}.sqlite`)));
    assert.ok(readdirSync(snapshotDir(path)).every((f) => !f.startsWith(ids[0]!)));
  });

  test("a migration is preceded by a snapshot of the store as it was", () => {
    const path = store(12);
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION - 1}`); // the last migration is safe to run again
    raw.close();
    openDb(path).close();
    const s = listSnapshots(path);
    assert.equal(s.length, 1);
    assert.equal(s[0]!.reason, "migration");
    assert.equal(s[0]!.schemaVersion, SCHEMA_VERSION - 1);
    assert.equal(s[0]!.counts.events, 12);
  });
});

describe("a snapshot when one is due (a store the weekly job never runs on)", () => {
  const DAY = 24 * 3_600_000;
  const now = Date.parse("2026-11-20T10:00:00Z");
  const cases: { name: string; events: number; existing: number[]; due: boolean }[] = [
    { name: "an empty store: nothing to keep", events: 0, existing: [], due: false },
    { name: "a store with data and no snapshot: its first", events: 5, existing: [], due: true },
    { name: "the newest snapshot a day old: not due", events: 5, existing: [8, 1], due: false },
    { name: "the newest snapshot 6.9 days old: not due", events: 5, existing: [6.9], due: false },
    { name: "the newest snapshot 7 days old: due", events: 5, existing: [14, 7], due: true },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const path = store(c.events);
      const db = openDb(path);
      try {
        for (const ago of c.existing) takeSnapshot(db, path, "reindex", now - ago * DAY);
        const before = listSnapshots(path).length;
        const r = snapshotIfDue(db, path, 5, now);
        assert.equal(r !== undefined, c.due, JSON.stringify(r));
        assert.equal(listSnapshots(path).length, before + (c.due ? 1 : 0));
        if (c.due) assert.equal(listSnapshots(path)[0]!.reason, "auto");
      } finally {
        db.close();
      }
    });
  }

  test("older ones are pruned to keep", () => {
    const path = store(3);
    const db = openDb(path);
    try {
      for (const ago of [40, 30, 20, 10]) takeSnapshot(db, path, "auto", now - ago * DAY);
      assert.ok(snapshotIfDue(db, path, 2, now));
      assert.deepEqual(listSnapshots(path).map((s) => s.takenAt), [new Date(now).toISOString(), new Date(now - 10 * DAY).toISOString()]);
    } finally {
      db.close();
    }
  });
});

describe("what is no snapshot of ours is never offered", () => {
  test("a newer entry whose copy is a link (wherever it points) is left out of the list and of `latest`", () => {
    const path = store(4);
    const db = openDb(path);
    let real: string;
    try {
      real = takeSnapshot(db, path, "reindex", Date.parse("2026-11-01T10:00:00Z")).id;
    } finally {
      db.close();
    }
    const dir = snapshotDir(path);
    const manifest = (_: string) => JSON.stringify({ takenAt: "2026-11-20T10:00:00.000Z", reason: "reindex", counts: { events: 999 } });
    symlinkSync(join(dir, `${real}.sqlite`), join(dir, "20261121T100000000Z-reindex.sqlite")); // a link to a real copy
    writeFileSync(join(dir, "20261121T100000000Z-reindex.json"), manifest("b"));
    assert.deepEqual(listSnapshots(path).map((s) => s.id), [real]);
    assert.equal(findSnapshot(path, "latest")?.id, real);
  });
});
