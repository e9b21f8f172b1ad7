/**
 * Roots are walls: a file whose real path lies outside the indexed root never gets into the
 * index, whether a link leads to it (a note linked to /etc/shadow, a folder linked to `/`) or a
 * file is swapped for such a link after the walk. A root listed in index.followExternalLinks
 * follows its links out (never into /proc, /sys, /dev, never to a special file).
 */
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { readSource } from "../../indexer/read-source.js";
import { walkDirs, walkSources } from "../../indexer/sources.js";
import { rootChanged } from "../../indexer/stale.js";
import { judgeLink } from "../../indexer/walls.js";
import { bm25Leg } from "../../src/retrieve/bm25.js";
import { makeEnv, sourceRows, type IndexerEnv } from "../helpers/indexer-env.js";
import { runChild } from "../helpers/run-child.js";

const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));
const envs: IndexerEnv[] = [];
const outsides: string[] = [];
after(async () => {
  for (const e of envs) await e.close();
  for (const d of outsides) rmSync(d, { recursive: true, force: true });
});

function env(tag: string, follow?: (root: string) => string[]): IndexerEnv {
  const e = makeEnv(`walls-${tag}`);
  if (follow) e.config.index.followExternalLinks = follow(join(e.dir, "notes"));
  envs.push(e);
  e.write("notes/ok.md", "# Fine\n\nThe capybara note.\n");
  return e;
}

/** A directory outside every root: what /etc stands in for. */
function outside(): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), "mem-outside-")));
  outsides.push(d);
  return d;
}

const SHADOW = "root:$6$saltsalt$Zr3bQx9hashofthepasswordXyZ:19000:0:99999:7:::\n";
const bm25 = (e: IndexerEnv, q: string) => bm25Leg(e.db, q, { projects: ["p1"], tier: "all" }, 20);
const naming = (warnings: string[], path: string) => warnings.filter((w) => w.includes(path));
const linux = process.platform === "linux";

