/** What a file-system event under a watched root means (src/daemon/watch-events.ts), on a real directory tree. */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { eventEffect, type WatchedRoot } from "../../src/daemon/watch-events.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-watch-events-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
const root = join(tmp, "memory");
mkdirSync(join(root, "sub"), { recursive: true });
writeFileSync(join(root, "notes.md"), "# Notes\n");
writeFileSync(join(root, "build.log"), "x\n");
const dirRoot: WatchedRoot = { path: root, file: false, watchers: new Map([[root, 1], [join(root, "sub"), 1]]) };
const none = new Set<string>();

describe("what a watch event means", () => {
  test("a note, a captured-events file or the ignore rules: re-index; an unknown name: walk again", () => {
    assert.equal(eventEffect(dirRoot, root, "notes.md", none), "index");
    assert.equal(eventEffect(dirRoot, root, "NEW.MDX", none), "index");
    assert.equal(eventEffect(dirRoot, root, "events.jsonl", none), "index");
    assert.equal(eventEffect(dirRoot, root, ".gitignore", none), "rewalk");
    assert.equal(eventEffect(dirRoot, root, null, none), "rewalk");
  });

  test("any other file, existing or already gone, means nothing", () => {
    assert.equal(eventEffect(dirRoot, root, "build.log", none), "none");
    assert.equal(eventEffect(dirRoot, root, ".notes.md.swp", none), "none");
    assert.equal(eventEffect(dirRoot, root, "vanished.tmp", none), "none");
  });

  test("a directory made, a watched one removed, or the watched directory itself gone: walk again; a skipped path: nothing", () => {
    mkdirSync(join(root, "made"));
    assert.equal(eventEffect(dirRoot, root, "made", none), "rewalk");
    assert.equal(eventEffect(dirRoot, root, "sub", none), "rewalk", "a watched directory, whatever its state");
    assert.equal(eventEffect(dirRoot, join(tmp, "gone"), "gone", none), "rewalk", "the directory reports its own removal");
    assert.equal(eventEffect(dirRoot, root, "made", new Set([join(root, "made")])), "none");
  });

  test("a root that is one file: only that file's events count", () => {
    const fileRoot: WatchedRoot = { path: join(root, "notes.md"), file: true, watchers: new Map([[root, 1]]) };
    assert.equal(eventEffect(fileRoot, root, "notes.md", none), "index");
    assert.equal(eventEffect(fileRoot, root, null, none), "index");
    assert.equal(eventEffect(fileRoot, root, "other.md", none), "none");
  });
});
