/**
 * A capture that cannot be written because another process holds SQLite's write lock past the
 * busy timeout is spooled, not lost (and no damage is claimed); the next capture that can write
 * replays it. Real processes: the lock is held by a child process with BEGIN IMMEDIATE.
 */
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { cleanEnv } from "../helpers/mem-cli.js";
import { sqliteLockHolder } from "../helpers/lock-holder.js";
import { spawnHook } from "../hooks/helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-locked-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const bash = (id: string, command: string, cwd: string) => JSON.stringify({ session_id: "sess-l", cwd, hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: id, tool_input: { command }, tool_response: { stdout: "ok", stderr: "" } });

describe("a capture while another process holds the store's write lock", () => {
  test("is spooled (hook exits 0, no damage marker), and written by the next capture once the lock is gone", async () => {
    const home = join(tmp, "home");
    const proj = join(tmp, "proj");
    mkdirSync(join(proj, ".git"), { recursive: true });
    const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp };
    assert.equal((await spawnHook("post-tool-use", bash("toolu_before", "make before-the-lock", proj), env)).code, 0);
    const file = join(home, "mem.sqlite");
    const lock = await sqliteLockHolder(file);
    try {
      const r = await spawnHook("post-tool-use", bash("toolu_locked", "make while-locked", proj), env);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "");
      assert.match(readFileSync(join(home, "capture-spool.jsonl"), "utf8"), /while-locked/, "the capture waits in the spool");
      assert.ok(!existsSync(join(home, "store-damaged.json")), "a locked store is not a damaged one");
      assert.match(readFileSync(join(home, "hooks.log"), "utf8"), /could not be written \(SQLITE_BUSY/);
    } finally {
      await lock.release();
    }
    assert.equal((await spawnHook("post-tool-use", bash("toolu_after", "make after-the-lock", proj), env)).code, 0);
    assert.ok(!existsSync(join(home, "capture-spool.jsonl")), "the spool was replayed");
    const db = new Database(file, { readonly: true });
    const ids = db.prepare("SELECT id FROM events ORDER BY id").pluck().all();
    db.close();
    assert.deepEqual(ids, ["toolu_after", "toolu_before", "toolu_locked"]);
  });

  test("SessionEnd waits for the lock only what its 1.2 s deadline leaves, then spools: it is done long before SQLite's default 5 s wait", async () => {
    const home = join(tmp, "home-end");
    const proj = join(tmp, "proj-end");
    mkdirSync(join(proj, ".git"), { recursive: true });
    const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp };
    assert.equal((await spawnHook("post-tool-use", bash("toolu_first", "make first", proj), env)).code, 0);
    const lock = await sqliteLockHolder(join(home, "mem.sqlite"));
    try {
      const started = performance.now();
      const r = await spawnHook("session-end", JSON.stringify({ session_id: "sess-end", cwd: proj, hook_event_name: "SessionEnd", reason: "logout" }), env);
      const took = performance.now() - started;
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "");
      // With SQLite's default busy timeout the hook sat 5 s in one synchronous wait, past its deadline
      // and past the time Claude Code gives SessionEnd: killed, the capture was lost.
      assert.ok(took < 5_000, `the hook ended after ${Math.round(took)} ms`);
      assert.match(readFileSync(join(home, "capture-spool.jsonl"), "utf8"), /sess-end/, "the session's end waits in the spool");
    } finally {
      await lock.release();
    }
  });
});
