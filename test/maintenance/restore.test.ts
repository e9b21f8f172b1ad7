/**
 * A store is never lost in silence: truncated to 0 bytes a moment after a write, replaced by
 * another store, emptied, or truncated under a running daemon. Each is refused (captures go to the
 * spool), `mem doctor` says so and names the newest snapshot, `mem doctor --repair` does not
 * "recover 0", and `mem restore` brings the snapshot back with the spooled captures. Real
 * processes, real SQLite files, a real daemon.
 */
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import type { ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { openDb } from "../../src/store/db.js";
import { noteWrites } from "../../src/store/identity.js";
import { checkpoint, damagePages, pagesByName } from "../helpers/damage.js";
import { daemonUp, startDaemon } from "../helpers/daemon.js";
import { cleanEnv, jsonOf, runMem, show, type Check } from "../helpers/mem-cli.js";
import { until } from "../helpers/until.js";
import { spawnHook } from "../hooks/helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-restore-")));
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

const bash = (id: string, command: string, cwd: string) => JSON.stringify({ session_id: "sess-r", cwd, hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: id, tool_input: { command }, tool_response: { stdout: "ok", stderr: "" } });

/** A data home whose store holds 351 events (as in the review; its identity records the 350 written first), and a project beside it. */
async function sandbox(name: string, extra: Record<string, string> = {}) {
  const home = join(tmp, name, "home");
  const proj = join(tmp, name, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  const env = { ...cleanEnv(join(tmp, name, "claude")), MEM_HOME: home, HOME: join(tmp, name), ...extra };
  const file = join(home, "mem.sqlite");
  const db = openDb(file);
  const ins = db.prepare("INSERT INTO events (id, project, session, type, time, text) VALUES (?, ?, 'sess-0', 'command_run', '2026-11-01T00:00:00Z', ?)");
  db.transaction(() => {
    for (let i = 0; i < 350; i++) ins.run(`seed-${i}`, proj, `$ make seeded-step-${i}`);
  })();
  db.prepare("INSERT INTO sessions (session, project, offset, updated_at) VALUES ('sess-0', ?, 0, 1)").run(proj);
  noteWrites(db, file);
  db.close();
  const r = await spawnHook("post-tool-use", bash("toolu_first", "pnpm run snapshot-worthy", proj), env);
  assert.equal(r.code, 0, r.stderr);
  return { home, proj, env, file };
}

const events = (file: string): string[] => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT id FROM events ORDER BY id").pluck().all() as string[];
  } finally {
    db.close();
  }
};

interface RepairJson {
  ok: boolean;
  sqlite: { status: string; reason?: string };
  recovered: { events: number };
  restore?: { id: string; events: number; command: string };
}

