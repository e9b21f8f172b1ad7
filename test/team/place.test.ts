/**
 * The team folder's files on disk (src/team/place.ts), on a real file system: a file is written
 * whole with mode 0644 whatever the umask, never through a link at its name (the link replaced,
 * its target untouched), no temporary file left; a linked or special file is refused on read;
 * only plain names are written; only regular files are removed.
 */
import assert from "node:assert/strict";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { currentContent, removeFile, sharedFiles, TeamError, writeWhole } from "../../src/team/place.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-team-place-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("writeWhole: 0644 under any umask, a link at the name replaced and never followed, no temporary file left", () => {
  const dir = join(tmp, "w");
  mkdirSync(dir);
  const old = process.umask(0o077);
  try {
    writeWhole(dir, "a.md", "one\n");
  } finally {
    process.umask(old);
  }
  assert.equal(statSync(join(dir, "a.md")).mode & 0o777, 0o644);
  const victim = join(tmp, "victim.txt");
  writeFileSync(victim, "untouched\n");
  symlinkSync(victim, join(dir, "b.md"));
  assert.throws(() => currentContent(dir, "b.md"), (e: Error) => e instanceof TeamError && /is a link/.test(e.message));
  writeWhole(dir, "b.md", "two\n");
  assert.equal(readFileSync(victim, "utf8"), "untouched\n");
  assert.ok(lstatSync(join(dir, "b.md")).isFile());
  assert.equal(currentContent(dir, "b.md"), "two\n");
  assert.equal(currentContent(dir, "none.md"), undefined);
  for (const bad of ["../x.md", "sub/x.md", ".hidden.md", "x.txt", ""]) assert.throws(() => writeWhole(dir, bad, "x"), TeamError, bad);
  assert.deepEqual(readdirSync(dir).sort(), ["a.md", "b.md"]);
  symlinkSync(victim, join(dir, "c.md"));
  assert.equal(removeFile(dir, "c.md"), false, "a link is not removed");
  assert.equal(removeFile(dir, "../victim.txt"), false);
  assert.equal(removeFile(dir, "a.md"), true);
  assert.equal(readFileSync(victim, "utf8"), "untouched\n");
});

test("sharedFiles: mem-ids of regular files only (their head), however large; a link to a file with a mem-id is not read", () => {
  const dir = join(tmp, "s");
  mkdirSync(dir);
  writeFileSync(join(dir, "one.md"), '---\nmem-id: "mem:1"\n---\n# One\n');
  writeFileSync(join(tmp, "outside.md"), '---\nmem-id: "mem:2"\n---\n');
  symlinkSync(join(tmp, "outside.md"), join(dir, "two.md"));
  writeFileSync(join(dir, "big.md"), `---\nmem-id: "mem:3"\n---\n${"x".repeat(300 * 1024)}`);
  const s = sharedFiles(dir);
  assert.deepEqual([...s.byMemId].sort(), [["mem:1", "one.md"], ["mem:3", "big.md"]], "a large file's mem-id is read from its head");
  assert.deepEqual([...s.taken].sort(), ["big.md", "one.md", "two.md"]);
  assert.deepEqual([...sharedFiles(dir, (name) => name === "one.md").byMemId], [["mem:3", "big.md"]], "a file the caller knows is not read");
  assert.equal(sharedFiles(dir, undefined, 1).incomplete, true, "past maxReads: incomplete");
  assert.equal(sharedFiles(dir, undefined, 2).incomplete, undefined);
});

test("writeWhole of a new file (fresh): a file that appeared at the name meanwhile (a concurrent share, a pull) is left whole, and the write refused", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "mem-place-fresh-")));
  try {
    writeWhole(dir, "same-title.md", "first memory\n", { fresh: true });
    assert.throws(() => writeWhole(dir, "same-title.md", "second memory\n", { fresh: true }), (e: Error) => e instanceof TeamError && /meanwhile/.test(e.message));
    assert.equal(readFileSync(join(dir, "same-title.md"), "utf8"), "first memory\n");
    assert.deepEqual(readdirSync(dir), ["same-title.md"], "no temporary file left");
    writeWhole(dir, "same-title.md", "rewritten\n");
    assert.equal(readFileSync(join(dir, "same-title.md"), "utf8"), "rewritten\n", "a rewrite (not fresh) replaces it");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
