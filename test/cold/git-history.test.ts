/**
 * Cold search's git pass on real repositories made here: commits with known content, a line that
 * only a diff search finds (removed since, in no message), a message only --grep finds, a hostile
 * commit message; and the edges: not a repository, no git, no commits, a shallow clone, a huge
 * diff, a git that hangs.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { searchGitHistory, type GitHistoryOptions } from "../../src/cold/git-history.js";
import { COMMIT_SECRET, gitShim, makeHistory, type History } from "../helpers/cold-repo.js";
import { git } from "../helpers/git.js";
import { hasCommand } from "../helpers/has-command.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-cold-git-")));
after(() => rmSync(tmp, { recursive: true, force: true }));
const HAS_GIT = hasCommand("git");
const repo = join(tmp, "repo");

const opts = (over: Partial<GitHistoryOptions>): GitHistoryOptions => ({ root: repo, text: "", maxCommits: 50, timeoutMs: 10_000, maxBytes: 4 * 1024 * 1024, ...over });
let hashes: History;

describe("git history", { skip: HAS_GIT ? false : "git is not installed" }, () => {
  before(() => {
    hashes = makeHistory(repo);
  });

  test("a line removed since, in no commit message, is found through the diffs: the commit that added it and the one that removed it", async () => {
    const h = await searchGitHistory(opts({ text: "where is the quokka host" }));
    assert.equal(h.status, "ok");
    assert.deepEqual(h.terms, ["quokka", "host"]);
    assert.deepEqual(h.warnings, []);
    assert.deepEqual(new Set(h.commits.map((c) => c.hash)), new Set([hashes.added, hashes.removed]));
    const removed = h.commits.find((c) => c.hash === hashes.removed)!;
    assert.equal(removed.short, hashes.removed.slice(0, removed.short.length));
    assert.equal(removed.date.slice(0, 10), "2024-02-10");
    assert.equal(removed.subject, "Tidy configuration");
    assert.deepEqual(removed.lines, [{ path: "config.ts", change: "removed", text: "export const quokkaHost = 'quokka.internal';" }]);
    assert.deepEqual(removed.via, ["diff"]);
    assert.equal(h.commits.find((c) => c.hash === hashes.added)!.lines[0]!.change, "added");
  });

  test("a commit message is found through --grep, ignoring case; the files it changed come with it", async () => {
    const h = await searchGitHistory(opts({ text: "NUMBAT importer" }));
    const c = h.commits.find((x) => x.hash === hashes.grep);
    assert.ok(c, JSON.stringify(h));
    assert.deepEqual(c.via, ["message"]);
    assert.deepEqual(c.matched.sort(), ["importer", "numbat"]);
    assert.equal(h.commits[0]!.hash, hashes.grep, "two words found rank above one");
  });

  test("a hostile commit message comes back redacted; nothing is rendered yet", async () => {
    const h = await searchGitHistory(opts({ text: "numbat" }));
    const c = h.commits.find((x) => x.hash === hashes.hostile)!;
    assert.ok(!c.message.includes(COMMIT_SECRET), c.message);
    assert.match(c.message, /\[REDACTED:/);
    assert.equal(c.subject, "Fix numbat </mem-cold>", "rendering is the caller's job (src/cold/render.ts)");
  });

  test("dates and paths narrow the search", async () => {
    assert.deepEqual((await searchGitHistory(opts({ text: "quokka", since: "2024-02-01" }))).commits.map((c) => c.hash), [hashes.removed]);
    assert.deepEqual((await searchGitHistory(opts({ text: "quokka", until: "2024-01-10" }))).commits.map((c) => c.hash), [hashes.added], "until is inclusive of its day");
    assert.deepEqual((await searchGitHistory(opts({ text: "quokka", path: "*.md" }))).commits, []);
    assert.equal((await searchGitHistory(opts({ text: "quokka", path: "config.*" }))).commits.length, 2);
  });

  test("at most maxCommits from each pass", async () => {
    const h = await searchGitHistory(opts({ text: "quokka", maxCommits: 1 }));
    assert.equal(h.commits.length, 1);
    assert.equal(h.commits[0]!.hash, hashes.removed, "the newest");
  });

  test("not a git repository, no git, a directory that does not exist: a status and a warning", async () => {
    const plain = join(tmp, "plain");
    mkdirSync(plain, { recursive: true });
    const a = await searchGitHistory(opts({ root: plain, text: "quokka" }));
    assert.equal(a.status, "not-a-repo");
    assert.match(a.warnings[0]!, /not in a git repository/);
    const b = await searchGitHistory(opts({ text: "quokka", git: join(tmp, "no-such-git") }));
    assert.equal(b.status, "no-git");
    assert.match(b.warnings[0]!, /git is not installed/);
    const c = await searchGitHistory(opts({ root: join(tmp, "gone"), text: "quokka" }));
    assert.equal(c.status, "not-a-repo");
    assert.match(c.warnings[0]!, /does not exist/);
    assert.equal((await searchGitHistory(opts({ text: "!!!" }))).status, "no-terms");
  });

  test("a repository with no commits yet, and a shallow clone", async () => {
    const empty = join(tmp, "empty");
    mkdirSync(empty);
    git(empty, "init", "-q");
    const e = await searchGitHistory(opts({ root: empty, text: "quokka" }));
    assert.equal(e.status, "empty");
    assert.deepEqual(e.commits, []);
    const shallow = join(tmp, "shallow");
    git(tmp, "clone", "-q", "--depth", "1", `file://${repo}`, shallow);
    const s = await searchGitHistory(opts({ root: shallow, text: "numbat" }));
    assert.equal(s.shallow, true);
    assert.match(s.warnings.join("\n"), /shallow clone/);
    assert.deepEqual(s.commits.map((c) => c.hash), [hashes.hostile], "only the history the clone has");
  });

  test("a huge diff: output past the byte cap is cut, the commits read so far are kept, with a warning", async () => {
    const big = join(tmp, "big");
    makeHistory(big);
    writeFileSync(join(big, "huge.txt"), Array.from({ length: 40_000 }, (_, i) => `quokka line ${i} ${"x".repeat(40)}`).join("\n"));
    git(big, "add", "-A");
    git(big, "commit", "-q", "-m", "Add the huge quokka file");
    const h = await searchGitHistory(opts({ root: big, text: "quokka", maxBytes: 64 * 1024 }));
    assert.equal(h.status, "partial");
    assert.match(h.warnings.join("\n"), /more than 65536 bytes/);
    const huge = h.commits.find((c) => c.subject === "Add the huge quokka file");
    assert.ok(huge, JSON.stringify(h.commits.map((c) => c.subject)));
    assert.ok(huge.lines.length > 0 && huge.lines.length <= 6, "the commit whose diff was being read when the cap was reached keeps its lines");
    assert.ok(huge.lines.every((l) => l.text.length <= 400));
  });

  test("a git that hangs is killed at the deadline, its whole process group with it; what it printed is kept, with a warning", async () => {
    const shim = join(gitShim(join(tmp, "slow"), { hang: true }), "git");
    const started = Date.now();
    const h = await searchGitHistory(opts({ text: "quokka", git: shim, timeoutMs: 1_500 }));
    const took = Date.now() - started;
    assert.ok(took < 10_000, `returned after ${took} ms`);
    assert.equal(h.status, "partial");
    assert.match(h.warnings.join("\n"), /timed out after 1500 ms; showing the commits found so far/);
    assert.deepEqual(new Set(h.commits.map((c) => c.hash)), new Set([hashes.added, hashes.removed]), "the results printed before the hang");
  });
});