describe("a store truncated to 0 bytes a moment after a write (no WAL)", () => {
  test("refused everywhere, named by doctor, not 'recovered' by --repair, brought back by `mem restore`", async () => {
    const s = await sandbox("truncated");
    const snap = await runMem(["reindex", "--json"], { env: s.env });
    assert.equal(snap.code, 0, show(snap));
    const snapId = jsonOf<{ snapshot: { id: string } }>(snap).snapshot.id;
    assert.match(snapId, /^\d{8}T\d{9}Z-reindex$/);
    assert.equal(events(s.file).length, 351);

    writeFileSync(s.file, ""); // truncated now: within the 5 s a new store is given
    const during = await spawnHook("post-tool-use", bash("toolu_lost", "pnpm run kept-in-the-spool", s.proj), s.env);
    assert.equal(during.code, 0, during.stderr);
    assert.equal(statSync(s.file).size, 0, "no empty store was created over it");
    assert.match(readFileSync(join(s.home, "capture-spool.jsonl"), "utf8"), /kept-in-the-spool/);

    const doc = await runMem(["doctor", "--json"], { env: s.env });
    assert.equal(doc.code, 1, show(doc));
    const sqlite = jsonOf<{ checks: Check[] }>(doc).checks.find((c) => c.name === "sqlite") as Check & { fix?: string };
    assert.equal(sqlite.status, "error");
    assert.match(sqlite.detail, /was lost: the file is empty \(0 bytes\).*351 events/);
    assert.match(sqlite.fix ?? "", new RegExp(`mem restore latest.*${snapId}.*351 events`));

    const rep = await runMem(["doctor", "--repair", "--json"], { env: s.env });
    assert.equal(rep.code, 1, show(rep));
    const r = jsonOf<RepairJson>(rep);
    assert.equal(r.ok, false);
    assert.equal(r.sqlite.status, "lost");
    assert.equal(r.restore?.id, snapId);
    assert.equal(r.restore?.events, 351);
    assert.equal(statSync(s.file).size, 0, "the repair made no empty store either");
    const human = await runMem(["doctor", "--repair"], { env: s.env });
    assert.match(human.stdout, /the SQLite store was lost[\s\S]*nothing was repaired[\s\S]*`mem restore latest` brings it back/);
    assert.doesNotMatch(human.stdout, /recovered: 0/);

    const refused = await runMem(["restore", "latest"], { env: s.env });
    assert.equal(refused.code, 2, show(refused));
    assert.match(refused.stderr, /without --yes/);
    assert.equal(statSync(s.file).size, 0, "nothing changed without confirmation");

    const list = await runMem(["restore", "--list", "--json"], { env: s.env });
    assert.deepEqual(jsonOf<{ snapshots: { id: string }[] }>(list).snapshots.map((x) => x.id), [snapId]);

    const back = await runMem(["restore", "latest", "--yes", "--json"], { env: s.env });
    assert.equal(back.code, 0, show(back));
    const b = jsonOf<{ snapshot: { id: string }; movedAside: string; counts: { events: number }; replayed: number }>(back);
    assert.equal(b.snapshot.id, snapId);
    assert.equal(b.replayed, 1);
    assert.equal(b.counts.events, 352);
    assert.equal(statSync(join(b.movedAside, "mem.sqlite")).size, 0, "the truncated file is kept aside, not deleted");
    const ids = events(s.file);
    assert.ok(ids.includes("toolu_first") && ids.includes("seed-349") && ids.includes("toolu_lost"), "the snapshot's events and the spooled capture");
    assert.ok(!existsSync(join(s.home, "capture-spool.jsonl")));
    assert.ok(!existsSync(join(s.home, "store-damaged.json")));
    const ok = await runMem(["doctor", "--json"], { env: s.env });
    const checks = jsonOf<{ checks: Check[] }>(ok).checks;
    assert.equal(checks.find((c) => c.name === "sqlite")?.status, "ok", show(ok));
    assert.match(checks.find((c) => c.name === "snapshots")?.detail ?? "", /1 kept; newest .*reindex/);
  });
});

