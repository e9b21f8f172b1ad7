/**
 * A capture made while the data home's disk is full is not lost: the store cannot take it and
 * neither can the data home's spool, so it waits in the fallback spool (a private directory under
 * the temp directory), and the next capture that can write replays it. A real full disk: a 2 MiB
 * tmpfs holding the data home (root only, where mount works; skipped elsewhere).
 */
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fallbackSpoolPath } from "../../src/maintenance/flags.js";
import { cleanEnv } from "../helpers/mem-cli.js";
import { spawnHook } from "../hooks/helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-disk-full-")));
const disk = join(tmp, "disk");
mkdirSync(disk);
const mounted = process.platform === "linux" && process.getuid?.() === 0 && spawnSync("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", disk]).status === 0;
after(() => {
  if (mounted) spawnSync("umount", [disk]);
  rmSync(tmp, { recursive: true, force: true });
});

const bash = (id: string, command: string, cwd: string) => JSON.stringify({ session_id: "sess-f", cwd, hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: id, tool_input: { command }, tool_response: { stdout: "ok", stderr: "" } });

test("a capture on a full disk waits in the fallback spool, and is written once there is room", { skip: mounted ? false : "needs root and tmpfs (mount)" }, async () => {
  const home = join(disk, "home");
  const proj = join(tmp, "proj");
  const temp = join(tmp, "temp");
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(temp);
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp, TMPDIR: temp };
  assert.equal((await spawnHook("post-tool-use", bash("toolu_before", "make before-full", proj), env)).code, 0);
  const filler = join(disk, "filler");
  try {
    writeFileSync(filler, Buffer.alloc(4 * 1024 * 1024));
  } catch {
    // ENOSPC: the disk is full now, which is the point
  }
  const r = await spawnHook("post-tool-use", bash("toolu_full", `make while-full ${"x".repeat(20_000)}`, proj), env);
  assert.equal(r.code, 0, r.stderr);
  const fallback = join(temp, fallbackSpoolPath(home).slice(tmpdir().length + 1));
  assert.ok(existsSync(fallback), `the capture waits in ${fallback}`);
  assert.match(readFileSync(fallback, "utf8"), /while-full/);

  rmSync(filler, { force: true });
  assert.equal((await spawnHook("post-tool-use", bash("toolu_after", "make after-full", proj), env)).code, 0);
  assert.ok(!existsSync(fallback), "replayed, then removed");
  const db = new Database(join(home, "mem.sqlite"), { readonly: true });
  try {
    assert.deepEqual(db.prepare("SELECT id FROM events ORDER BY id").pluck().all(), ["toolu_after", "toolu_before", "toolu_full"]);
  } finally {
    db.close();
  }
});
