/**
 * `mem restore` while a hook writes: a capture that comes in the moment the store's files are
 * moved aside, before the snapshot's copy takes their place, finds the store lost (the identity
 * is still there) and waits in the spool; it is never written into a new store of its own whose
 * WAL the restored file would then be opened with. After the restore: the snapshot's memories,
 * the capture replayed, a sound file. Real processes, real SQLite.
 */
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";
import { restoreStore } from "../../src/maintenance/restore-snapshot.js";
import { listSnapshots } from "../../src/store/snapshots.js";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";

const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-restore-race-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("a capture between moving the store aside and putting the snapshot in place is spooled, then replayed into the restored store", async () => {
  const home = join(tmp, "home");
  const proj = join(tmp, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp };
  const first = await runMem(["remember", "The snapshot holds this decision.", "--project", proj], { env });
  assert.equal(first.code, 0, show(first));
  const snap = await runMem(["reindex", "--json"], { env });
  assert.equal(snap.code, 0, show(snap));
  const id = jsonOf<{ snapshot: { id: string } }>(snap).snapshot.id;
  assert.equal((await runMem(["remember", "Written after the snapshot.", "--project", proj], { env })).code, 0);
  const snapshot = listSnapshots(join(home, "mem.sqlite")).find((s) => s.id === id)!;

  const payload = JSON.stringify({ session_id: "s-race", cwd: proj, hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: "toolu_during_restore", tool_input: { command: "make during-the-restore" }, tool_response: { stdout: "ok", stderr: "" } });
  let sawDuring: string[] = [];
  const report = await restoreStore(env, { snapshot }, Date.now(), () => {
    execFileSync(process.execPath, [BIN, "hook", "post-tool-use"], { input: payload, env, timeout: 30_000 });
    sawDuring = readdirSync(home);
  });
  assert.equal(report.ok, true);
  assert.ok(!sawDuring.includes("mem.sqlite"), `the hook made no store of its own: ${sawDuring.join(", ")}`);
  assert.ok(!sawDuring.includes("mem.sqlite-wal"), "nor a WAL the restored file would be opened with");
  assert.equal(report.replayed, 1, "the capture waited in the spool");

  const db = new Database(join(home, "mem.sqlite"), { readonly: true });
  try {
    assert.equal(db.pragma("quick_check", { simple: true }), "ok");
    const texts = db.prepare("SELECT text FROM events ORDER BY rowid").pluck().all() as string[];
    assert.ok(texts.includes("The snapshot holds this decision."), texts.join(" | "));
    assert.ok(!texts.includes("Written after the snapshot."), "the snapshot's state, not the later one");
    assert.ok(texts.some((t) => t.includes("make during-the-restore")), `the capture is in the restored store: ${texts.join(" | ")}`);
  } finally {
    db.close();
  }
  assert.ok(existsSync(join(report.movedAside!, "mem.identity.json")), "the identity that was in place is kept aside too");
  const after = await runMem(["list", "--project", proj, "--json"], { env });
  assert.equal(after.code, 0, show(after));
});
