/**
 * The daemon's watcher keeps to the roots' walls: a link out of a watched root, made while the
 * daemon runs, is neither watched nor indexed (the file it leads to stays out of every search),
 * and changes beyond it start nothing.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { runChild } from "../helpers/run-child.js";
import { until } from "../helpers/until.js";

const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-watch-walls-")));
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

interface WatchStatus {
  watched: number;
  dirs: number;
  reindexes: number;
  busy: boolean;
}

async function watchStatus(home: string): Promise<WatchStatus | undefined> {
  const r = await ask(home, { op: "status" }, 30_000);
  return r.kind === "reply" && r.reply.ok ? (r.reply.watch as WatchStatus) : undefined;
}

async function finds(home: string, project: string, word: string): Promise<boolean> {
  const r = await ask(home, { op: "search", text: word, project, mode: "bm25" }, 30_000);
  return r.kind === "reply" && r.reply.ok && (r.reply.results as { text: string }[]).some((x) => x.text.includes(word));
}

test("a link out of a watched root, made while the daemon runs, is not watched, not indexed, and what lies beyond it starts nothing", async () => {
  const home = join(tmp, "home");
  const notes = join(tmp, "notes");
  const etc = join(tmp, "etc"); // what /etc stands in for
  mkdirSync(home, { recursive: true });
  mkdirSync(join(notes, "sub"), { recursive: true });
  mkdirSync(join(etc, "deep"), { recursive: true });
  writeFileSync(join(home, "config.json"), JSON.stringify({ daemon: { idleMs: 60_000, indexEveryMs: 60_000 }, embedding: { order: [] } }));
  writeFileSync(join(notes, "sub", "storage.md"), "# Storage\n\nWe chose SQLite.\n");
  writeFileSync(join(etc, "shadow"), "root:$6$saltsalt$wombatpasswordhash:19000:0:99999:7:::\n");
  writeFileSync(join(etc, "deep", "plan.md"), "# Plan\n\nThe narwhal plan.\n");
  const t = new Date(Date.now() - 60_000);
  for (const e of readdirSync(notes, { withFileTypes: true, recursive: true })) utimesSync(join(e.parentPath, e.name), t, t);
  utimesSync(notes, t, t);
  const env = { PATH: process.env.PATH, HOME: tmp, MEM_HOME: home };
  assert.equal((await runChild(process.execPath, [BIN, "index", notes, "-q"], { env })).code, 0);

  const child = spawn(process.execPath, [BIN, "serve"], { env, stdio: ["ignore", "ignore", "pipe"] });
  children.push(child);
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  await until(async () => (await watchStatus(home))?.watched === 1, 60_000, "the root watched");
  assert.equal((await watchStatus(home))!.dirs, 2);

  symlinkSync(etc, join(notes, "etc"));
  symlinkSync(join(etc, "shadow"), join(notes, "shadow.md"));
  writeFileSync(join(notes, "sub", "new.md"), "# New\n\nThe quokka note.\n"); // a real change: the root is re-indexed
  await until(() => finds(home, notes, "quokka"), 60_000, "the real change indexed");
  await until(async () => (await watchStatus(home))?.busy === false, 60_000, "the re-index done");
  assert.equal(await finds(home, notes, "wombatpasswordhash"), false, "the linked file stays out");
  assert.equal(await finds(home, notes, "narwhal"), false, "the linked folder stays out");
  assert.equal((await watchStatus(home))!.dirs, 2, "no directory beyond the link is watched");

  const settled = (await watchStatus(home))!.reindexes;
  writeFileSync(join(etc, "deep", "later.md"), "# Later\n\nThe dugong.\n");
  await new Promise((r) => setTimeout(r, 1_500)); // well past the debounce
  assert.equal((await watchStatus(home))!.reindexes, settled, `a change beyond the link started a re-index\n${stderr}`);
  await ask(home, { op: "stop" }, 2_000);
  assert.equal(await exited, 0, stderr);
});
