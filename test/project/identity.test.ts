import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { GLOBAL_PROJECT } from "../../src/config/config.js";
import { resolveProject } from "../../src/project/identity.js";
import { projectFromArg, searchScope, storedProjects } from "../../src/project/scope.js";
import { ChunkStore } from "../../src/store/chunks.js";
import { openDb, type Db } from "../../src/store/db.js";
import { clean } from "../../src/redact/clean.cjs";

/** Real path of a fresh temp dir (the OS temp dir may itself sit behind a symlink). */
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-identity-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const git = (...args: string[]) =>
  execFileSync("git", args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@e", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@e" } }).toString();
const gitInit = (dir: string) => {
  mkdirSync(dir, { recursive: true });
  git("init", "-q", dir);
  return dir;
};
const file = (path: string, text = "# note\n") => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
};

describe("resolveProject", () => {
  const repo = join(tmp, "repo");
  const nested = join(repo, "vendor", "inner");
  const plain = join(tmp, "plain", "dir");
  before(() => {
    gitInit(repo);
    file(join(repo, "docs", "a", "b", "c", "deep.md"));
    gitInit(nested);
    file(join(nested, "notes", "n.md"));
    mkdirSync(plain, { recursive: true });
    file(join(plain, "x.md"));
  });

  test("the temp area itself is outside any git repo (precondition for the non-git cases)", () => {
    assert.throws(() => git("-C", tmp, "rev-parse", "--show-toplevel"));
  });

  test("a file or directory deep inside a repo belongs to the repo's top level", () => {
    for (const p of [join(repo, "docs", "a", "b", "c", "deep.md"), join(repo, "docs", "a", "b"), repo]) {
      const proj = resolveProject(p);
      assert.deepEqual(proj, { id: repo, name: "repo", root: repo }, p);
    }
    // agrees with git itself
    assert.equal(git("-C", join(repo, "docs", "a"), "rev-parse", "--show-toplevel").trim(), resolveProject(join(repo, "docs", "a")).id);
  });

  test("a relative path resolves against the process cwd", () => {
    const rel = relative(process.cwd(), join(repo, "docs", "a", "b", "c", "deep.md"));
    assert.equal(resolveProject(rel).id, repo);
  });

  test("a repo nested inside a repo is its own project", () => {
    assert.deepEqual(resolveProject(join(nested, "notes", "n.md")), { id: nested, name: "inner", root: nested });
    assert.equal(resolveProject(join(repo, "vendor")).id, repo, "the directory above the nested repo is still the outer repo");
  });

  test("a .git FILE marks a top level: a real git worktree and a submodule-style gitdir file", () => {
    const main = gitInit(join(tmp, "wt-main"));
    git("-C", main, "commit", "-q", "--allow-empty", "-m", "init");
    // the worktree lives inside another repo, so only its .git file can make it a top level
    const wt = join(repo, "trees", "feature");
    git("-C", main, "worktree", "add", "-q", wt);
    file(join(wt, "notes", "w.md"));
    assert.deepEqual(resolveProject(join(wt, "notes", "w.md")), { id: wt, name: "feature", root: wt });
    assert.equal(git("-C", join(wt, "notes"), "rev-parse", "--show-toplevel").trim(), wt);

    const sub = join(repo, "modules", "lib");
    file(join(sub, ".git"), "gitdir: ../../.git/modules/lib\n");
    file(join(sub, "src", "readme.md"));
    assert.equal(resolveProject(join(sub, "src", "readme.md")).id, sub);
    assert.equal(resolveProject(join(repo, "modules")).id, repo);
  });

  test("a symlink into a repo, and a symlinked repo directory, resolve to the real top level", () => {
    const linkIntoRepo = join(tmp, "links", "into-docs");
    const linkToRepo = join(tmp, "links", "repo-link");
    mkdirSync(join(tmp, "links"), { recursive: true });
    symlinkSync(join(repo, "docs", "a"), linkIntoRepo, "dir");
    symlinkSync(repo, linkToRepo, "dir");
    const fileLink = join(tmp, "links", "deep-file.md");
    symlinkSync(join(repo, "docs", "a", "b", "c", "deep.md"), fileLink, "file");

    assert.deepEqual(resolveProject(join(linkIntoRepo, "b", "c", "deep.md")), { id: repo, name: "repo", root: repo });
    assert.deepEqual(resolveProject(linkIntoRepo), { id: repo, name: "repo", root: repo });
    assert.deepEqual(resolveProject(linkToRepo), { id: repo, name: "repo", root: repo });
    assert.equal(resolveProject(join(linkToRepo, "docs")).id, repo);
    assert.equal(resolveProject(fileLink).id, repo, "a symlinked file belongs to the repo of its target");
    assert.equal(resolveProject(join(linkToRepo, "vendor", "inner", "notes")).id, nested);
  });

  test("a non-git directory is its own project, keyed by its absolute real path", () => {
    assert.deepEqual(resolveProject(plain), { id: plain, name: "dir", root: plain });
    assert.deepEqual(resolveProject(join(plain, "x.md")), { id: plain, name: "dir", root: plain }, "a file means its directory");
    const link = join(tmp, "plain-link");
    symlinkSync(plain, link, "dir");
    assert.equal(resolveProject(link).id, plain);
    assert.equal(resolveProject(join(plain, "..")).id, join(tmp, "plain"), "parent dir is a different project");
  });

  test("a path that does not exist is treated as a directory: its own project, or the enclosing repo", () => {
    const ghost = join(tmp, "nowhere", "at", "all");
    assert.deepEqual(resolveProject(ghost), { id: ghost, name: "all", root: ghost });
    assert.equal(resolveProject(join(repo, "docs", "not-yet", "new.md")).id, repo);
    assert.equal(resolveProject(join(nested, "future")).id, nested);
  });

  test("a path that does not exist yet, under a symlink into a repo, still resolves to the real top level", () => {
    const link = join(tmp, "links2", "repo-link");
    mkdirSync(join(tmp, "links2"), { recursive: true });
    symlinkSync(repo, link, "dir");
    assert.deepEqual(resolveProject(join(link, "docs", "not-yet", "new.md")), { id: repo, name: "repo", root: repo });
    const plainLink = join(tmp, "links2", "plain-link");
    symlinkSync(plain, plainLink, "dir");
    assert.equal(resolveProject(join(plainLink, "later")).id, join(plain, "later"));
  });

  test("the file system root is a project of its own with a usable name", () => {
    const proj = resolveProject("/");
    assert.equal(proj.id, "/");
    assert.equal(proj.name, "/");
  });

  test("override wins over any path; it is trimmed; a blank override is ignored", () => {
    assert.deepEqual(resolveProject(join(repo, "docs"), "team-notes"), { id: "team-notes", name: "team-notes", root: undefined });
    assert.deepEqual(resolveProject(join(tmp, "nowhere"), "  spaced  "), { id: "spaced", name: "spaced", root: undefined });
    assert.equal(resolveProject(join(repo, "docs"), "   ").id, repo);
    assert.equal(resolveProject(join(repo, "docs"), "").id, repo);
  });
});

