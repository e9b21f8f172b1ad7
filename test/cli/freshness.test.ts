import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { holderAlive } from "../../src/daemon/lock.js";
import { refreshLockPath } from "../../src/freshness/refresh.js";
import { openDb } from "../../src/store/db.js";
import { spawnHook } from "../hooks/helpers.js";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";

/** What `mem query --json` and `mem index --json` print, as far as these tests read it. */
interface Query {
  results: { path: string }[];
  reindex: { roots: string[]; status: string } | null;
  files: { deleted: number };
  missingRoots: string[];
  vector: { reason: string };
}

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-fresh-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** A data home and a notes folder of 2 notes, indexed, every file dated a minute back; background re-indexing on. */
async function indexed(name: string): Promise<{ env: NodeJS.ProcessEnv; home: string; notes: string }> {
  const home = join(tmp, name, "home");
  const notes = join(tmp, name, "notes");
  mkdirSync(join(notes, "sub"), { recursive: true });
  writeFileSync(join(notes, "a.md"), "# A\n\nThe aardvark digs at night.\n");
  writeFileSync(join(notes, "sub", "b.md"), "# B\n\nThe badger sleeps all day.\n");
  const t = new Date(Date.now() - 60_000);
  for (const e of readdirSync(notes, { withFileTypes: true, recursive: true })) utimesSync(join(e.parentPath, e.name), t, t);
  utimesSync(notes, t, t);
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp, MEM_WATCH: "1" };
  const r = await runMem(["index", notes, "-q"], { env });
  assert.equal(r.code, 0, show(r));
  return { env, home, notes };
}

const runs = (home: string): number => {
  const db = openDb(join(home, "mem.sqlite"), { readonly: true });
  try {
    return db.prepare("SELECT count(*) FROM runs").pluck().get() as number;
  } finally {
    db.close();
  }
};

/** The background re-index the marker names has ended (the marker stays: it dates the last start). */
function refreshDone(home: string): boolean {
  const m = JSON.parse(readFileSync(refreshLockPath(home), "utf8")) as { pid: number; start?: string };
  return !holderAlive(m);
}

async function until(cond: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} not met within ${ms} ms`);
}

describe("with no daemon, a query or a hook re-indexes changed notes in the background", () => {
  test("a query after an edit starts one background re-index; concurrent queries start no other; the edit is then found", async () => {
    const { env, home, notes } = await indexed("query");
    const before = runs(home);
    const quiet = await runMem(["query", "aardvark", "--json"], { env, cwd: notes });
    assert.equal(quiet.code, 0, show(quiet));
    assert.equal(jsonOf<Query>(quiet).reindex, null, "nothing changed: nothing started");
    assert.doesNotMatch(quiet.stderr, /re-index/);

    writeFileSync(join(notes, "sub", "b.md"), "# B\n\nThe badger sleeps; a wombat visits.\n");
    const all = await Promise.all([1, 2, 3, 4].map(() => runMem(["query", "wombat", "--json"], { env, cwd: notes })));
    for (const r of all) assert.equal(r.code, 0, show(r));
    const outcomes = all.map((r) => jsonOf<Query>(r).reindex?.status ?? null);
    assert.equal(outcomes.filter((o) => o === "started").length, 1, `exactly one started: ${JSON.stringify(outcomes)}`);
    const starter = all[outcomes.indexOf("started")]!;
    assert.deepEqual(jsonOf<Query>(starter).reindex?.roots, [notes]);
    assert.match(starter.stderr, /^note: .*notes changed since last indexed; re-indexing in the background, so these results may not show the change yet$/m);
    await until(() => refreshDone(home), 60_000, "the background re-index done");
    assert.equal(runs(home), before + 1, "one index run");
    const found = await runMem(["query", "wombat", "--json"], { env, cwd: notes });
    assert.equal(jsonOf<Query>(found).results[0]?.path, join(notes, "sub", "b.md"));
    assert.equal(jsonOf<Query>(found).reindex, null);
  });

  test("the SessionStart hook with no daemon re-indexes changed notes in the background and says so in hooks.log", async () => {
    const { env, home, notes } = await indexed("hook");
    const before = runs(home);
    writeFileSync(join(notes, "new.md"), "# New\n\nThe quokka smiles.\n");
    const r = await spawnHook("session-start", JSON.stringify({ session_id: "s1", cwd: notes, hook_event_name: "SessionStart", source: "startup" }), { ...env, MEM_WATCH: "1" });
    assert.equal(r.code, 0, r.stderr);
    assert.match(readFileSync(join(home, "hooks.log"), "utf8"), /session-start: .*notes: entries added or removed: re-indexing in the background/);
    await until(() => refreshDone(home), 60_000, "the background re-index done");
    assert.equal(runs(home), before + 1);
    const found = await runMem(["query", "quokka", "--json"], { env, cwd: notes });
    assert.equal(jsonOf<Query>(found).results[0]?.path, join(notes, "new.md"));
  });

  test("right after `mem index` of notes written just before it, a query finds nothing changed (no 2 s slack)", async () => {
    const home = join(tmp, "just", "home");
    const notes = join(tmp, "just", "notes");
    mkdirSync(join(notes, "sub"), { recursive: true });
    writeFileSync(join(notes, "a.md"), "# A\n\nThe aardvark digs at night.\n");
    writeFileSync(join(notes, "sub", "b.md"), "# B\n\nThe badger sleeps all day.\n");
    const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp, MEM_WATCH: "1" };
    const ix = await runMem(["index", notes, "-q"], { env });
    assert.equal(ix.code, 0, show(ix));
    const q = await runMem(["query", "aardvark", "--json"], { env, cwd: notes });
    assert.equal(q.code, 0, show(q));
    assert.equal(jsonOf<Query>(q).reindex, null, show(q));
    assert.doesNotMatch(q.stderr, /changed since last indexed/);
  });

  test("MEM_WATCH=0 (or index.watch: false) checks nothing and starts nothing", async () => {
    const { env, home, notes } = await indexed("off");
    writeFileSync(join(notes, "a.md"), "# A\n\nThe aardvark and the echidna.\n");
    const r = await runMem(["query", "echidna", "--json"], { env: { ...env, MEM_WATCH: "0" }, cwd: notes });
    assert.equal(jsonOf<Query>(r).reindex, null);
    assert.throws(() => readFileSync(refreshLockPath(home)), /ENOENT/);
  });
});
