/**
 * A data home mem does not control, or files in it that are not what they should be: a home made by
 * another user, links planted where mem writes its log, marker and spool, FIFOs and devices where it
 * reads them, a directory where SQLite's WAL should be. mem refuses, skips or repairs; it never
 * writes through a link, never blocks, never crashes, and hooks still exit 0.
 */
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { checkpoint, damagePages } from "../helpers/damage.js";
import { BIN, cleanEnv, runMem } from "../helpers/mem-cli.js";
import { spawnHook } from "../hooks/helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-hostile-home-")));
chmodSync(tmp, 0o755); // another uid must be able to reach what it plants below
after(() => rmSync(tmp, { recursive: true, force: true }));
const UID = process.getuid?.() ?? -1;
const OTHER = 65534;

let n = 0;
function setup(): { home: string; proj: string; env: NodeJS.ProcessEnv } {
  const dir = join(tmp, `case-${++n}`);
  const home = join(dir, "home");
  const proj = join(dir, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  writeFileSync(join(proj, "state.md"), "# State\n\nThe nightly export runs at two.\n");
  return { home, proj, env: { ...cleanEnv(join(dir, "claude")), MEM_HOME: home, HOME: dir } };
}
const bash = (id: string, cwd: string) => JSON.stringify({ session_id: "s", cwd, hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: id, tool_input: { command: "pnpm run export" }, tool_response: { stdout: "ok", stderr: "" } });

describe("a data home that is not the user's own", () => {
  test("one made by another user is refused by every command and hook; nothing is written in it", { skip: UID !== 0 ? "needs root to act as a second user" : false }, async () => {
    const { home, proj, env } = setup();
    mkdirSync(home, { recursive: true });
    chmodSync(home, 0o777);
    execFileSync("chown", [`${OTHER}:${OTHER}`, home]);
    const index = await runMem(["index", proj], { env });
    assert.equal(index.code, 1);
    assert.match(index.stderr, /belongs to another user \(uid 65534/);
    const hook = await spawnHook("post-tool-use", bash("toolu_1", proj), env);
    assert.equal(hook.code, 0);
    assert.deepEqual(readdirSync(home), [], "no store, no log, nothing");
    const doctor = await runMem(["doctor", "--json"], { env });
    assert.equal(doctor.code, 1);
    const checks = (JSON.parse(doctor.stdout) as { checks: { name: string; status: string; detail: string }[] }).checks;
    assert.match(checks.find((c) => c.name === "data home")!.detail, /belongs to another user/);
  });

  test("one of the user's own that others could write to loses their write access", async () => {
    const { home, proj, env } = setup();
    mkdirSync(home, { recursive: true });
    chmodSync(home, 0o777);
    assert.equal((await runMem(["index", proj], { env })).code, 0);
    assert.equal(statSync(home).mode & 0o022, 0);
  });
});

describe("links and special files where mem writes and reads its own files", () => {
  test("hooks.log, the damage marker and the spool are never written through a planted link", async () => {
    const { home, proj, env } = setup();
    assert.equal((await runMem(["index", proj], { env })).code, 0);
    const targets = ["log", "marker", "spool"].map((t) => join(home, "..", `victim-${t}.txt`));
    for (const t of targets) writeFileSync(t, "precious\n");
    symlinkSync(targets[0]!, join(home, "hooks.log"));
    symlinkSync(targets[1]!, join(home, "store-damaged.json"));
    symlinkSync(targets[2]!, join(home, "capture-spool.jsonl"));
    const file = join(home, "mem.sqlite");
    checkpoint(file);
    damagePages(file, [1]);
    for (const r of [await spawnHook("post-tool-use", bash("toolu_2", proj), env), await spawnHook("stop", "not json", env)]) assert.equal(r.code, 0);
    for (const t of targets) assert.equal(readFileSync(t, "utf8"), "precious\n", `${t} untouched`);
  });

  test("a FIFO or /dev/zero as the spool or the marker: hooks exit 0 within their deadline", async () => {
    const { home, proj, env } = setup();
    assert.equal((await runMem(["index", proj], { env })).code, 0);
    execFileSync("mkfifo", [join(home, "capture-spool.jsonl")]);
    const end = await spawnHook("session-end", JSON.stringify({ session_id: "s", cwd: proj, hook_event_name: "SessionEnd", reason: "other" }), env);
    assert.equal(end.code, 0);
    assert.ok(!existsSync(join(home, "capture-spool.jsonl")), "a FIFO is no spool: dropped, not read");
    symlinkSync("/dev/zero", join(home, "capture-spool.jsonl"));
    const again = await spawnHook("session-end", JSON.stringify({ session_id: "s", cwd: proj, hook_event_name: "SessionEnd", reason: "other" }), env);
    assert.equal(again.code, 0);
    const file = join(home, "mem.sqlite");
    checkpoint(file);
    damagePages(file, [1]);
    execFileSync("mkfifo", [join(home, "store-damaged.json")]);
    const start = await spawnHook("session-start", JSON.stringify({ session_id: "s2", cwd: proj, hook_event_name: "SessionStart", source: "startup" }), env);
    assert.equal(start.code, 0);
  });

  test("a Claude Code settings file that is /dev/zero in a cloned repo: mem doctor reports it and goes on", () => {
    const { home, proj, env } = setup();
    mkdirSync(join(proj, ".claude"), { recursive: true });
    symlinkSync("/dev/zero", join(proj, ".claude", "settings.json"));
    const r = spawnSync(process.execPath, [BIN, "doctor", "--json"], { cwd: proj, env: { ...env, MEM_HOME: home }, timeout: 30_000, encoding: "utf8" });
    assert.equal(r.signal, null, "finished on its own");
    const checks = (JSON.parse(r.stdout) as { checks: { name: string; status: string; detail: string }[] }).checks;
    assert.ok(checks.some((c) => /not a regular file \(a character device\)/.test(c.detail)), r.stdout);
  });
});

describe("a directory where SQLite's WAL should be", () => {
  test("mem doctor reports it as a failed check instead of crashing; --repair moves it aside and the store works", async () => {
    const { home, proj, env } = setup();
    assert.equal((await runMem(["index", proj], { env })).code, 0);
    checkpoint(join(home, "mem.sqlite"));
    rmSync(join(home, "mem.sqlite-wal"), { force: true });
    rmSync(join(home, "mem.sqlite-shm"), { force: true });
    mkdirSync(join(home, "mem.sqlite-wal"));
    const doctor = await runMem(["doctor", "--json"], { env });
    assert.equal(doctor.code, 1, doctor.stderr);
    const sqlite = (JSON.parse(doctor.stdout) as { checks: { name: string; status: string; detail: string }[] }).checks.find((c) => c.name === "sqlite")!;
    assert.equal(sqlite.status, "error");
    assert.match(sqlite.detail, /mem\.sqlite-wal beside it is not a regular file \(a directory\)/);
    const repair = await runMem(["doctor", "--repair", "--json"], { env });
    assert.equal(repair.code, 0, repair.stderr);
    assert.ok(!existsSync(join(home, "mem.sqlite-wal")) || statSync(join(home, "mem.sqlite-wal")).isFile());
    assert.ok(readdirSync(home).some((f) => /^backup-.*-side-files$/.test(f)), "the directory was moved into a backup");
    assert.ok(!readdirSync(home).some((f) => f.startsWith(".repair-")), "no work directory left behind");
    const q = await runMem(["query", "nightly export", "--project", proj, "--json"], { env });
    assert.equal(q.code, 0, q.stderr);
    assert.match(q.stdout, /nightly export runs at two/);
  });
});
