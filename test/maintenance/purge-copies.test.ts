/**
 * What a purge does with each kind of copy it finds in the data home, in a real store: a snapshot
 * is scrubbed (its manifest's counts follow), a damaged one, one of another store, another user's
 * and an unfinished one are dropped, a store `mem restore` moved aside is scrubbed, a repair's
 * copy of a vector table is dropped, a log loses only the lines holding forgotten text, an install
 * backup holding it is dropped, a file holding none of it is left alone, a link is not followed.
 * Then every byte of the data home is scanned for the forgotten text.
 */
import assert from "node:assert/strict";
import { chownSync, closeSync, copyFileSync, existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { openApp } from "../../src/app.js";
import { purgeEverywhere } from "../../src/maintenance/purge.js";
import { resolveProject } from "../../src/project/identity.js";
import { forgetMemory } from "../../src/service/forget.js";
import { MemoryService } from "../../src/service/memory.js";
import { openDb } from "../../src/store/db.js";
import { takeSnapshot } from "../../src/store/snapshots.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-purge-copies-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Every regular file below `dir`, links not followed. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    const st = lstatSync(p);
    return st.isSymbolicLink() ? [] : st.isDirectory() ? filesUnder(p) : [p];
  });
}
const holding = (dir: string, needle: string) => filesUnder(dir).filter((f) => readFileSync(f).includes(needle)).map((f) => f.slice(dir.length + 1)).sort();
const root = process.getuid?.() === 0;

