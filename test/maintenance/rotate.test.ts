/**
 * Session log rotation with a fixed clock and time zone: sessions/current.md becomes the dated log
 * of the day it was last written in the user's zone, a target that exists is never written over
 * (the next free suffix), an empty log stays, dated logs past the threshold move under archive/
 * keeping their layout, a dry run moves nothing, a second run changes nothing; and through
 * `mem rotate`, the moved files are indexed again at their new paths.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { after, describe, test } from "node:test";
import { cutoffDay, datedLog, dayIn } from "../../src/maintenance/rotate/dates.js";
import { rotateRoot, sessionDirs } from "../../src/maintenance/rotate/rotate.js";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-rotate-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
function root(): string {
  const r = join(tmp, `root${++n}`);
  mkdirSync(r, { recursive: true });
  return r;
}
function write(path: string, text: string, mtime?: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  if (mtime) utimesSync(path, new Date(mtime), new Date(mtime));
  return path;
}
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, "utf8");
    }
  };
  walk(dir);
  return out;
}

const NOW = Date.parse("2026-06-01T12:00:00Z");

describe("calendar days in the user's time zone", () => {
  test("an instant's day depends on the zone", () => {
    const t = Date.parse("2026-03-01T23:30:00Z");
    assert.equal(dayIn(t, "UTC"), "2026-03-01");
    assert.equal(dayIn(t, "America/New_York"), "2026-03-01");
    assert.equal(dayIn(t, "Asia/Tokyo"), "2026-03-02");
    assert.equal(dayIn(Date.parse("2026-03-02T03:00:00Z"), "America/Los_Angeles"), "2026-03-01");
  });
  test("the archive cutoff counts whole days back from today in the zone", () => {
    assert.equal(cutoffDay(NOW, 90, "UTC"), "2026-03-03");
    assert.equal(cutoffDay(Date.parse("2026-06-01T01:00:00Z"), 1, "America/New_York"), "2026-05-30");
  });
  test("a dated log's name gives its day; anything else does not", () => {
    assert.equal(datedLog("2026-11-18.md"), "2026-11-18");
    assert.equal(datedLog("2026-11-18-2.md"), "2026-11-18");
    assert.equal(datedLog("2026-11-18 standup.mdx"), "2026-11-18");
    assert.equal(datedLog("2026-02-30.md"), undefined);
    assert.equal(datedLog("current.md"), undefined);
    assert.equal(datedLog("notes-2026-11-18.md"), undefined);
    assert.equal(datedLog("2026-11-18.txt"), undefined);
  });
});

describe("rotating session logs", () => {
  const opts = { now: NOW, timeZone: "Asia/Tokyo", archiveAfterDays: 90 };

  test("current.md becomes the log of the day it was last written, in the user's zone", () => {
    const r = root();
    write(join(r, "sessions", "current.md"), "# Late night\n\nFixed the otter bug.\n", "2026-05-31T16:30:00Z"); // 01:30 on June 1st in Tokyo
    const out = rotateRoot(r, [], opts);
    assert.deepEqual(out.rotated, [{ from: join(r, "sessions", "current.md"), to: join(r, "sessions", "2026-06-01.md") }]);
    assert.deepEqual(tree(r), { "sessions/2026-06-01.md": "# Late night\n\nFixed the otter bug.\n" });
    const utc = root();
    write(join(utc, "sessions", "current.md"), "x\n", "2026-05-31T16:30:00Z");
    assert.equal(rotateRoot(utc, [], { ...opts, timeZone: "UTC" }).rotated[0]!.to, join(utc, "sessions", "2026-05-31.md"));
  });

  test("a dated log that exists is never written over: the next free suffix", () => {
    const r = root();
    write(join(r, "sessions", "2026-06-01.md"), "morning\n");
    write(join(r, "sessions", "2026-06-01-2.md"), "noon\n");
    write(join(r, "sessions", "current.md"), "evening\n", "2026-06-01T10:00:00Z");
    const out = rotateRoot(r, [], opts);
    assert.equal(out.rotated[0]!.to, join(r, "sessions", "2026-06-01-3.md"));
    assert.deepEqual(tree(r), { "sessions/2026-06-01.md": "morning\n", "sessions/2026-06-01-2.md": "noon\n", "sessions/2026-06-01-3.md": "evening\n" });
  });

  test("an empty current.md stays; a second run changes nothing", () => {
    const r = root();
    write(join(r, "sessions", "current.md"), "");
    assert.deepEqual(rotateRoot(r, [], opts), { rotated: [], archived: [], warnings: [] });
    assert.deepEqual(tree(r), { "sessions/current.md": "" });
  });

  test("old dated logs move under archive/, keeping their path below the memory root", () => {
    const r = root();
    write(join(r, "memory", "sessions", "2026-01-15.md"), "january\n");
    write(join(r, "memory", "sessions", "2026-03-02.md"), "march, past the cutoff\n");
    write(join(r, "memory", "sessions", "2026-03-03.md"), "march, at the cutoff\n");
    write(join(r, "memory", "sessions", "notes.md"), "undated: stays\n");
    write(join(r, "memory", "archive", "sessions", "2026-01-15.md"), "already archived once\n");
    write(join(r, "memory", "sessions", "current.md"), "long ago\n", "2025-12-24T12:00:00Z");
    const indexed = [join(r, "memory", "sessions", "2026-03-03.md")];
    assert.deepEqual(sessionDirs(r, indexed), [join(r, "memory", "sessions")]);
    const out = rotateRoot(r, indexed, opts);
    assert.deepEqual(out.warnings, []);
    assert.deepEqual(
      tree(r),
      {
        "memory/archive/sessions/2025-12-24.md": "long ago\n",
        "memory/archive/sessions/2026-01-15.md": "already archived once\n",
        "memory/archive/sessions/2026-01-15-2.md": "january\n",
        "memory/archive/sessions/2026-03-02.md": "march, past the cutoff\n",
        "memory/sessions/2026-03-03.md": "march, at the cutoff\n",
        "memory/sessions/notes.md": "undated: stays\n",
      },
      "a current.md last written long ago is rotated and archived in the same run",
    );
    assert.deepEqual(rotateRoot(r, indexed, opts), { rotated: [], archived: [], warnings: [] }, "a second run changes nothing");
  });

  test("a root that is itself a sessions directory archives under its own archive/", () => {
    const r = join(root(), "sessions");
    write(join(r, "2025-01-01.md"), "old\n");
    rotateRoot(r, [], opts);
    assert.deepEqual(tree(r), { "archive/2025-01-01.md": "old\n" });
  });

  test("a dry run names the same moves and moves nothing", () => {
    const r = root();
    write(join(r, "sessions", "2026-06-01.md"), "taken\n");
    write(join(r, "sessions", "current.md"), "today\n", "2026-06-01T05:00:00Z");
    write(join(r, "sessions", "2025-06-01.md"), "old\n");
    const before = tree(r);
    const dry = rotateRoot(r, [], { ...opts, dryRun: true });
    assert.deepEqual(tree(r), before);
    const real = rotateRoot(r, [], opts);
    assert.deepEqual(dry, real);
    assert.equal(real.rotated[0]!.to, join(r, "sessions", "2026-06-01-2.md"));
  });

  test("mem rotate moves the logs of the indexed roots and indexes them again at their new paths", async () => {
    const proj = join(tmp, "cli-proj");
    mkdirSync(join(proj, ".git"), { recursive: true });
    write(join(proj, "memory", "identity.md"), "# Identity\n");
    const written = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const day = dayIn(Date.parse(written), "UTC");
    write(join(proj, "memory", "sessions", "current.md"), "# Session\n\nThe heron migration went fine.\n", written);
    write(join(proj, "memory", "sessions", "2020-02-02.md"), "# Old session\n\nThe ancient kiwi outage.\n");
    const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: join(tmp, "cli-home"), HOME: tmp };
    const mem = async (args: string[]) => {
      const r = await runMem(args, { env, cwd: proj });
      assert.equal(r.code, 0, show(r));
      return r;
    };
    await mem(["index", "memory", "-q"]);
    writeFileSync(join(env.MEM_HOME, "config.json"), JSON.stringify({ maintenance: { timeZone: "UTC" } }));
    const dry = jsonOf<{ dryRun: boolean; rotated: { to: string }[]; archived: unknown[] }>(await mem(["rotate", "--dry-run", "--json"]));
    assert.equal(dry.dryRun, true);
    assert.equal(dry.rotated[0]!.to, join(proj, "memory", "sessions", `${day}.md`));
    assert.ok(existsSync(join(proj, "memory", "sessions", "current.md")), "a dry run moves nothing");
    const done = jsonOf<{ rotated: unknown[]; archived: unknown[]; indexed: string[] }>(await mem(["rotate", "--json"]));
    assert.deepEqual([done.rotated.length, done.archived.length, done.indexed], [1, 1, [proj]]);
    const q = jsonOf<{ results: { path: string }[] }>(await mem(["query", "heron migration", "--json"]));
    assert.equal(q.results[0]?.path, join(proj, "memory", "sessions", `${day}.md`));
    const old = jsonOf<{ results: unknown[]; cold: { results: { path?: string; tier?: string }[] } }>(await mem(["query", "ancient kiwi outage", "--cold", "--json"]));
    assert.deepEqual(old.results, [], "archived: out of the default search");
    assert.deepEqual([old.cold.results[0]?.path, old.cold.results[0]?.tier], [join(proj, "memory", "archive", "sessions", "2020-02-02.md"), "cold"]);
    assert.equal((await runMem(["rotate", "--bogus"], { env, cwd: proj })).code, 2);
  });
});
