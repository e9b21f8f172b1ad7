/**
 * SessionStart answered by the warm daemon finds the store working: the damage marker an earlier
 * hook left goes, and the captures spooled meanwhile are written, as the in-process path does
 * (src/hooks/run.ts), without waiting for a later hook to run in-process. A real `mem serve`, a
 * real hook process, the spool and marker written by mem's own functions.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { markerPath, recordMarker } from "../../src/maintenance/marker.js";
import { spoolCapture } from "../../src/maintenance/spool.js";
import { SPOOL_FILE } from "../../src/maintenance/flags.js";
import { openDb } from "../../src/store/db.js";
import { daemonRequests, daemonSandbox, daemonScratch, startDaemon } from "../helpers/daemon.js";
import { until } from "../helpers/until.js";
import { spawnHook } from "../hooks/helpers.js";

const { tmp, children } = daemonScratch("mem-brief-replay-");
const requests = daemonRequests;

const hooksLog = (home: string) => (existsSync(join(home, "hooks.log")) ? readFileSync(join(home, "hooks.log"), "utf8") : "");

test("the daemon's SessionStart clears the damage marker and replays the spool", async () => {
  const s = daemonSandbox(join(tmp, "a"), { daemon: { idleMs: 60_000, indexEveryMs: 60_000 }, embedding: { order: [] }, index: { watch: false } });
  const env = { ...s.env, MEM_EMBED_ORDER: "none", MEM_NO_DAEMON: "0" };
  await startDaemon({ ...s, env }, children);
  // What hooks leave while the store cannot be written: a capture in the spool, the marker.
  const now = Date.now();
  const payload = { session_id: "s-spooled", cwd: s.proj, hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: "toolu_spooled_1", tool_input: { command: "pnpm run reconcile-quarterly" }, tool_response: { stdout: "ok", stderr: "" } };
  assert.ok(spoolCapture(s.home, "post-tool-use", payload, now - 60_000));
  assert.ok(recordMarker(s.home, "database disk image is malformed", now - 60_000, "post-tool-use"));
  const before = await requests(s.home);

  // "clear": not the first startup's install check, which the in-process runner makes.
  const r = await spawnHook("session-start", JSON.stringify({ session_id: "s-next", cwd: s.proj, hook_event_name: "SessionStart", source: "clear" }), env);
  assert.equal(r.code, 0, r.stderr);
  assert.equal((await requests(s.home)) - before, 2, "the briefing was asked of the daemon (and this status)");
  assert.ok(!/briefed in-process/.test(hooksLog(s.home)), hooksLog(s.home));
  await until(() => !existsSync(markerPath(s.home)) && /replayed 1 capture/.test(hooksLog(s.home)), 60_000, "the marker cleared and the spool replayed");
  assert.ok(!existsSync(join(s.home, SPOOL_FILE)), "the spool is empty");
  const db = openDb(join(s.home, "mem.sqlite"));
  try {
    const texts = (db.prepare("SELECT text FROM events WHERE session = 's-spooled'").all() as { text: string }[]).map((e) => e.text);
    assert.ok(texts.some((t) => t.includes("reconcile-quarterly")), `the spooled capture is in the store: ${JSON.stringify(texts)}`);
  } finally {
    db.close();
  }
  const log = hooksLog(s.home);
  assert.match(log, /damage marker cleared/);
  assert.match(log, /replayed 1 capture/);
});