test("every copy in the data home is scrubbed, or dropped with its reason; nothing else is touched", async () => {
  const home = join(tmp, "home");
  const proj = join(tmp, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  const env = { MEM_HOME: home, HOME: tmp, MEM_EMBED_ORDER: "none" };
  const app = openApp(env);
  const project = resolveProject(proj).id;
  const svc = new MemoryService({ db: app.db, config: app.config, projectRoot: app.projectRoot });
  const MARK = "Walrus-harbour-9f3k2 rotation schedule for the vault";
  const gone = svc.put({ project, text: `We keep the ${MARK} on the second shelf.`, kind: "decision" }).memory;
  svc.put({ project, text: "The staging cluster is rebuilt every Friday afternoon.", kind: "decision" });
  const snap = (reason: string) => takeSnapshot(app.db, app.paths.sqlite, reason);
  const good = snap("auto");
  const damaged = snap("manual");
  const repair = snap("repair");
  const partial = `${repair.file}.partial`;
  copyFileSync(good.file, partial);
  const theirs = snap("migration");
  // Another store's copy: its own id, the same text.
  const other = openDb(join(tmp, "other", "mem.sqlite"));
  new MemoryService({ db: other, config: app.config, projectRoot: () => undefined }).put({ project, text: `We keep the ${MARK} on the second shelf.`, kind: "decision" });
  mkdirSync(join(home, "backup-20261101T000000Z"), { recursive: true });
  other.pragma("wal_checkpoint(TRUNCATE)");
  other.close();
  copyFileSync(join(tmp, "other", "mem.sqlite"), join(home, "backup-20261101T000000Z", "mem.sqlite"));
  // Page 1 past the header (the schema) overwritten: SQLite cannot read it.
  const fd = openSync(damaged.file, "r+");
  writeSync(fd, Buffer.alloc(3_000, 0x5a), 0, 3_000, 100);
  closeSync(fd);
  // A store moved aside by a restore, with a repair's copy of a vector table beside it.
  const aside = join(home, "before-restore-20261102T000000Z");
  mkdirSync(join(aside, "vectors", "v_hash_8.lance", "data"), { recursive: true });
  app.db.pragma("wal_checkpoint(TRUNCATE)");
  copyFileSync(app.paths.sqlite, join(aside, "mem.sqlite"));
  writeFileSync(join(aside, "vectors", "v_hash_8.lance", "data", "0.lance"), `rows ${gone.id}`);
  // Text files: a log with one line holding it, an install backup holding it, one that does not.
  writeFileSync(join(home, "hooks.log"), `2026-11-01 ok\n2026-11-02 could not store "We keep the ${MARK}"\n2026-11-03 ok\n`);
  mkdirSync(join(home, "backups", "install", "claude"), { recursive: true });
  writeFileSync(join(home, "backups", "install", "claude", ".claude.json"), JSON.stringify({ history: [{ display: `remember: We keep the ${MARK} on the second shelf.` }] }));
  writeFileSync(join(home, "backups", "install", "claude", "settings.json"), JSON.stringify({ hooks: {} }));
  // A link to a file outside holding it: not followed, not touched.
  writeFileSync(join(tmp, "outside.txt"), MARK);
  symlinkSync(join(tmp, "outside.txt"), join(home, "link.txt"));
  if (root) chownSync(theirs.file, 65534, 65534);
  // The explorer's opening page, quoting a search (URL-encoded), and a hard link to a file of the user's outside.
  writeFileSync(join(home, "ui-open.html"), `<meta http-equiv="refresh" content="0;url=http://127.0.0.1:7077/open?q=${encodeURIComponent(`We keep the ${MARK}`)}&amp;sig=x">`);
  writeFileSync(join(tmp, "mine.txt"), `my own copy: We keep the ${MARK}\n`);
  linkSync(join(tmp, "mine.txt"), join(home, "hard.txt"));
  assert.ok(holding(home, MARK).length >= 7, holding(home, MARK).join(", "));

  forgetMemory(app.db, svc, gone.id, Date.now());
  const r = await purgeEverywhere(app);
  await app.close();
  const fate = Object.fromEntries(r.copies.map((c) => [c.file, `${c.action}${c.why ? `: ${c.why}` : ""}`]));
  const rel = (f: string) => f.slice(home.length + 1);
  const expected: [string, RegExp][] = [
    [rel(good.file), /^scrubbed$/],
    [rel(damaged.file), /^dropped: cannot be scrubbed: .*(malformed|not a database)/],
    [rel(repair.file), /^scrubbed$/],
    [rel(partial), /^dropped: an unfinished copy$/],
    [rel(theirs.file), root ? /^dropped: owned by uid 65534, not by you$/ : /^scrubbed$/],
    ["backup-20261101T000000Z/mem.sqlite", /^dropped: a copy of another store \(store id /],
    ["before-restore-20261102T000000Z/mem.sqlite", /^scrubbed$/],
    ["before-restore-20261102T000000Z/vectors/v_hash_8.lance", /^dropped: a copy of a vector table/],
    ["hooks.log", /^lines removed: 1 line\(s\) held forgotten text$/],
    ["backups/install/claude/.claude.json", /^dropped: holds forgotten text$/],
    ["ui-open.html", /^dropped: the explorer's opening page/],
    ["hard.txt", /^dropped: holds forgotten text$/],
  ];
  for (const [file, want] of expected) assert.match(fate[file] ?? "(not reported)", want, file);
  assert.equal(Object.keys(fate).length, expected.length, JSON.stringify(fate, null, 2));

  assert.deepEqual(holding(home, MARK), [], "no file of the data home holds the forgotten text");
  assert.equal(readFileSync(join(home, "hooks.log"), "utf8"), "2026-11-01 ok\n2026-11-03 ok\n");
  assert.ok(existsSync(join(home, "backups", "install", "claude", "settings.json")), "a backup without it is kept");
  assert.equal(readFileSync(join(tmp, "outside.txt"), "utf8"), MARK, "a link is not followed");
  assert.equal(readFileSync(join(tmp, "mine.txt"), "utf8"), `my own copy: We keep the ${MARK}\n`, "a hard link's other name keeps its content: the data home's name is removed, not zeroed");
  assert.ok(!existsSync(damaged.file.replace(/\.sqlite$/, ".json")), "a dropped snapshot's manifest goes with it");
  const manifest = JSON.parse(readFileSync(good.file.replace(/\.sqlite$/, ".json"), "utf8")) as { counts: { memories: number }; bytes: number };
  assert.equal(manifest.counts.memories, 1, "the scrubbed snapshot's manifest counts what it holds now");
  assert.equal(manifest.bytes, statSync(good.file).size);
  assert.ok(readFileSync(good.file).includes("rebuilt every Friday"), "scrubbed, not emptied");

  // A second purge has nothing new to remove: the copies left are unchanged, and a damaged one
  // (a repair's backup made since) is kept, saying why, not deleted.
  mkdirSync(join(home, "backup-20261103T000000Z"));
  writeFileSync(join(home, "backup-20261103T000000Z", "mem.sqlite"), Buffer.concat([Buffer.from("SQLite format 3\0"), Buffer.alloc(5_000, 0x41)]));
  const again = openApp(env);
  try {
    const r2 = await purgeEverywhere(again);
    assert.deepEqual(
      r2.copies.filter((c) => c.action !== "unchanged").map((c) => [c.file, c.action]),
      [["backup-20261103T000000Z/mem.sqlite", "kept"]],
    );
    assert.match(r2.copies.find((c) => c.action === "kept")!.why!, /kept, since this purge removed nothing/);
    assert.ok(existsSync(join(home, "backup-20261103T000000Z", "mem.sqlite")));
  } finally {
    await again.close();
  }
});
