/**
 * Reality anchoring end to end: a session edits src/auth.c and states a decision naming it (hooks
 * spawned as Claude Code spawns them, in a real git repository); then the file is edited,
 * committed, deleted, the branch switched, and the memory re-anchored, and `mem query --json`
 * says at each step whether the memory is possibly outdated.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { reanchorEvents } from "../../src/anchor/anchor.js";
import { AnchorCache } from "../../src/anchor/cache.js";
import { staleFlags } from "../../src/anchor/staleness.js";
import { anchorsOf } from "../../src/store/anchors.js";
import { git } from "../helpers/git.js";
import { edit, makeRepo, query, say, withDb, type QueryResult, type Session } from "./scenario.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-outdated-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

const DECISION = "[MEMORY: decision] Keep the token comparison in src/auth.c constant-time";

describe("a memory about a file that changed says so", () => {
  test("no flag, changed, committed, deleted, another branch, re-anchored", async () => {
    const repo = makeRepo(join(tmp, "repo"), { "src/auth.c": "int check(void) { return 0; }\n", "README.md": "# app\n" });
    const s: Session = { home: tmp, repo, id: "sess-outdated", transcript: join(tmp, "t.jsonl") };
    writeFileSync(join(repo, "src/auth.c"), "int check(void) { return memcmp_ct(); }\n"); // the edit the tool made
    await edit(s, "toolu_edit1", "src/auth.c");
    await say(s, [{ text: `Done.\n${DECISION}`, time: Date.now() }]);

    const decision = (rs: QueryResult[]) => rs.find((r) => r.kind === "decision" && r.text.includes("constant-time"));
    const editOf = (rs: QueryResult[]) => rs.find((r) => r.kind === "file_modified");

    // Anchored: both the edit and the decision (whose text names the file) recorded the blob the file has now.
    const blobNow = git(repo, "hash-object", "src/auth.c");
    const anchors = withDb(s, (db) => db.prepare("SELECT memory, path, blob, branch FROM anchors ORDER BY memory").all() as { memory: string; path: string; blob: string; branch: string }[]);
    assert.equal(anchors.length, 2, JSON.stringify(anchors));
    for (const a of anchors) assert.deepEqual([a.path, a.blob, a.branch], [join(repo, "src/auth.c"), blobNow, "main"]);

    let rs = await query(s, "token comparison constant");
    assert.equal(decision(rs)?.stale, null, "fresh: no flag");
    assert.equal(decision(rs)?.convergent, true, "the decision names the file the session edited: they converge");

    // The file is edited again (no commit) two days' mtime ago: changed, dated by its mtime.
    writeFileSync(join(repo, "src/auth.c"), "int check(void) { return 1; }\n");
    const twoDays = (Date.now() - 2 * 86_400_000) / 1000;
    utimesSync(join(repo, "src/auth.c"), twoDays, twoDays);
    // The same PostToolUse delivered again does not re-anchor the memory to the new content.
    await edit(s, "toolu_edit1", "src/auth.c");
    rs = await query(s, "token comparison constant");
    assert.equal(decision(rs)?.stale, "possibly outdated: src/auth.c changed 2 days ago");
    // Found beside the decision, the edit is shown as part of it (they converged); asked for alone, it is flagged too.
    rs = await query(s, "auth");
    assert.equal(editOf(rs), undefined, "shown as one with the decision it converged with");
    rs = await query(s, "auth", ["--kind", "file_modified"]);
    assert.equal(editOf(rs)?.stale, "possibly outdated: src/auth.c changed 2 days ago", "the edit event is flagged too");

    // Committed: the change is dated by the commit (now), not the mtime.
    git(repo, "commit", "-qam", "return 1");
    rs = await query(s, "token comparison constant");
    assert.equal(decision(rs)?.stale, "possibly outdated: src/auth.c changed just now");
    const commitMs = Number(git(repo, "log", "-1", "--format=%ct")) * 1000;
    const ids = withDb(s, (db) => db.prepare("SELECT id FROM events WHERE type = 'decision'").pluck().all() as string[]);
    const later = withDb(s, (db) => staleFlags(db, ids, repo, commitMs + 3 * 86_400_000 + 1000, { git: true, cache: new AnchorCache() }));
    assert.equal(later.get(ids[0]!)?.text, "possibly outdated: src/auth.c changed 3 days ago", "three days after the commit");
    assert.equal(later.get(ids[0]!)?.penalty, true);

    // Deleted.
    unlinkSync(join(repo, "src/auth.c"));
    rs = await query(s, "token comparison constant");
    assert.equal(decision(rs)?.stale, "possibly outdated: src/auth.c deleted");

    // Back, on another branch.
    git(repo, "checkout", "-q", "--", "src/auth.c");
    git(repo, "checkout", "-qb", "feature-x");
    rs = await query(s, "token comparison constant");
    assert.match(decision(rs)!.stale!, /^possibly outdated: src\/auth\.c changed (just now|\d+ \w+ ago); captured on branch main$/);

    // Reinforced: re-anchored to the file as it is now, on this branch; the flag clears.
    const n = withDb(s, (db) => reanchorEvents(db, ids, Date.now(), new AnchorCache()));
    assert.equal(n, 1);
    withDb(s, (db) => assert.deepEqual(anchorsOf(db, ids).get(ids[0]!)?.map((a) => [a.blob, a.branch]), [[git(repo, "hash-object", "src/auth.c"), "feature-x"]]));
    rs = await query(s, "token comparison constant");
    assert.equal(decision(rs)?.stale, null, "re-anchored: no flag");
    rs = await query(s, "auth", ["--kind", "file_modified"]);
    assert.match(editOf(rs)?.stale ?? "", /captured on branch main/, "the edit, not re-anchored, still says where it was captured");
  });

  test("the human output of mem query shows the flag on its own line", async () => {
    const repo = makeRepo(join(tmp, "repo2"), { "lib/cache.py": "x = 1\n" });
    const s: Session = { home: join(tmp, "h2"), repo, id: "sess-human", transcript: join(tmp, "t2.jsonl") };
    await say(s, [{ text: "[MEMORY: learned] The eviction bug lives in lib/cache.py", time: Date.now() }]);
    unlinkSync(join(repo, "lib/cache.py"));
    const { runMem, cleanEnv } = await import("../helpers/mem-cli.js");
    const r = await runMem(["query", "eviction", "--mode", "bm25"], { env: { ...cleanEnv(join(s.home, ".claude")), HOME: s.home, MEM_HOME: join(s.home, "mem") }, cwd: repo });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\n {3}\(possibly outdated: lib\/cache\.py deleted\)/);
  });
});
