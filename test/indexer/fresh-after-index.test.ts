import assert from "node:assert/strict";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { CLOCK_SLACK_MS, SETTLED_MS, settledDirs } from "../../indexer/root-state.js";
import { quickStale } from "../../indexer/stale.js";
import { makeEnv, type IndexerEnv } from "../helpers/indexer-env.js";

const envs: IndexerEnv[] = [];
after(async () => {
  for (const e of envs) await e.close();
});

describe("settledDirs: which directory mtimes, as the walk read them, the freshness check trusts exactly", () => {
  const at = 1_700_000_000_000;
  const cases: { name: string; dir: string; mtime: number; kept: boolean }[] = [
    { name: "changed half a second before the run", dir: "/r/a", mtime: at - 500.25, kept: true },
    { name: "the root itself", dir: "/r", mtime: at - 1_999.5, kept: true },
    { name: "older than the slack: the plain time rule already passes it", dir: "/r/b", mtime: at - CLOCK_SLACK_MS - 1.5, kept: false },
    { name: "not settled: changed just before the run started (a change after the read may share it)", dir: "/r/c", mtime: at - SETTLED_MS / 2 + 0.5, kept: false },
    { name: "after the run started", dir: "/r/d", mtime: at + 10.5, kept: false },
    { name: "whole seconds: a coarse clock, where a later change may keep the mtime", dir: "/r/e", mtime: at - 1_000, kept: false },
    { name: "outside the root", dir: "/other", mtime: at - 500.5, kept: false },
  ];
  for (const c of cases) {
    test(c.name, () => {
      assert.deepEqual(settledDirs(new Map([[c.dir, c.mtime]]), "/r", at), c.kept ? { [c.dir]: c.mtime } : {});
    });
  }
});

describe("notes written just before `mem index` are not \"changed since last indexed\" right after it", () => {
  test("an index run over folders changed half a second before it leaves nothing stale; an entry added after it still counts", async () => {
    const e = makeEnv("fresh-after");
    envs.push(e);
    const root = join(e.dir, "notes");
    mkdirSync(join(root, "sub"), { recursive: true });
    writeFileSync(join(root, "a.md"), "# A\n\nThe aardvark digs.\n");
    writeFileSync(join(root, "sub", "b.md"), "# B\n\nThe badger sleeps.\n");
    // Written just before the run: within the clock slack, settled (as when a user runs `mem index` right after saving).
    const t = (Date.now() - 600) / 1000 + 0.000_123;
    for (const p of [join(root, "a.md"), join(root, "sub", "b.md"), join(root, "sub"), root]) utimesSync(p, t, t);
    await e.run({ roots: ["notes"], providers: [] });
    const ref = { project: "p1", path: root };
    assert.deepEqual(quickStale(e.db, [ref], { budget: 256, now: Date.now() }), { stale: [], partial: false });

    writeFileSync(join(root, "sub", "c.md"), "# C\n\nThe cat.\n");
    const s = quickStale(e.db, [ref], { budget: 256, now: Date.now() });
    assert.deepEqual(s.stale.map((x) => x.why), [`${join(root, "sub")}: entries added or removed`]);

    writeFileSync(join(root, "d.md"), "# D\n\nThe dog.\n");
    assert.deepEqual(quickStale(e.db, [ref], { budget: 256, now: Date.now() }).stale.map((x) => x.why), [`${root}: entries added or removed`]);
  });
});