describe("a store replaced by another, or emptied", () => {
  test("another store copied over it: refused; `mem restore --adopt` keeps it on purpose", async () => {
    const s = await sandbox("replaced");
    const other = join(tmp, "other", "mem.sqlite");
    openDb(other).close();
    copyFileSync(other, s.file);
    for (const side of ["-wal", "-shm"]) rmSync(s.file + side, { force: true });
    const cap = await spawnHook("post-tool-use", bash("toolu_x", "make spooled-while-replaced", s.proj), s.env);
    assert.equal(cap.code, 0);
    assert.match(readFileSync(join(s.home, "capture-spool.jsonl"), "utf8"), /spooled-while-replaced/);
    const doc = await runMem(["doctor", "--json"], { env: s.env });
    const sqlite = jsonOf<{ checks: (Check & { fix?: string })[] }>(doc).checks.find((c) => c.name === "sqlite")!;
    assert.match(sqlite.detail, /another store/);
    assert.match(sqlite.fix ?? "", /mem restore --adopt/);
    const adopt = await runMem(["restore", "--adopt", "--yes", "--json"], { env: s.env });
    assert.equal(adopt.code, 0, show(adopt));
    assert.deepEqual(events(s.file), ["toolu_x"], "the adopted store, with the spooled capture written into it");
    assert.equal((await runMem(["doctor", "--json"], { env: s.env })).code, 0);
  });

  test("its events table emptied: refused; with no snapshot, --repair says so and `mem restore --fresh` starts over, keeping the old file and vectors aside", async () => {
    const s = await sandbox("emptied");
    const db = new Database(s.file);
    db.exec("DELETE FROM events");
    db.close();
    const doc = await runMem(["doctor", "--json"], { env: s.env });
    assert.equal(doc.code, 1);
    assert.match(jsonOf<{ checks: Check[] }>(doc).checks.find((c) => c.name === "sqlite")!.detail, /events table is empty, and mem.identity.json records 350 events/);
    const rep = await runMem(["doctor", "--repair"], { env: s.env });
    assert.equal(rep.code, 1);
    assert.match(rep.stdout, /nothing was repaired[\s\S]*no snapshot to restore; `mem restore --fresh`/);
    mkdirSync(join(s.home, "vectors"), { recursive: true });
    const fresh = await runMem(["restore", "--fresh", "--yes", "--json"], { env: s.env });
    assert.equal(fresh.code, 0, show(fresh));
    const f = jsonOf<{ movedAside: string; counts: { events: number } }>(fresh);
    assert.equal(f.counts.events, 0);
    assert.deepEqual(readdirSync(f.movedAside).sort(), ["mem.identity.json", "mem.sqlite", "vectors"]);
    assert.ok(existsSync(join(f.movedAside, "mem.sqlite")) && existsSync(join(f.movedAside, "vectors")));
    assert.equal((await runMem(["doctor", "--json"], { env: s.env })).code, 0);
  });
});

describe("a store truncated while the daemon runs", () => {
  test("the next capture is spooled (not 'database is locked'), the daemon lets go, and a restore brings it all back", async () => {
    const s = await sandbox("daemon", { MEM_NO_DAEMON: "0" });
    assert.equal((await runMem(["reindex", "-q"], { env: s.env })).code, 0);
    const daemon = await startDaemon({ home: s.home, proj: s.proj, env: s.env }, children);
    const via = await spawnHook("post-tool-use", bash("toolu_via_daemon", "make through-the-daemon", s.proj), s.env);
    assert.equal(via.code, 0);
    writeFileSync(s.file, "");
    const during = await spawnHook("post-tool-use", bash("toolu_while_lost", "make while-the-daemon-held-it", s.proj), s.env);
    assert.equal(during.code, 0, during.stderr);
    assert.match(readFileSync(join(s.home, "capture-spool.jsonl"), "utf8"), /while-the-daemon-held-it/, "spooled");
    const log = readFileSync(join(s.home, "hooks.log"), "utf8");
    assert.doesNotMatch(log, /database is locked/);
    assert.match(log, /lost/);
    await until(async () => daemon.exitCode !== null && !(await daemonUp(s.home)));
    const back = await runMem(["restore", "latest", "--yes", "--json"], { env: s.env });
    assert.equal(back.code, 0, show(back));
    const ids = events(s.file);
    assert.ok(ids.includes("seed-0") && ids.includes("toolu_while_lost"), `restored with the spooled capture: ${ids.length} events`);
    assert.equal(ids.length, 352, "the snapshot's 351 and the spooled one (the capture the daemon took after the snapshot is in the file kept aside)");
  });
});

