/**
 * SessionStart through the warm daemon: a real `mem serve`, real hook processes, a real git
 * repository. The daemon makes the briefing when it answers; the hook makes it itself when the
 * daemon is absent, slow, failing, or its socket is not this user's; the same bytes every way,
 * recorded once.
 */
import assert from "node:assert/strict";
import { chmodSync, chownSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { describe, test } from "node:test";
import { briefRequestOf } from "../../src/daemon/briefing-op.js";
import { ask } from "../../src/daemon/client.cjs";
import { socketPath } from "../../src/daemon/paths.cjs";
import { resolveProject } from "../../src/project/identity.js";
import { openDb } from "../../src/store/db.js";
import { promptRuns } from "../../src/store/prompt-log.js";
import { makeRepo } from "../anchor/scenario.js";
import { daemonRequests, daemonSandbox, daemonScratch, daemonUp, startDaemon } from "../helpers/daemon.js";
import { git } from "../helpers/git.js";
import { hasCommand } from "../helpers/has-command.js";
import { until } from "../helpers/until.js";
import { BIN, spawnHook } from "../hooks/helpers.js";
import { runChild } from "../helpers/run-child.js";

const { tmp, children } = daemonScratch("mem-ssd-");
const requests = daemonRequests;
const line = (session: string, text: string) => JSON.stringify({ type: "assistant", sessionId: session, timestamp: new Date(Date.now() - 3 * 3_600_000).toISOString(), message: { role: "assistant", content: [{ type: "text", text }] } });

/** A data home and a project on feature/es256 with src/auth.ts changed, two decisions about it, a hot note. */
async function project(name: string) {
  const s = daemonSandbox(join(tmp, name), { daemon: { idleMs: 60_000, indexEveryMs: 60_000 }, embedding: { order: [] }, index: { watch: false } });
  const repo = makeRepo(join(tmp, name, "repo"), { "src/auth.ts": "export const alg = 'HS256';\n", "memory/state.md": "# State\n\n- Moving tokens to ES256.\n" });
  git(repo, "checkout", "-qb", "feature/es256");
  writeFileSync(join(repo, "src/auth.ts"), "export const alg = 'ES256';\n");
  const transcript = join(tmp, name, "t.jsonl");
  writeFileSync(transcript, `${[line("s-0", "[MEMORY: decision] Tokens in src/auth.ts are signed with ES256."), line("s-0", "[MEMORY: rejected] Rejected HS256 in src/auth.ts: a shared secret everywhere.")].join("\n")}\n`);
  const env = { ...s.env, MEM_EMBED_ORDER: "none" };
  assert.equal((await spawnHook("stop", JSON.stringify({ session_id: "s-0", cwd: repo, transcript_path: transcript, hook_event_name: "Stop", stop_hook_active: false }), env)).code, 0);
  await runChild(process.execPath, [BIN, "index", join(repo, "memory"), "-q"], { env, timeout: 30_000 });
  return { s, repo, env };
}

const start = (repo: string, env: NodeJS.ProcessEnv, session: string, daemon: boolean) =>
  spawnHook("session-start", JSON.stringify({ session_id: session, cwd: repo, hook_event_name: "SessionStart", source: "startup" }), { ...env, MEM_NO_DAEMON: daemon ? "0" : "1" });
const hooksLog = (home: string) => (existsSync(join(home, "hooks.log")) ? readFileSync(join(home, "hooks.log"), "utf8") : "");

/** A listener on the data home's daemon socket that is not mem's daemon: it says nothing, or fails every request. */
async function impostor(home: string, reply: string | undefined): Promise<{ server: Server; received: string[] }> {
  const received: string[] = [];
  const server = createServer((c) => {
    c.on("error", () => undefined);
    c.on("data", (d) => {
      received.push(String(d));
      if (reply !== undefined) c.end(`${reply}\n`);
    });
  });
  const path = socketPath(home);
  await new Promise<void>((r) => server.listen(path, () => r()));
  chmodSync(path, 0o600);
  return { server, received };
}

describe("SessionStart through the daemon", { skip: !hasCommand("git") && "git not available" }, () => {
  test("a warm daemon makes the briefing: the same bytes as in-process, recorded once per session", async () => {
    const { s, repo, env } = await project("warm");
    const local = await start(repo, env, "s-local", false);
    assert.equal(local.code, 0, local.stderr);
    const text = (JSON.parse(local.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    assert.match(text, /## About the files in play \(branch feature\/es256, 1 changed file\(s\)\)/);
    assert.match(text, /Moving tokens to ES256/, "the hot note");
    await startDaemon({ ...s, env }, children);
    const before = await requests(s.home);
    const viaDaemon = await start(repo, env, "s-daemon", true);
    assert.equal(viaDaemon.code, 0, viaDaemon.stderr);
    assert.equal((await requests(s.home)) - before, 2, "the briefing was asked of the daemon (and this status)");
    assert.equal(viaDaemon.stdout, local.stdout, "the same bytes");
    assert.doesNotMatch(hooksLog(s.home), /session-start/, "no fallback was logged");
    const db = openDb(join(s.home, "mem.sqlite"), { readonly: true });
    try {
      const project = resolveProject(repo).id;
      await until(async () => promptRuns(db, { project, limit: 10, offset: 0 }).runs.some((r) => r.session === "s-daemon"));
      const runs = promptRuns(db, { project, limit: 10, offset: 0 }).runs.filter((r) => r.hook === "briefing");
      assert.deepEqual(runs.map((r) => r.session).sort(), ["s-daemon", "s-local"], "one row per session");
      assert.equal(runs.find((r) => r.session === "s-daemon")!.injected, text);
      const shown = db.prepare("SELECT count(*) FROM injections WHERE session = ?").pluck();
      assert.equal(shown.get("s-daemon"), shown.get("s-local"), "the hot note's lines recorded as shown, as in-process");
      assert.ok((shown.get("s-daemon") as number) > 0);
    } finally {
      db.close();
    }
    // The older-install check due (once a day): the runner, which makes that check, asks the daemon instead of the entry.
    rmSync(join(s.home, "install-nudge"));
    const due = await requests(s.home);
    const checked = await start(repo, env, "s-due", true);
    assert.equal((await requests(s.home)) - due, 2, "asked of the daemon once (and this status)");
    assert.equal(checked.stdout, local.stdout);
    assert.ok(existsSync(join(s.home, "install-nudge")), "and the check was made");
    assert.equal((await ask(s.home, { op: "stop" }, 2_000)).kind, "reply");
    await until(async () => !(await daemonUp(s.home)));
    const absent = await start(repo, env, "s-absent", true);
    assert.equal(absent.stdout, local.stdout, "no daemon: made in-process, the same bytes");
  });

  test("a daemon that never answers, or fails: the hook briefs in-process within its deadline, the same bytes", async () => {
    const { s, repo, env } = await project("bad");
    const local = await start(repo, env, "s-local", false);
    for (const [name, reply, logged] of [["silent", undefined, /did not brief within 1500 ms; briefed in-process/], ["failing", JSON.stringify({ ok: false, error: "boom" }), /the daemon failed: boom; briefed in-process/]] as const) {
      const fake = await impostor(s.home, reply);
      try {
        const t = performance.now();
        const r = await start(repo, env, `s-${name}`, true);
        // A hang guard (a loaded machine adds seconds to the spawn): the same bytes below can only come within the
        // hook's deadline, past which it exits without output.
        assert.ok(performance.now() - t < 15_000, `${name}: not held by the daemon`);
        assert.equal(r.stdout, local.stdout, `${name}: the same bytes`);
        assert.match(hooksLog(s.home), logged);
        assert.equal(fake.received.length, 1, `${name}: asked once`);
        assert.equal((JSON.parse(fake.received[0]!) as { op: string }).op, "brief");
      } finally {
        fake.server.close();
      }
    }
  });

  test("a socket another account owns is never asked: nothing sent, briefed in-process", { skip: process.getuid?.() !== 0 && "needs root to give the socket another owner" }, async () => {
    const { s, repo, env } = await project("foreign");
    const local = await start(repo, env, "s-local", false);
    const fake = await impostor(s.home, JSON.stringify({ ok: true, text: "SQUATTED CONTEXT" }));
    try {
      chownSync(socketPath(s.home), 65534, 65534);
      const r = await start(repo, env, "s-foreign", true);
      assert.equal(r.stdout, local.stdout);
      assert.doesNotMatch(r.stdout, /SQUATTED/);
      assert.deepEqual(fake.received, [], "nothing sent to it");
      assert.match(hooksLog(s.home), /session-start: refused the daemon's socket/);
    } finally {
      fake.server.close();
    }
  });
});

describe("the daemon's brief request, checked", () => {
  const ok = { cwd: "/p", session: "s", source: "startup", userEnv: { USER: "u" } };
  const cases: [string, Record<string, unknown>, string | undefined][] = [
    ["a good one", ok, undefined],
    ["a relative cwd", { ...ok, cwd: "p" }, "cwd must be an absolute path"],
    ["no cwd", { ...ok, cwd: undefined }, "cwd must be an absolute path"],
    ["a session of another type", { ...ok, session: 1 }, "session must be a string"],
    ["a relative transcript", { ...ok, transcript: "t.jsonl" }, "transcript must be an absolute path"],
    ["a variable that is not about the user", { ...ok, userEnv: { PATH: "/x" } }, "userEnv.PATH is not accepted"],
    ["a user variable of another type", { ...ok, userEnv: { USER: 5 } }, "userEnv.USER is not accepted"],
    ["userEnv not an object", { ...ok, userEnv: [] }, "userEnv must be an object"],
    ["a huge source", { ...ok, source: "x".repeat(100) }, "source must be a string"],
  ];
  for (const [name, req, error] of cases) {
    test(name, () => {
      const r = briefRequestOf(req);
      if (error) assert.deepEqual(r, { error });
      else assert.deepEqual(r, ok);
    });
  }
});
