/**
 * A code copy's int8 rows kept in a private file (src/retrieve/row-file.ts) over a real LanceDB
 * table: the file is its user's alone and never reached through a link; a copy that cannot make or
 * write it holds the rows in memory and says why; a search while the copy changes (rows added,
 * removed, squeezed out) reads each row's own int8 row.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, closeSync, existsSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { after, test } from "node:test";
import { cleanText } from "../../src/redact/clean.cjs";
import { CodeIndex } from "../../src/retrieve/code-index.js";
import { RowFile } from "../../src/retrieve/row-file.js";
import { VectorStore } from "../../src/store/vectors.js";
import { ClusteredVectors } from "../helpers/clustered-vectors.js";

const dir = mkdtempSync(join(tmpdir(), "mem-rowfile-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const DIMS = 128;
const gen = ClusteredVectors.synthetic(DIMS, 30, 41);
type Row = { id: ReturnType<typeof cleanText>; project: ReturnType<typeof cleanText>; vector: Float32Array };
const rowsOf = (n: number, from = 0, project = "a"): Row[] => Array.from({ length: n }, (_, k) => ({ id: cleanText(`r${from + k}`), project: cleanText(project), vector: gen.next() }));
const rows = rowsOf(2_000);
const storeP = (async () => {
  const store = await VectorStore.open(join(dir, "lance"));
  await store.ensure("t", DIMS);
  await store.upsert("t", rows);
  return store;
})();
const mode = (p: string) => (lstatSync(p).mode & 0o777).toString(8);

/** A copy with its int8 rows in `rowsDir` (or in memory when it cannot), and what it logged. */
async function copyIn(rowsDir: string): Promise<{ idx: CodeIndex; logs: string[] }> {
  const logs: string[] = [];
  const idx = await CodeIndex.load(await storeP, "t", DIMS, "v1", { rowsDir, log: (l) => logs.push(l) });
  return { idx, logs };
}

/** The copy answers as the copy holding its int8 rows in memory does. */
async function answersAsInMemory(idx: CodeIndex): Promise<void> {
  const ref = await CodeIndex.load(await storeP, "t", DIMS, "v1");
  for (let t = 0; t < 5; t++) {
    const q = gen.next();
    assert.deepEqual(idx.search(q, undefined, 20), ref.search(q, undefined, 20));
  }
}

test("the int8 rows' file is 0600 in a 0700 folder (a loosened folder closed again), holds the rows, and is removed on close", async () => {
  const rowsDir = join(dir, "private");
  const { idx, logs } = await copyIn(rowsDir);
  assert.deepEqual(logs, []);
  const path = idx.rowsPath!;
  assert.ok(path.startsWith(`${rowsDir}/`), path);
  assert.equal(mode(rowsDir), "700");
  assert.equal(mode(path), "600");
  assert.equal(statSync(path).size, 2_000 * DIMS);
  assert.equal(idx.fileBytes, 2_000 * DIMS);
  await answersAsInMemory(idx);
  await idx.close();
  assert.equal(existsSync(path), false, "removed on close");
  chmodSync(rowsDir, 0o755);
  const again = await copyIn(rowsDir);
  assert.equal(mode(rowsDir), "700", "a folder opened to others is closed again");
  await again.idx.close();
});

test("a folder planted as a symlink is refused: nothing is written where it points, the rows are held in memory and the log says why", async () => {
  const elsewhere = join(dir, "elsewhere");
  mkdirSync(elsewhere);
  const rowsDir = join(dir, "linked");
  symlinkSync(elsewhere, rowsDir);
  const { idx, logs } = await copyIn(rowsDir);
  assert.equal(idx.rowsPath, undefined);
  assert.deepEqual(readdirSync(elsewhere), [], "nothing written through the link");
  assert.equal(logs.length, 1);
  assert.match(logs[0]!, /cannot be kept in a file .*symlink.*holding them in memory/);
  await answersAsInMemory(idx);
});