describe("the weekly job's snapshots", () => {
  test("each `mem reindex` takes one, keeps maintenance.keepSnapshots of them; `mem restore <id>` brings back an older one", async () => {
    const s = await sandbox("weekly");
    writeFileSync(join(s.home, "config.json"), JSON.stringify({ maintenance: { keepSnapshots: 2 } }));
    const ids: string[] = [];
    const pruned: string[][] = [];
    for (let i = 0; i < 3; i++) {
      const r = await runMem(["reindex", "--json"], { env: s.env });
      assert.equal(r.code, 0, show(r));
      const snap = jsonOf<{ snapshot: { id: string; bytes: number; pruned: string[] } }>(r).snapshot;
      assert.ok(snap.bytes > 0);
      ids.push(snap.id);
      pruned.push(snap.pruned);
      if (i === 0) assert.equal((await spawnHook("post-tool-use", bash("toolu_after_first", "make after-the-first-snapshot", s.proj), s.env)).code, 0);
    }
    assert.deepEqual(pruned, [[], [], [ids[0]]]);
    const list = jsonOf<{ snapshots: { id: string; counts: { events: number } }[] }>(await runMem(["restore", "--list", "--json"], { env: s.env })).snapshots;
    assert.deepEqual(list.map((x) => x.id), [ids[2], ids[1]]);
    assert.ok(readdirSync(join(s.home, "snapshots")).every((f) => f.startsWith(ids[1]!) || f.startsWith(ids[2]!)), "the older copy and its manifest are gone");
    const human = await runMem(["restore", "--list"], { env: s.env });
    assert.match(human.stdout, new RegExp(`^${ids[2]}  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC  reindex  [\\d.]+ MiB  352 events`, "m"));
    const bad = await runMem(["restore", "no-such-snapshot", "--yes"], { env: s.env });
    assert.equal(bad.code, 1, show(bad));
    assert.match(bad.stderr, /no snapshot no-such-snapshot.*nothing was changed/);
    writeFileSync(join(s.home, "snapshots", `${ids[2]}.sqlite`), "not a database any more ".repeat(400));
    const before = statSync(s.file).size;
    const damaged = await runMem(["restore", "latest", "--yes"], { env: s.env });
    assert.equal(damaged.code, 1, show(damaged));
    assert.match(damaged.stderr, /the snapshot .* is damaged .*nothing was changed/);
    assert.equal(statSync(s.file).size, before, "the store in place was not touched");
    assert.ok(!readdirSync(s.home).some((f) => f.startsWith("before-restore-")));
    await startDaemon({ home: s.home, proj: s.proj, env: s.env }, children);
    const back = await runMem(["restore", ids[1]!.slice(0, 16), "--yes", "--json"], { env: s.env });
    assert.equal(back.code, 0, show(back));
    const b = jsonOf<{ snapshot: { id: string }; daemon: string; counts: { events: number } }>(back);
    assert.equal(b.snapshot.id, ids[1]);
    assert.equal(b.daemon, "stopped", "the running daemon was stopped before the store was replaced");
    assert.equal(await daemonUp(s.home), false);
    assert.equal(b.counts.events, 352);
  });
});

describe("a repair that salvages less than the store held", () => {
  test("says how many events the identity recorded and offers the newest snapshot", async () => {
    const s = await sandbox("partial");
    const snap = jsonOf<{ snapshot: { id: string } }>(await runMem(["reindex", "--json"], { env: s.env })).snapshot.id;
    checkpoint(s.file);
    const leaves = pagesByName(s.file).get("events")!;
    damagePages(s.file, [leaves[Math.floor(leaves.length / 2)]!]);
    const r = await runMem(["doctor", "--repair", "--json"], { env: s.env });
    assert.equal(r.code, 0, show(r));
    const rep = jsonOf<RepairJson & { notes: string[] }>(r);
    assert.equal(rep.sqlite.status, "damaged");
    assert.ok(rep.recovered.events > 0 && rep.recovered.events < 351, show(r));
    assert.ok(rep.notes.includes(`the store held 351 events when last written; ${rep.recovered.events} were salvaged`), show(r));
    assert.equal(rep.restore?.id, snap);
    assert.equal(rep.restore?.command, "mem restore latest");
    assert.equal((await runMem(["doctor", "--json"], { env: s.env })).code, 0, "the repaired store is recorded as the store now");
  });
});