describe("a link out of the root is skipped with one warning, never followed", () => {
  test("a note linked to a file outside (the /etc/shadow case) is not indexed nor searchable", async () => {
    const e = env("file");
    const etc = outside();
    writeFileSync(join(etc, "shadow"), SHADOW);
    symlinkSync(join(etc, "shadow"), join(e.dir, "notes", "shadow.md"));
    const s = await e.run({ roots: ["notes"], providers: [] });
    assert.deepEqual(sourceRows(e.db, "p1").map((r) => r.path), [join(e.dir, "notes", "ok.md")]);
    assert.equal(bm25(e, "saltsalt").length, 0);
    assert.equal(bm25(e, "root").length, 0);
    const said = naming(s.warnings, join(e.dir, "notes", "shadow.md"));
    assert.equal(said.length, 1, s.warnings.join("\n"));
    assert.match(said[0]!, /outside the root .*not followed.*followExternalLinks/);
    assert.equal(bm25(e, "capybara").length, 1, "the root's own note is indexed");
  });

  test("a folder linked to a big folder outside: one warning naming the link, none of its files, nothing below it read", async () => {
    const e = env("dir");
    const big = outside();
    for (let d = 0; d < 20; d++) {
      mkdirSync(join(big, `d${d}`));
      for (let f = 0; f < 50; f++) writeFileSync(join(big, `d${d}`, `n${f}.md`), `# N\n\nThe okapi number ${d}-${f}.\n`);
    }
    symlinkSync(big, join(e.dir, "notes", "elsewhere"));
    const s = await e.run({ roots: ["notes"], providers: [] });
    assert.equal(s.files.seen, 1);
    assert.equal(bm25(e, "okapi").length, 0);
    const said = s.warnings.filter((w) => w.includes("elsewhere") || w.includes(big));
    assert.equal(said.length, 1, `one warning, not one per file below it:\n${s.warnings.join("\n")}`);
    // The daemon's walk of the directories to watch stops at the same wall.
    const w = walkDirs(join(e.dir, "notes"), e.config.index.ignore, 100);
    assert.deepEqual(w.dirs, [join(e.dir, "notes")]);
  });

  test("a link to a folder holding the root, or into /proc, is not followed; a link inside the root to elsewhere inside it is", async () => {
    const e = env("up");
    e.write("notes/real/inner.md", "# Inner\n\nThe tapir is inside.\n");
    symlinkSync(e.dir, join(e.dir, "notes", "parent")); // holds the root (and the data home)
    symlinkSync(join(e.dir, "notes", "real"), join(e.dir, "notes", "alias")); // inside: fine
    if (linux) symlinkSync("/proc/self", join(e.dir, "notes", "me"));
    e.write("secret.md", "# Beside\n\nThe wolverine sits beside the root.\n");
    const s = await e.run({ roots: ["notes"], providers: [] });
    assert.equal(s.files.seen, 2, "ok.md and inner.md (once, through the link inside the root or not)");
    assert.equal(bm25(e, "tapir").length, 1);
    assert.equal(bm25(e, "wolverine").length, 0);
    assert.equal(naming(s.warnings, join(e.dir, "notes", "parent")).length, 1);
    if (linux) assert.match(naming(s.warnings, join(e.dir, "notes", "me"))[0] ?? "", /system's own files/);
    assert.equal(naming(s.warnings, "alias").length, 0, s.warnings.join("\n"));
  });

  test("a FIFO linked in from outside is neither read nor waited on", { skip: process.platform === "win32" }, async () => {
    const e = env("fifo");
    const etc = outside();
    execFileSync("mkfifo", [join(etc, "pipe")]);
    symlinkSync(join(etc, "pipe"), join(e.dir, "notes", "pipe.md"));
    execFileSync("mkfifo", [join(e.dir, "notes", "local.md")]);
    const s = await e.run({ roots: ["notes"], providers: [] });
    assert.equal(s.files.indexed, 1);
    assert.match(naming(s.warnings, join(e.dir, "notes", "pipe.md"))[0] ?? "", /not a regular file \(a FIFO\)/);
    assert.match(naming(s.warnings, join(e.dir, "notes", "local.md"))[0] ?? "", /not a regular file \(a FIFO\)/);
  });

  test("a root holding a link to / is indexed in well under a second per thousand files: the link is skipped at once, with one warning", async (t) => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "mem-slash-")));
    outsides.push(dir);
    mkdirSync(join(dir, "notes"));
    writeFileSync(join(dir, "notes", "ok.md"), "# Fine\n\nThe capybara note.\n");
    symlinkSync("/", join(dir, "notes", "everything"));
    const env = { PATH: process.env.PATH, HOME: dir, MEM_HOME: join(dir, "home"), MEM_EMBED_ORDER: "none" };
    const r = await runChild(process.execPath, [BIN, "index", "notes", "--json", "--project", "p"], { env, cwd: dir, timeout: 30_000 });
    assert.equal(r.signal, null, `mem index was killed after ${r.ms} ms`);
    const summary = JSON.parse(r.stdout) as { files: { seen: number; indexed: number }; warnings: string[]; durationMs: number };
    t.diagnostic(`mem index of a root linking to /: ${r.ms} ms in all, ${summary.durationMs} ms indexing, ${summary.files.seen} file(s) seen`);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(summary.files.seen, 1);
    assert.equal(naming(summary.warnings, join(dir, "notes", "everything")).length, 1, summary.warnings.join("\n"));
    assert.ok(summary.durationMs < 2_000, `${summary.durationMs} ms`);
  });
});

