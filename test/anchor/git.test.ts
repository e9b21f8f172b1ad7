import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { git } from "../helpers/git.js";
import { blobId, branchFromHead, currentBranch, fileState, findRepo, gitDirFromFile, lastCommit, MAX_BLOB_BYTES } from "../../src/anchor/git.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-git-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

function repo(name: string): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q");
  writeFileSync(join(dir, "a.txt"), "one\n");
  git(dir, "add", "a.txt");
  git(dir, "commit", "-qm", "first");
  return dir;
}

describe("blob ids are git's", () => {
  test("equal `git hash-object` for text, empty, binary and CRLF content", () => {
    const dir = join(tmp, "blobs");
    mkdirSync(dir);
    const cases: [string, Buffer][] = [
      ["text.c", Buffer.from("int main(void) { return 0; }\n")],
      ["empty", Buffer.alloc(0)],
      ["binary.bin", Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 131) % 256))],
      ["crlf.txt", Buffer.from("a\r\nb\r\n")],
      ["unicode.md", Buffer.from("héllo — ✓\n")],
    ];
    for (const [name, content] of cases) {
      const p = join(dir, name);
      writeFileSync(p, content);
      const expected = execFileSync("git", ["-c", "core.autocrlf=false", "hash-object", "--no-filters", p], { encoding: "utf8" }).trim();
      assert.equal(blobId(readFileSync(p)), expected, name);
      assert.equal(fileState(p).blob, expected, name);
    }
  });

  test("a missing file, a directory and a file over the cap have no blob", () => {
    assert.deepEqual(fileState(join(tmp, "nope")), { blob: null, exists: false, size: -1, mtimeMs: -1 });
    assert.equal(fileState(tmp).exists, false, "a directory is not a file");
    const big = join(tmp, "big.bin");
    writeFileSync(big, Buffer.alloc(1024));
    const s = fileState(big, 1000);
    assert.equal(s.exists, true);
    assert.equal(s.blob, null, "over the cap: no blob");
    assert.equal(s.size, 1024);
    assert.equal(MAX_BLOB_BYTES, 8 * 1024 * 1024);
  });

  test("the system's own files are never read, named or through a link: no blob", { skip: process.platform !== "linux" ? "Linux /proc" : false }, () => {
    const link = join(tmp, "environ-link");
    symlinkSync("/proc/self/environ", link);
    for (const p of ["/proc/self/environ", "/proc/self/status", link]) {
      const s = fileState(p);
      assert.equal(s.exists, true, p);
      assert.equal(s.blob, null, `${p}: not read`);
    }
  });
});

describe("branch from HEAD without git", () => {
  test("HEAD content: attached, detached, odd", () => {
    assert.equal(branchFromHead("ref: refs/heads/main\n"), "main");
    assert.equal(branchFromHead("ref: refs/heads/feature/x-1\n"), "feature/x-1");
    assert.equal(branchFromHead("3f0c2b1e4d5a6978695a4b3c2d1e0f1a2b3c4d5e\n"), null);
    assert.equal(branchFromHead("ref: refs/remotes/origin/main\n"), null);
    assert.equal(gitDirFromFile("gitdir: ../main/.git/worktrees/wt\n", "/w/wt"), "/w/main/.git/worktrees/wt");
    assert.equal(gitDirFromFile("gitdir: /abs/.git/modules/m\n", "/w/x"), "/abs/.git/modules/m");
    assert.equal(gitDirFromFile("nonsense", "/w"), undefined);
  });

  test("a real repository: attached, then a new branch, then detached", () => {
    const dir = repo("attached");
    mkdirSync(join(dir, "src", "deep"), { recursive: true });
    const r = findRepo(join(dir, "src", "deep", "missing.c"));
    assert.equal(r?.root, dir);
    assert.equal(r?.gitDir, join(dir, ".git"));
    assert.equal(currentBranch(r!), "main");
    git(dir, "checkout", "-qb", "feature-x");
    assert.equal(currentBranch(r!), "feature-x");
    git(dir, "checkout", "-q", "--detach");
    assert.equal(currentBranch(r!), null, "a detached HEAD has no branch");
  });

  test("a worktree: its .git is a file naming its own HEAD", () => {
    const dir = repo("with-worktree");
    const wt = join(tmp, "wt-of-it");
    git(dir, "worktree", "add", "-q", "-b", "side", wt);
    writeFileSync(join(wt, "b.txt"), "b\n");
    const r = findRepo(join(wt, "b.txt"));
    assert.equal(r?.root, wt);
    assert.match(r!.gitDir, /\.git\/worktrees\/wt-of-it$/);
    assert.equal(currentBranch(r!), "side");
    assert.equal(currentBranch(findRepo(join(dir, "a.txt"))!), "main", "the main tree keeps its own branch");
  });

  test("no repository above a directory: undefined", () => {
    const dir = mkdtempSync(join(tmpdir(), "mem-nogit-"));
    try {
      // tmpdir() itself may sit inside a repository on some machines: only assert when it does not
      if (!findRepo(tmpdir())) assert.equal(findRepo(join(dir, "x.c")), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("lastCommit gives the commit time and the blob it left", () => {
    const dir = repo("commits");
    const t = git(dir, "log", "-1", "--format=%ct");
    const c = lastCommit(findRepo(dir)!, "a.txt");
    assert.equal(c?.time, Number(t) * 1000);
    assert.equal(c?.blob, git(dir, "rev-parse", "HEAD:a.txt"));
    assert.equal(lastCommit(findRepo(dir)!, "never.txt"), undefined);
  });
});
