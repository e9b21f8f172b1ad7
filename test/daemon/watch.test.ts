import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { openDb } from "../../src/store/db.js";
import { runChild } from "../helpers/run-child.js";
import { until } from "../helpers/until.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const BIN = join(REPO, "bin", "mem.cjs");
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-watch-")));
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

interface WatchStatus {
  roots: number;
  watched: number;
  polled: number;
  missing: number;
  dirs: number;
  reindexes: number;
  busy: boolean;
}

/** A data home (BM25 only) and, beside it, a notes folder with one note. */
function setup(name: string, daemon: Record<string, number> = {}): { home: string; notes: string; env: NodeJS.ProcessEnv } {
  const home = join(tmp, name, "home");
  const notes = join(tmp, name, "notes");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(notes, "sub"), { recursive: true });
  writeFileSync(join(home, "config.json"), JSON.stringify({ daemon: { idleMs: 60_000, indexEveryMs: 60_000, ...daemon }, embedding: { order: [] } }));
  writeFileSync(join(notes, "sub", "storage.md"), "# Storage\n\nWe chose SQLite over Postgres because it needs no server.\n");
  return { home, notes, env: { PATH: process.env.PATH, HOME: tmp, MEM_HOME: home } };
}

/** Files and directories dated a minute back: nothing looks changed around the first index run. */
function age(dir: string): void {
  const t = new Date(Date.now() - 60_000);
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) utimesSync(join(e.parentPath, e.name), t, t);
  utimesSync(dir, t, t);
}

const memIndex = (env: NodeJS.ProcessEnv, dir: string) => runChild(process.execPath, [BIN, "index", dir, "-q"], { env });

function serve(env: NodeJS.ProcessEnv): { child: ChildProcess; exited: Promise<number | null>; stderr: () => string } {
  const child = spawn(process.execPath, [BIN, "serve"], { env, stdio: ["ignore", "ignore", "pipe"] });
  children.push(child);
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  return { child, exited, stderr: () => err };
}


async function watchStatus(home: string): Promise<WatchStatus | undefined> {
  const r = await ask(home, { op: "status" }, 30_000);
  return r.kind === "reply" && r.reply.ok ? (r.reply.watch as WatchStatus) : undefined;
}

/** The daemon's search (what the prompt hook and the MCP tools use) finds `word` in the project. */
async function finds(home: string, project: string, word: string): Promise<boolean> {
  const r = await ask(home, { op: "search", text: word, project, mode: "bm25" }, 30_000);
  return r.kind === "reply" && r.reply.ok && (r.reply.results as { text: string }[]).some((x) => x.text.includes(word));
}

const runCount = (home: string, project: string): number => {
  const db = openDb(join(home, "mem.sqlite"), { readonly: true });
  try {
    return db.prepare("SELECT count(*) FROM runs WHERE project = ?").pluck().get(project) as number;
  } finally {
    db.close();
  }
};

