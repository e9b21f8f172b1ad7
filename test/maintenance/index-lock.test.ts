/**
 * One run writes the index at a time (`index.lock` in the data home): `mem index`, `mem reindex`,
 * `mem rebuild`, `mem doctor --repair`, `mem rotate` and `mem sync` without a daemon, spawned, each wait while another run holds the lock,
 * say so once, and go on when it is released; the lock helper gives up past its wait with the
 * holder's pid.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { once } from "node:events";
import { indexLock } from "../../src/maintenance/index-lock.js";
import { lockHolder } from "../helpers/lock-holder.js";
import { cleanEnv, runMem, show } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-index-lock-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe("index.lock", () => {
  const home = join(tmp, "home");
  const notes = join(tmp, "notes");
  mkdirSync(notes, { recursive: true });
  writeFileSync(join(notes, "a.md"), "# A\n\nThe cache is warmed at start-up.\n");
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp, MEM_EMBED_ORDER: "none", MEM_NO_DAEMON: "1", MEM_WATCH: "0" };

  test("the helper waits for the holder, then gives up with its pid", async () => {
    const { child } = await lockHolder(home, 1_500);
    const said: string[] = [];
    await assert.rejects(indexLock(home, (l) => said.push(l), 300), new RegExp(`another index run \\(pid ${child.pid}\\) has held`));
    assert.deepEqual(said, [`waiting for another index run (pid ${child.pid}) to finish`]);
    await once(child, "exit");
    const release = await indexLock(home, () => assert.fail("free: no wait"), 300);
    release();
  });

  // `mem sync` with no daemon and no model ends "still without a vector" (exit 1), after the lock.
  const runs: [string[], number[]][] = [[["index", notes], [0, 3]], [["reindex"], [0, 3]], [["rebuild"], [0, 3]], [["doctor", "--repair"], [0, 3]], [["sync"], [0, 1]], [["rotate"], [0]]];
  for (const [args, codes] of runs) {
    test(`mem ${args.join(" ").replace(notes, "NOTES")} waits while another run holds it, then runs`, async () => {
      assert.equal((await runMem(["index", notes, "-q"], { env, cwd: tmp })).code, 0);
      // Let go only once the command says it waits (a loaded machine may take seconds to start it).
      const { child, release } = await lockHolder(home);
      let releasedAt = 0;
      const r = await runMem(args, {
        env,
        cwd: tmp,
        timeoutMs: 60_000,
        onStderr: (soFar) => {
          if (releasedAt === 0 && /waiting for another index run/.test(soFar)) {
            releasedAt = Date.now();
            setTimeout(release, 300);
          }
        },
      }).finally(release);
      assert.ok(codes.includes(r.code ?? -1), show(r));
      assert.match(r.stderr, new RegExp(`waiting for another index run \\(pid ${child.pid}\\) to finish`), show(r));
      assert.ok(Date.now() - releasedAt >= 300, "it ran once the lock was let go");
    });
  }
});
