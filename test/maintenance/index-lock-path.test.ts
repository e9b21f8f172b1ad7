/**
 * A lock path that is not a lock file (a directory left there by hand or by a tool): an empty one
 * is taken over (nothing is lost), one with files in it fails at once with the path and the fix,
 * never after the two-minute wait nor naming "pid -1". The daemon's lock behaves the same.
 */
import assert from "node:assert/strict";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { acquireLock } from "../../src/daemon/lock.js";
import { lockPath } from "../../src/daemon/paths.cjs";
import { indexLock, indexLockPath } from "../../src/maintenance/index-lock.js";
import { cleanEnv, runMem } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-lock-path-")));
after(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const freshHome = () => {
  const h = join(tmp, `home-${n++}`);
  mkdirSync(h, { recursive: true });
  return h;
};

describe("index.lock that is a directory", () => {
  test("with files in it: the helper fails at once, naming the path and the fix", async () => {
    const home = freshHome();
    mkdirSync(join(indexLockPath(home), "stuff"), { recursive: true });
    const t0 = Date.now();
    const said: string[] = [];
    await assert.rejects(indexLock(home, (l) => said.push(l), 10_000), (err: Error) => {
      assert.match(err.message, new RegExp(`${indexLockPath(home).replace(/[/.]/g, "\\$&")} is a directory with files in it, not a lock file.*rm -r`));
      assert.doesNotMatch(err.message, /pid -1/);
      return true;
    });
    assert.ok(Date.now() - t0 < 2_000, `${Date.now() - t0} ms`);
    assert.deepEqual(said, [], "no wait announced");
    assert.ok(existsSync(join(indexLockPath(home), "stuff")), "nothing of it removed");
  });

  test("empty: taken over, the lock is a file again and released as usual", async () => {
    const home = freshHome();
    mkdirSync(indexLockPath(home));
    const release = await indexLock(home, () => assert.fail("no wait"), 10_000);
    assert.ok(lstatSync(indexLockPath(home)).isFile());
    release();
    assert.equal(existsSync(indexLockPath(home)), false);
  });

  test("mem index exits at once with the fix, not after 120 s", async () => {
    const home = freshHome();
    const notes = join(tmp, "notes");
    mkdirSync(notes, { recursive: true });
    writeFileSync(join(notes, "a.md"), "# A\n\nThe cache.\n");
    mkdirSync(join(indexLockPath(home), "stuff"), { recursive: true });
    const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp };
    const r = await runMem(["index", notes], { env, cwd: tmp, timeoutMs: 30_000 });
    assert.notEqual(r.code, 0);
    assert.ok(r.ms < 10_000, `${r.ms} ms`);
    assert.match(r.stderr, /^mem index: \/.*index\.lock is a directory with files in it, not a lock file.*rm -r/m, "the message, not the error's class name");
    assert.doesNotMatch(r.stderr, /pid -1|waiting for another index run/);
  });
});

test("the daemon's lock path as a directory with files in it: a clear error, not 'already running (pid -1)'", () => {
  const home = freshHome();
  mkdirSync(join(lockPath(home), "x"), { recursive: true });
  assert.throws(() => acquireLock(lockPath(home)), /is a directory with files in it, not a lock file.*rm -r/);
});