/** inotify watches a process holds (Linux: one `inotify wd:` line per watch in its fdinfo). */
function inotifyWatches(pid: number): number {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fdinfo`)) {
    try {
      n += readFileSync(`/proc/${pid}/fdinfo/${fd}`, "utf8").split("\n").filter((l) => l.startsWith("inotify wd:")).length;
    } catch {
      // closed meanwhile
    }
  }
  return n;
}

const linux = process.platform === "linux";

describe("the daemon watches the indexed roots", () => {
  test("an edit under an indexed root becomes searchable through the daemon (bench:watch times it); the roots' directories are watched one by one", async (t) => {
    const { home, notes, env } = setup("edit");
    age(notes);
    assert.equal((await memIndex(env, notes)).code, 0);
    const d = serve(env);
    await until(async () => (await watchStatus(home))?.watched === 1, 60_000, "the root watched");
    const s = (await watchStatus(home))!;
    assert.deepEqual({ roots: s.roots, watched: s.watched, polled: s.polled, missing: s.missing, dirs: s.dirs }, { roots: 1, watched: 1, polled: 0, missing: 0, dirs: 2 });
    if (linux) assert.equal(inotifyWatches(d.child.pid!), 2, "one watch per directory, no file watched");
    assert.equal(s.reindexes, 0, "nothing changed while no daemon watched: no re-index at start");

    const written = Date.now();
    writeFileSync(join(notes, "sub", "storage.md"), "# Storage\n\nWe chose SQLite over Postgres; the wombat migration moved the data.\n");
    await until(() => finds(home, notes, "wombat"), 60_000, "the edit searchable");
    t.diagnostic(`edit searchable through the daemon ${Date.now() - written} ms after the write`);
    // A new file in a new folder: the folder is watched from then on.
    mkdirSync(join(notes, "later"));
    writeFileSync(join(notes, "later", "new.md"), "# New\n\nThe quokka note.\n");
    await until(() => finds(home, notes, "quokka"), 60_000, "a new file in a new folder searchable");
    await until(async () => (await watchStatus(home))?.dirs === 3, 60_000, "the new folder watched");
    writeFileSync(join(notes, "later", "new.md"), "# New\n\nThe numbat note.\n");
    await until(() => finds(home, notes, "numbat"), 60_000, "an edit in the new folder searchable");
    assert.equal(await finds(home, notes, "quokka"), false, "the old text left the index");
    await ask(home, { op: "stop" }, 2_000);
    assert.equal(await d.exited, 0, d.stderr());
    assert.match(d.stderr(), /watch: watching 1 root\(s\) in 2 directories/);
    assert.match(d.stderr(), /watch: re-index \(changes under .*notes\): 1 file\(s\) indexed, 0 removed/);
  });

  test("1,000 files touched at once cause one re-index", async (t) => {
    // A debounce a loaded machine cannot outrun: the 1,000 touches below, descheduled for more than the default
    // 300 ms between two of them, would otherwise be seen as two bursts. The coalescing is what is tested.
    const { home, notes, env } = setup("burst", { watchDebounceMs: 2_000 });
    mkdirSync(join(notes, "many"));
    for (let i = 0; i < 1000; i++) writeFileSync(join(notes, "many", `n${i}.md`), `# Note ${i}\n\nThe note numbered ${i}.\n`);
    age(notes);
    assert.equal((await memIndex(env, notes)).code, 0);
    const before = runCount(home, notes);
    const d = serve(env);
    await until(async () => (await watchStatus(home))?.watched === 1, 60_000, "the root watched");
    // Over the startup check's budget (1,001 sources), the full check runs in a child: let it end first.
    await until(async () => (await watchStatus(home))?.busy === false, 60_000, "the startup check done");
    const settled = (await watchStatus(home))!.reindexes;
    const t0 = Date.now();
    const now = new Date();
    for (let i = 0; i < 1000; i++) utimesSync(join(notes, "many", `n${i}.md`), now, now);
    await until(() => runCount(home, notes) > before, 60_000, "a re-index");
    await until(async () => (await watchStatus(home))?.busy === false, 60_000, "the re-index finished");
    t.diagnostic(`1,000 files touched: re-indexed and done ${Date.now() - t0} ms after the touch`);
    await new Promise((r) => setTimeout(r, 4_000)); // well past the debounce: a second run would have started
    assert.equal(runCount(home, notes), before + 1, `one index run for the burst\n${d.stderr()}`);
    assert.equal((await watchStatus(home))!.reindexes, settled + 1);
    await ask(home, { op: "stop" }, 2_000);
    assert.equal(await d.exited, 0, d.stderr());
    assert.match(d.stderr(), /re-index \(changes under [^)]*\): 0 file\(s\) indexed, 0 removed/, "touched, not changed: read and found the same");
  });

  test("watchers are released when the daemon goes idle: it exits, and later edits start nothing", { skip: !linux && "needs /proc" }, async () => {
    const { home, notes, env } = setup("idle", { idleMs: 2_000 });
    age(notes);
    assert.equal((await memIndex(env, notes)).code, 0);
    const d = serve(env);
    await until(async () => (await watchStatus(home))?.watched === 1, 60_000, "the root watched");
    const pid = d.child.pid!;
    assert.equal(inotifyWatches(pid), 2);
    const before = runCount(home, notes);
    assert.equal(await d.exited, 0, d.stderr());
    assert.match(d.stderr(), /stopping \(idle\)/);
    assert.ok(!existsSync(`/proc/${pid}`), "the process and its watches are gone");
    writeFileSync(join(notes, "sub", "storage.md"), "# Storage\n\nEdited after the daemon left.\n");
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(runCount(home, notes), before, "no re-index without a daemon (the next query or hook schedules one)");
  });

  test("a watched root deleted is reported once and its notes kept; back again, it is watched and re-indexed", async () => {
    const { home, notes, env } = setup("gone", { watchPollMs: 1_000 });
    age(notes);
    assert.equal((await memIndex(env, notes)).code, 0);
    const d = serve(env);
    await until(async () => (await watchStatus(home))?.watched === 1, 60_000, "the root watched");
    const away = `${notes}-away`;
    renameSync(notes, away);
    await until(async () => (await watchStatus(home))?.missing === 1, 60_000, "the root seen gone");
    assert.equal((await watchStatus(home))!.dirs, 0, "its watches released");
    await new Promise((r) => setTimeout(r, 2_500)); // two polls
    assert.equal(d.stderr().match(/indexed root .*notes \(project .*\) is gone; its notes stay searchable/g)?.length, 1, `said once\n${d.stderr()}`);
    assert.equal(await finds(home, notes, "Postgres"), true, "its notes are kept");
    writeFileSync(join(away, "sub", "storage.md"), "# Storage\n\nThe dingo moved the notes back.\n");
    renameSync(away, notes);
    await until(() => finds(home, notes, "dingo"), 60_000, "the root back and re-indexed");
    await until(async () => (await watchStatus(home))?.watched === 1, 60_000, "watched again");
    assert.match(d.stderr(), /indexed root .*notes is back/);
    await ask(home, { op: "stop" }, 2_000);
    assert.equal(await d.exited, 0, d.stderr());
  });

  test("a root over daemon.watchMaxDirs is scanned every daemon.watchPollMs instead of watched", async () => {
    const { home, notes, env } = setup("bound", { watchMaxDirs: 1, watchPollMs: 1_000 });
    age(notes);
    assert.equal((await memIndex(env, notes)).code, 0);
    const d = serve(env);
    await until(async () => (await watchStatus(home))?.polled === 1, 60_000, "the root polled");
    assert.equal((await watchStatus(home))!.dirs, 0, "no directory of it watched");
    assert.match(d.stderr(), /is not watched: it has more than the 1 directories left to watch \(daemon\.watchMaxDirs\); it is scanned every 1 s instead/);
    const before = runCount(home, notes);
    await new Promise((r) => setTimeout(r, 2_500));
    assert.equal(runCount(home, notes), before, "a scan that finds nothing changed records no run");
    writeFileSync(join(notes, "sub", "storage.md"), "# Storage\n\nThe bilby scan.\n");
    await until(() => finds(home, notes, "bilby"), 60_000, "the edit found by a scan");
    await ask(home, { op: "stop" }, 2_000);
    assert.equal(await d.exited, 0, d.stderr());
  });
});