describe("what the walk found is read only inside its wall", () => {
  test("a note swapped for a link to outside after the walk is refused when read", () => {
    const e = env("swap");
    const etc = outside();
    writeFileSync(join(etc, "shadow"), SHADOW);
    const walked = walkSources([join(e.dir, "notes")], []);
    const f = walked.files.find((x) => x.path.endsWith("ok.md"))!;
    rmSync(f.path);
    symlinkSync(join(etc, "shadow"), f.path);
    const r = readSource(f.path, 1 << 20, f.wall);
    assert.equal(r.ok, false);
    assert.match(r.ok ? "" : r.reason, /outside/);
  });

  test("a folder swapped for a link to outside after the walk: its notes are refused when read", () => {
    const e = env("swap-dir");
    e.write("notes/sub/n.md", "# N\n\nThe aardvark.\n");
    const etc = outside();
    writeFileSync(join(etc, "n.md"), SHADOW);
    const walked = walkSources([join(e.dir, "notes")], []);
    const f = walked.files.find((x) => x.path.endsWith("n.md"))!;
    renameSync(join(e.dir, "notes", "sub"), join(e.dir, "moved"));
    symlinkSync(etc, join(e.dir, "notes", "sub"));
    const r = readSource(f.path, 1 << 20, f.wall);
    assert.equal(r.ok, false, "the shadow text was read");
  });

  test("the full staleness check does not count an outside link as a new note (it would re-index for nothing, or read it)", async () => {
    const e = env("stale");
    const root = join(e.dir, "notes");
    await e.run({ roots: ["notes"], providers: [] });
    const etc = outside();
    writeFileSync(join(etc, "shadow"), SHADOW);
    symlinkSync(join(etc, "shadow"), join(root, "shadow.md"));
    assert.equal(rootChanged(e.db, { project: "p1", path: root }, e.config.index.ignore, e.config.index.maxFileBytes), undefined);
  });
});

