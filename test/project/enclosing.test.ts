import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { enclosingIn } from "../../src/project/enclosing.js";
import { resolveProject } from "../../src/project/identity.js";
import { openDb } from "../../src/store/db.js";
import { EventStore } from "../../src/store/events.js";
import { clean } from "../../src/redact/clean.cjs";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";
import { hook } from "../hooks/helpers.js";

// A folder without git belongs to the nearest enclosing folder that already is a project (something
// stored under it, or a .mem / memory/ marker): `nA/sub` sees nA's memories. Never a folder another
// account controls (owned by it, or writable by everyone: /tmp), never the home folder or the root.
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-enclosing-")));
after(() => rmSync(tmp, { recursive: true, force: true }));
const dir = (...parts: string[]) => {
  const d = join(tmp, ...parts);
  mkdirSync(d, { recursive: true });
  return d;
};
const isRoot = process.getuid?.() === 0;

describe("a folder outside git and its enclosing project", () => {
  const home = dir("home");
  const stored = new Set<string>();
  const within = { isProject: (id: string) => stored.has(id), home };
  const project = (d: string) => {
    stored.add(d);
    return d;
  };

  test("table: the project each folder belongs to", () => {
    const nA = project(dir("home", "nA"));
    dir("home", "nA", "sub", "deeper");
    const ownSub = project(dir("home", "nA", "own")); // a subfolder already a project stays its own
    const marked = dir("home", "marked");
    writeFileSync(join(marked, ".mem"), "");
    dir("home", "marked", "sub");
    const memDir = dir("home", "notes");
    dir("home", "notes", "memory");
    dir("home", "notes", "sub");
    const memFile = dir("home", "memfile");
    writeFileSync(join(memFile, "memory"), "not a folder");
    dir("home", "memfile", "sub");
    const open = project(dir("home", "open"));
    dir("home", "open", "sub");
    chmodSync(open, 0o777); // writable by everyone: never adopted
    dir("home", "plain", "sub");
    const repo = dir("home", "nA", "repo");
    execFileSync("git", ["init", "-q", repo]);
    dir("home", "nA", "repo", "src");
    const outside = project(dir("out", "nB"));
    dir("out", "nB", "sub");
    symlinkSync(join(nA, "sub"), join(home, "link"));
    const cases: [string, string][] = [
      [join(nA, "sub"), nA],
      [join(nA, "sub", "deeper"), nA],
      [nA, nA],
      [join(ownSub), ownSub],
      [join(marked, "sub"), marked],
      [join(memDir, "sub"), memDir],
      [join(memFile, "sub"), join(memFile, "sub")], // a file named memory is no marker
      [join(open, "sub"), join(open, "sub")],
      [join(home, "plain", "sub"), join(home, "plain", "sub")], // nothing above: its own, as before
      [join(repo, "src"), repo], // git wins
      [join(outside, "sub"), outside], // outside the home folder: up to the root
      [join(home, "link"), nA], // a link is resolved first
    ];
    for (const [path, want] of cases) assert.equal(resolveProject(path, undefined, within).id, want, path);
    // Switched off (no lookup): every folder outside git is its own.
    assert.equal(resolveProject(join(nA, "sub")).id, join(nA, "sub"));
  });

  test("the home folder and the root are never adopted, nor anything above a folder another account may write", () => {
    project(home);
    dir("home", "x", "sub");
    assert.equal(resolveProject(join(home, "x", "sub"), undefined, within).id, join(home, "x", "sub"));
    // A folder writable by everyone (as /tmp is) is never adopted, even with memories stored under it.
    const open = dir("open");
    chmodSync(open, 0o777);
    dir("open", "t", "sub");
    const everyone = { isProject: (id: string) => id === open || id === "/", home };
    assert.equal(resolveProject(join(open, "t", "sub"), undefined, everyone).id, join(open, "t", "sub"));
  });

  test("a folder owned by another account is never adopted", { skip: isRoot ? false : "needs root to give a folder to another uid" }, () => {
    const theirs = project(dir("home", "theirs"));
    dir("home", "theirs", "sub");
    chownSync(theirs, 65534, 65534);
    assert.equal(resolveProject(join(theirs, "sub"), undefined, within).id, join(theirs, "sub"));
    // Nor does the walk pass it: a project above their folder is out of reach.
    const above = project(dir("home", "up"));
    const mid = dir("home", "up", "mid");
    dir("home", "up", "mid", "sub");
    chownSync(mid, 65534, 65534);
    assert.equal(resolveProject(join(mid, "sub"), undefined, within).id, join(mid, "sub"), above);
  });

  test("the store says which folders are projects: an event stored under nA makes nA a project", () => {
    const db = openDb(join(dir("store"), "mem.sqlite"));
    try {
      const nC = dir("home", "nC");
      dir("home", "nC", "sub");
      const on = enclosingIn(db, true)!;
      assert.equal(resolveProject(join(nC, "sub"), undefined, { ...on, home }).id, join(nC, "sub"), "nothing stored yet");
      new EventStore(db).insert(clean(nC), clean([{ id: "e1", time: "", session: "s", type: "decision", text: "we chose X", files: [], metadata: {} }]));
      assert.equal(resolveProject(join(nC, "sub"), undefined, { ...on, home }).id, nC);
      assert.equal(enclosingIn(db, false), undefined, "project.enclosing: false");
    } finally {
      db.close();
    }
  });
});

describe("nA/sub through the real CLI and hooks", () => {
  const memHome = dir("cli-home");
  const nA = dir("cli", "nA");
  const sub = dir("cli", "nA", "sub");
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: memHome };

  test("remember in nA; query, list and the SessionStart briefing from nA/sub find it; switched off they do not", async () => {
    const r = await runMem(["remember", "--kind", "decision", "We sign session tokens with ES256 keys from the vault"], { env, cwd: nA });
    assert.equal(r.code, 0, show(r));
    const q = await runMem(["query", "ES256 session tokens", "--json"], { env, cwd: sub });
    assert.equal(q.code, 0, show(q));
    const found = jsonOf<{ results: { text: string; project: string }[] }>(q);
    assert.ok(found.results.some((x) => x.text.includes("ES256")), show(q));
    const brief = await hook("session-start", { hook_event_name: "SessionStart", session_id: "s1", cwd: sub, source: "startup" }, { MEM_HOME: memHome, HOME: process.env.HOME });
    assert.equal(brief.code, 0);
    assert.match(brief.stdout, /ES256/, "the briefing of nA/sub holds nA's decision");
    // A capture from nA/sub is filed under nA.
    await hook("post-tool-use", { hook_event_name: "PostToolUse", session_id: "s1", cwd: sub, tool_name: "Bash", tool_use_id: "toolu_1", tool_input: { command: "make deploy-staging" }, tool_response: { stdout: "deployed", exit_code: 0 } }, { MEM_HOME: memHome, HOME: process.env.HOME });
    const db = openDb(join(memHome, "mem.sqlite"));
    try {
      const projects = db.prepare("SELECT DISTINCT project FROM events").pluck().all();
      assert.deepEqual(projects, [nA]);
    } finally {
      db.close();
    }
    // project.enclosing: false — nA/sub is its own project again, and sees nothing.
    writeFileSync(join(memHome, "config.json"), JSON.stringify({ project: { enclosing: false } }));
    const off = await runMem(["query", "ES256 session tokens", "--json"], { env, cwd: sub });
    assert.equal(off.code, 0, show(off));
    assert.equal(jsonOf<{ results: unknown[] }>(off).results.length, 0, show(off));
  });
});
