/**
 * A capture whose payload names no session (`{}` sent to Stop made a "(no id)" session) is refused
 * as malformed by every capture hook: exit 0, nothing printed, nothing stored, one warning in
 * hooks.log. Through the real hook CLI without a daemon, through it with a daemon running, and
 * straight to the daemon's socket.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { openDb } from "../../src/store/db.js";
import { daemonSandbox, startDaemon } from "../helpers/daemon.js";
import { spawnHook } from "./helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-malformed-")));
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

/** A payload of each capture hook, whole but for its session id (`session` is spread in: nothing, "", a number...). */
function payloads(cwd: string, session: Record<string, unknown>): [string, Record<string, unknown>][] {
  const tool = { cwd, tool_name: "Bash", tool_input: { command: "npm run deploy" }, tool_response: { stdout: "deployed" }, ...session };
  return [
    ["post-tool-use", { ...tool, hook_event_name: "PostToolUse", tool_use_id: "toolu_malformed_1" }],
    ["post-tool-use-failure", { ...tool, hook_event_name: "PostToolUseFailure", tool_use_id: "toolu_malformed_2", error: "exit 1" }],
    ["stop", { cwd, hook_event_name: "Stop", last_assistant_message: "We decided to keep the cache in Redis because it is shared.", ...session }],
    ["subagent-stop", { cwd, hook_event_name: "SubagentStop", agent_id: "a1", last_assistant_message: "Done: the migration is written.", ...session }],
    ["pre-compact", { cwd, hook_event_name: "PreCompact", trigger: "auto", ...session }],
    ["session-end", { cwd, hook_event_name: "SessionEnd", reason: "exit", ...session }],
  ];
}

const NO_ID: Record<string, unknown>[] = [{}, { session_id: "" }, { session_id: "   " }, { session_id: 42 }, { session_id: null }];

/** What the store holds that a capture makes: events, sessions, and anything filed under no session. */
function stored(home: string): { events: number; sessions: number; noId: number } {
  const file = join(home, "mem.sqlite");
  if (!existsSync(file)) return { events: 0, sessions: 0, noId: 0 };
  const db = openDb(file, { readonly: true });
  try {
    const n = (sql: string) => db.prepare(sql).pluck().get() as number;
    return { events: n("SELECT count(*) FROM events"), sessions: n("SELECT count(*) FROM sessions"), noId: n("SELECT count(*) FROM events WHERE session IS NULL OR trim(session) = ''") + n("SELECT count(*) FROM sessions WHERE trim(session) = ''") };
  } finally {
    db.close();
  }
}

const log = (home: string) => (existsSync(join(home, "hooks.log")) ? readFileSync(join(home, "hooks.log"), "utf8") : "");

describe("a capture without a session id is malformed: skipped, never stored", () => {
  test("the hook CLI, no daemon: every capture hook, every id-less form: exit 0, no output, nothing stored, a warning each", async () => {
    const box = daemonSandbox(join(tmp, "cli"), { embedding: { order: [] } });
    const env = { ...box.env, MEM_NO_DAEMON: "1" };
    let warnings = 0;
    for (const session of NO_ID) {
      for (const [name, payload] of payloads(box.proj, session)) {
        const r = await spawnHook(name, JSON.stringify(payload), env);
        const what = `${name} ${JSON.stringify(session)}`;
        assert.deepEqual([r.code, r.stdout], [0, ""], `${what}: ${r.stderr}`);
        assert.deepEqual(stored(box.home), { events: 0, sessions: 0, noId: 0 }, `${what}: nothing stored`);
        warnings++;
        const lines = log(box.home).split("\n").filter((l) => l.includes("without a session_id"));
        assert.equal(lines.length, warnings, `${what}: one warning in hooks.log\n${log(box.home)}`);
        assert.match(lines.at(-1)!, new RegExp(`${name}: a payload without a session_id \\([\\w ]+\\) is malformed; skipped, nothing stored`));
      }
    }
    // The same payloads with a session id are captured: the hooks above were refused for the id alone.
    for (const [name, payload] of payloads(box.proj, { session_id: "sess-ok-1" })) assert.equal((await spawnHook(name, JSON.stringify(payload), env)).code, 0, name);
    const after = stored(box.home);
    assert.ok(after.events > 0 && after.sessions > 0, JSON.stringify(after));
    assert.equal(after.noId, 0);
  });

  test("with a daemon: the hook CLI through it, and a capture sent straight to its socket, are refused alike", async () => {
    const box = daemonSandbox(join(tmp, "daemon"), { embedding: { order: [] }, daemon: { indexEveryMs: 60_000 } });
    await startDaemon(box, children);
    const env = { ...box.env, MEM_NO_DAEMON: "0" };
    for (const [name, payload] of payloads(box.proj, {})) {
      const r = await spawnHook(name, JSON.stringify(payload), env);
      assert.deepEqual([r.code, r.stdout], [0, ""], `${name}: ${r.stderr}`);
    }
    for (const event of ["Stop", "SubagentStop", "PostToolUse", "PostToolUseFailure"]) {
      const payload = { cwd: box.proj, hook_event_name: event, tool_name: "Bash", tool_use_id: `toolu_sock_${event}`, tool_input: { command: "ls" }, tool_response: { stdout: "x" }, last_assistant_message: "We decided to ship on Fridays." };
      const r = await ask(box.home, { op: "capture", event, payload }, 10_000);
      assert.ok(r.kind === "reply", JSON.stringify(r));
      assert.deepEqual(r.reply, { ok: false, error: "a payload without a session_id (missing) is malformed; skipped, nothing stored", code: "malformed" }, event);
    }
    assert.deepEqual(stored(box.home), { events: 0, sessions: 0, noId: 0 }, "nothing stored by the daemon or the hooks");
    assert.ok(log(box.home).split("\n").filter((l) => l.includes("mem serve: capture: a payload without a session_id")).length >= 4, log(box.home));
    // A well-formed capture through the same socket is stored: the refusal is the id's alone.
    const ok = await ask(box.home, { op: "capture", event: "PostToolUse", payload: { session_id: "sess-ok-2", cwd: box.proj, hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: "toolu_sock_ok", tool_input: { command: "npm test" }, tool_response: { stdout: "ok" } } }, 10_000);
    assert.ok(ok.kind === "reply" && ok.reply.ok, JSON.stringify(ok));
    assert.equal(stored(box.home).noId, 0);
    assert.ok(stored(box.home).events > 0);
  });
});