describe("index.followExternalLinks: a root that links notes in on purpose", () => {
  test("the listed root follows its link to an outside notes folder; /proc and special files stay out", { skip: process.platform === "win32" }, async () => {
    const e = env("optin", (root) => [root]);
    const shared = outside();
    mkdirSync(join(shared, "team"));
    writeFileSync(join(shared, "team", "plan.md"), "# Plan\n\nThe narwhal plan is shared.\n");
    execFileSync("mkfifo", [join(shared, "team", "pipe.md")]);
    symlinkSync(shared, join(e.dir, "notes", "shared"));
    if (linux) symlinkSync("/proc/self", join(e.dir, "notes", "me"));
    const s = await e.run({ roots: ["notes"], providers: [] });
    assert.equal(bm25(e, "narwhal").length, 1, s.warnings.join("\n"));
    assert.ok(sourceRows(e.db, "p1").some((r) => r.path === join(e.dir, "notes", "shared", "team", "plan.md")));
    assert.match(naming(s.warnings, "pipe.md")[0] ?? "", /not a regular file \(a FIFO\)/);
    if (linux) assert.match(naming(s.warnings, join(e.dir, "notes", "me"))[0] ?? "", /system's own files/);
  });

  test("a root not listed keeps its walls", async () => {
    const e = env("optin-other", () => ["/nonexistent/other-root"]);
    const shared = outside();
    writeFileSync(join(shared, "plan.md"), "# Plan\n\nThe narwhal plan is shared.\n");
    symlinkSync(shared, join(e.dir, "notes", "shared"));
    await e.run({ roots: ["notes"], providers: [] });
    assert.equal(bm25(e, "narwhal").length, 0);
  });
});

describe("judgeLink: where a link met in a walk may lead (pure)", () => {
  const root = "/home/u/notes";
  const cases: [string, string, { wall?: string; follow?: boolean }, RegExp | string][] = [
    ["inside the root", "/home/u/notes/a/b", {}, root],
    ["the root itself (a loop)", "/home/u/notes", {}, root],
    ["a sibling folder with the root's name as prefix", "/home/u/notes-old", {}, /outside the root .*not followed/],
    ["a file outside", "/etc/shadow", {}, /outside the root/],
    ["a file outside, the root opted in", "/etc/shadow", { follow: true }, "/etc/shadow"],
    ["/ (holds the root)", "/", { follow: true }, /holds the root/],
    ["the home folder (holds the root)", "/home/u", { follow: true }, /holds the root/],
    ["/proc, opted in or not", "/proc/1/root", { follow: true }, /system's own files/],
    ["/sys", "/sys/kernel", { follow: true }, /system's own files/],
    ["/dev", "/dev/sda", { follow: true }, /system's own files/],
    ["inside the outside folder being walked", "/srv/shared/x", { wall: "/srv/shared", follow: true }, "/srv/shared"],
    ["back into the root from an outside folder", "/home/u/notes/x", { wall: "/srv/shared", follow: true }, "/srv/shared"],
  ];
  for (const [name, real, w, want] of cases) {
    test(name, { skip: process.platform === "win32" }, () => {
      const v = judgeLink(real, { root, wall: w.wall ?? root, follow: w.follow ?? false });
      if (typeof want === "string") assert.deepEqual(v, { follow: true, wall: want });
      else assert.match(v.follow ? "(followed)" : v.why, want);
    });
  }
});

test("a note indexed, then replaced by a link out of the root: its old text leaves the index and the outside file never enters it", async () => {
  const e = env("replaced");
  e.write("notes/shadow.md", "# Mine\n\nThe ocelot note.\n");
  await e.run({ roots: ["notes"], providers: [] });
  assert.equal(bm25(e, "ocelot").length, 1);
  const etc = outside();
  writeFileSync(join(etc, "shadow"), SHADOW);
  rmSync(join(e.dir, "notes", "shadow.md"));
  symlinkSync(join(etc, "shadow"), join(e.dir, "notes", "shadow.md"));
  const s = await e.run({ roots: ["notes"], providers: [] });
  assert.equal(s.files.deleted, 1);
  assert.equal(bm25(e, "ocelot").length, 0);
  assert.equal(bm25(e, "saltsalt").length, 0);
});

test("the whole file system is never one root: `/`, or a link to it, is refused at once by the walk, the watch and mem index", { skip: process.platform === "win32" }, async () => {
  const d = outside();
  const link = join(d, "everything");
  symlinkSync("/", link);
  for (const root of ["/", link]) {
    const dirs = walkDirs(root, [], 5);
    assert.deepEqual(dirs.dirs, [], `${root}: no directory watched`);
    assert.match(dirs.warnings.join("\n"), /the whole file system/);
  }
  const started = Date.now();
  const w = walkSources([link], []);
  assert.deepEqual(w.files, [], "nothing walked");
  assert.ok(Date.now() - started < 2_000, "refused at once, not after a walk of every disk");
  assert.match(w.warnings.join("\n"), /the whole file system \(\/\); never walked as one root/);
  const home = join(d, "home");
  const r = await runChild(process.execPath, [BIN, "index", link, "--json"], { env: { ...process.env, MEM_HOME: home, MEM_EMBED_ORDER: "none", MEM_NO_DAEMON: "1", MEM_WATCH: "0" }, timeout: 30_000 });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /"code":"unmatched".*the whole file system/);
});

test("a note named on the command line that is itself a link out of its folder is not read: `mem index notes/link.md` -> /etc/shadow", { skip: process.platform === "win32" }, async () => {
  const d = outside();
  const etc = join(d, "etc");
  mkdirSync(etc);
  writeFileSync(join(etc, "shadow"), SHADOW);
  const proj = join(d, "proj");
  mkdirSync(join(proj, "notes"), { recursive: true });
  writeFileSync(join(proj, "notes", "inside.md"), "# Inside\n\nThe heron note.\n");
  symlinkSync(join(etc, "shadow"), join(proj, "notes", "link.md"));
  symlinkSync(join(proj, "notes", "inside.md"), join(proj, "notes", "alias.md")); // a link that stays in its folder is read
  const w = walkSources([join(proj, "notes", "link.md"), join(proj, "notes", "alias.md")], []);
  assert.deepEqual(w.files.map((f) => f.path), [join(proj, "notes", "inside.md")]);
  assert.match(w.warnings.join("\n"), /link\.md: a link to .*shadow, outside the root .*notes; not followed/);
  const home = join(d, "home");
  const childEnv = { ...process.env, MEM_HOME: home, MEM_EMBED_ORDER: "none", MEM_NO_DAEMON: "1", MEM_WATCH: "0" };
  const r = await runChild(process.execPath, [BIN, "index", "notes/link.md"], { env: childEnv, cwd: proj, timeout: 30_000 });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /link\.md: .*not followed/);
  const q = await runChild(process.execPath, [BIN, "query", "saltsalt", "--all-projects", "--json"], { env: childEnv, cwd: proj, timeout: 30_000 });
  assert.deepEqual(JSON.parse(q.stdout).results, []);
  // Nothing of the outside file anywhere in the data home, and no project named after its folder.
  const grep = spawnSync("grep", ["-rla", "Zr3bQx9", home], { encoding: "utf8" });
  assert.equal(grep.status, 1, `no file of the data home holds the outside file's text: ${grep.stdout}`);
});