test("a symlink planted at the file's name is never written through: its target is unchanged and the copy still answers", async () => {
  const rowsDir = join(dir, "planted");
  const first = await copyIn(rowsDir);
  const n = Number(/-(\d+)\.i8$/.exec(first.idx.rowsPath!)![1]);
  await first.idx.close();
  // the name the next copy of this process will take
  const victim = join(dir, "victim.txt");
  writeFileSync(victim, "keep me");
  symlinkSync(victim, join(rowsDir, `rows-${process.pid}-${n + 1}.i8`));
  const { idx, logs } = await copyIn(rowsDir);
  assert.equal(readFileSync(victim, "utf8"), "keep me", "the link's target is untouched");
  assert.equal(idx.rowsPath, undefined);
  assert.match(logs.join("\n"), /cannot be kept in a file .*EEXIST.*holding them in memory/);
  await answersAsInMemory(idx);
});

test("a folder that cannot be made (a file in the way): the rows are held in memory, the copy answers, the log says why", async () => {
  const blocker = join(dir, "blocker");
  writeFileSync(blocker, "");
  const { idx, logs } = await copyIn(join(blocker, "rows"));
  assert.equal(idx.rowsPath, undefined);
  assert.equal(idx.fileBytes, 0);
  assert.equal(logs.length, 1);
  assert.match(logs[0]!, /holding them in memory/);
  await answersAsInMemory(idx);
});

test("a file that cannot be written to the end (a full disk): the copy is read again with its rows in memory, answers, and says why", async (t) => {
  // a file system of 64 KiB (root only): the 2,000 rows' 256,000 bytes do not fit
  const small = join(dir, "small");
  mkdirSync(small);
  if (process.getuid?.() !== 0 || spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", small]).status !== 0) {
    t.skip("needs root and tmpfs to make a full disk");
    return;
  }
  try {
    const { idx, logs } = await copyIn(join(small, "rows"));
    assert.equal(idx.rowsPath, undefined);
    assert.equal(logs.length, 1, logs.join("\n"));
    assert.match(logs[0]!, /cannot be kept in a file .*ENOSPC.*holding them in memory/);
    assert.deepEqual(readdirSync(join(small, "rows")), [], "the partial file removed");
    await answersAsInMemory(idx);
  } finally {
    spawnSync("umount", [small]);
  }
});

test("the file of a process that died is removed by the next copy; a link there is left alone, its target untouched", async () => {
  const rowsDir = join(dir, "sweep");
  mkdirSync(rowsDir, { mode: 0o700 });
  const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  const deadPid = Number(dead.stdout);
  const victim = join(dir, "victim2.txt");
  writeFileSync(victim, "keep me too");
  writeFileSync(join(rowsDir, `rows-${deadPid}-1.i8`), "left by a dead process", { mode: 0o600 });
  symlinkSync(victim, join(rowsDir, `rows-${deadPid}-2.i8`));
  const { idx } = await copyIn(rowsDir);
  const names = readdirSync(rowsDir).sort();
  assert.deepEqual(names, [`rows-${deadPid}-2.i8`, basename(idx.rowsPath!)].sort(), "the dead process's file removed, the link left");
  assert.equal(readFileSync(victim, "utf8"), "keep me too");
  await idx.close();
});