describe("projectFromArg and searchScope", () => {
  let db: Db;
  const a = join(tmp, "scope", "one", "app");
  const b = join(tmp, "scope", "two", "app");
  const c = join(tmp, "scope", "three", "tool");
  const cwdDir = join(tmp, "scope", "cwd");
  before(() => {
    for (const d of [a, b, c, cwdDir]) mkdirSync(d, { recursive: true });
    db = openDb(join(tmp, "scope", "mem.sqlite"));
    const store = new ChunkStore(db);
    const src = (project: string, path: string) =>
      store.replaceSource(clean({ project, path, kind: "markdown", tier: "warm", size: 1, mtimeMs: 1, hash: "h", metadata: {} }), [], 1);
    src(a, join(a, "n.md"));
    src(b, join(b, "n.md"));
    src(c, join(c, "n.md"));
    src("team-notes", "/somewhere/else.md");
  });
  after(() => db.close());

  test("storedProjects lists distinct stored ids, sorted", () => {
    assert.deepEqual(storedProjects(db), [a, c, b, "team-notes"].sort());
  });

  test("no value: the project of cwd", () => {
    assert.deepEqual(projectFromArg(db, undefined, cwdDir), { id: cwdDir, name: "cwd", root: cwdDir });
  });

  test("a path (slash, '.', '..') is resolved like any path, relative to the given cwd", () => {
    assert.equal(projectFromArg(db, c, cwdDir).id, c);
    assert.equal(projectFromArg(db, "../three/tool", cwdDir).id, c);
    assert.equal(projectFromArg(db, ".", cwdDir).id, cwdDir);
    assert.equal(projectFromArg(db, "..", cwdDir).id, join(tmp, "scope"));
  });

  test("a stored id is taken as is", () => {
    assert.deepEqual(projectFromArg(db, "team-notes", cwdDir), { id: "team-notes", name: "team-notes", root: undefined });
  });

  test("a unique base name of a stored path project means that project; an ambiguous one does not", () => {
    assert.deepEqual(projectFromArg(db, "tool", cwdDir), { id: c, name: "tool", root: c });
    const ambiguous = projectFromArg(db, "app", cwdDir);
    assert.notEqual(ambiguous.id, a);
    assert.notEqual(ambiguous.id, b);
    assert.deepEqual(ambiguous, { id: "app", name: "app", root: undefined });
    assert.deepEqual(projectFromArg(db, "unknown-name", cwdDir), { id: "unknown-name", name: "unknown-name", root: undefined });
  });

  test("searchScope adds the global project unless disabled or already global", () => {
    const p = resolveProject(c);
    assert.deepEqual(searchScope(p, true), [c, GLOBAL_PROJECT]);
    assert.deepEqual(searchScope(p, false), [c]);
    assert.deepEqual(searchScope(resolveProject(cwdDir, GLOBAL_PROJECT), true), [GLOBAL_PROJECT]);
    assert.equal(basename(c), "tool");
  });
});