test("a search while the copy changes in place (rows added, removed, squeezed out) scores each row by its own int8 row", async () => {
  const store = await VectorStore.open(join(dir, "lance-busy"));
  await store.ensure("busy", DIMS);
  const base = rowsOf(20_000, 100_000, "b");
  for (let i = 0; i < base.length; i += 5_000) await store.upsert("busy", base.slice(i, i + 5_000));
  const all = { factor: 1, min: 1_000_000, share: 0 };
  const idx = await CodeIndex.load(store, "busy", DIMS, "v1", { rowsDir: join(dir, "busy"), candidates: all });
  const added = rowsOf(500, 200_000, "c");
  // over a tenth, in one block: compacted, every later row moving down in one run through the slices
  const removed = base.slice(0, 2_500).map((r) => r.id as string);
  await store.upsert("busy", added);
  // every row's int8 score, from a copy holding all of them (the removed ones too) in memory
  const union = await VectorStore.open(join(dir, "lance-union"));
  await union.ensure("u", DIMS);
  for (const part of [base.slice(0, 10_000), base.slice(10_000), added]) await union.upsert("u", part);
  const ref = await CodeIndex.load(union, "u", DIMS, "v1", { candidates: all });
  const queries = Array.from({ length: 4 }, () => gen.next());
  const want = queries.map((q) => new Map(ref.search(q, undefined, 30_000).map((h) => [h.id, h.similarity])));
  await store.delete("busy", removed);
  let done = false;
  const refreshed = idx.refresh(store, "v2", { gone: new Set(removed), recorded: new Set(added.map((r) => r.id as string)) }).then((r) => {
    done = true;
    return r;
  });
  let searches = 0;
  while (!done) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const k = searches++ % queries.length;
    const hits = idx.search(queries[k]!, undefined, 40);
    assert.equal(new Set(hits.map((h) => h.id)).size, hits.length, "each row once");
    for (const h of hits) assert.equal(h.similarity, want[k]!.get(h.id), `${h.id}: its own int8 score`);
  }
  assert.equal(await refreshed, idx);
  assert.ok(searches >= 3, `searches ran meanwhile: ${searches}`);
  assert.equal(idx.dead, 0, "compacted");
  assert.equal(idx.size, 20_000 - removed.length + 500);
  const gone = new Set(removed);
  for (const [k, q] of queries.entries()) {
    const hits = idx.search(q, undefined, 40);
    for (const h of hits) {
      assert.ok(!gone.has(h.id), `${h.id} was removed`);
      assert.equal(h.similarity, want[k]!.get(h.id));
    }
  }
  await idx.close();
  store.close();
  union.close();
});

test("a row file used after it is closed throws, and never writes into the file that took its descriptor's number", () => {
  const rowsDir = join(dir, "after-close");
  const f = RowFile.create(rowsDir, 4);
  f.close();
  const victimPath = join(dir, "victim3.txt");
  writeFileSync(victimPath, "ABCDEFGH");
  const fd = openSync(victimPath, "r+"); // most often the number the row file had
  try {
    assert.throws(() => f.write(1, new Int8Array([0x31, 0x32, 0x33, 0x34]), 1), /closed/);
    assert.throws(() => f.read(0, new Int8Array(4), 0), /closed/);
    assert.throws(() => f.truncate(0), /closed/);
    assert.equal(readFileSync(victimPath, "utf8"), "ABCDEFGH", "the file opened after the close is untouched");
  } finally {
    closeSync(fd);
  }
});

test("a copy let go while it refreshes stops writing: the refresh fails, nothing lands in a file opened after it", async () => {
  const store = await VectorStore.open(join(dir, "lance-close"));
  await store.ensure("c", DIMS);
  await store.upsert("c", rowsOf(3_000, 300_000, "c"));
  const idx = await CodeIndex.load(store, "c", DIMS, "v1", { rowsDir: join(dir, "close-mid") });
  const added = rowsOf(900, 400_000, "c");
  await store.upsert("c", added);
  const refreshing = idx.refresh(store, "v2", { gone: new Set(), recorded: new Set(added.map((r) => r.id as string)) });
  await idx.close();
  const victimPath = join(dir, "victim4.txt");
  writeFileSync(victimPath, "untouched");
  const fd = openSync(victimPath, "r+");
  try {
    await assert.rejects(refreshing, /closed/);
    assert.equal(readFileSync(victimPath, "utf8"), "untouched");
  } finally {
    closeSync(fd);
    store.close();
  }
});

test("a file left by a dead process whose pid is this one's now is removed, not taken for ours (nor does it block ours)", async () => {
  const rowsDir = join(dir, "pid-back");
  mkdirSync(rowsDir, { mode: 0o700 });
  const stale = join(rowsDir, `rows-${process.pid}-9999.i8`);
  writeFileSync(stale, Buffer.alloc(1_024), { mode: 0o600 });
  const { idx } = await copyIn(rowsDir);
  assert.ok(idx.rowsPath, "the copy keeps its rows in a file");
  assert.deepEqual(readdirSync(rowsDir), [basename(idx.rowsPath!)], "the stale file is gone");
  await idx.close();
});
