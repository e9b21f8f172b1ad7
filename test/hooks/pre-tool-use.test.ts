/**
 * The pre-tool check end to end: memories stored with `mem remember` (anchored to a real file of a
 * real project), then `mem hook pre-tool-use` spawned as Claude Code spawns it, with the warm
 * daemon (`mem serve`) and without one. A scripted regression is warned about once a session; an
 * ordinary edit never; the answer is context only, never a permission decision; hostile stdin
 * gets nothing; what the log keeps of a call is redacted. Notification is captured as an event.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { openDb } from "../../src/store/db.js";
import { daemonSandbox, startDaemon, type DaemonSandbox } from "../helpers/daemon.js";
import { runMem } from "../helpers/mem-cli.js";
import { until } from "../helpers/until.js";
import { spawnHook } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-pretool-"));
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

const FAKE_KEY = `sk-ant-api03-${"Q".repeat(80)}AA`;

async function sandbox(name: string, config: Record<string, unknown> = {}): Promise<DaemonSandbox> {
  const s = daemonSandbox(join(tmp, name), { embedding: { order: [] }, index: { watch: false }, ...config });
  writeFileSync(join(s.proj, "auth.ts"), "export const alg = 'ES256';\n");
  const env = { ...s.env, MEM_NO_DAEMON: "1", MEM_WATCH: "0" };
  const r = await runMem(["remember", "--kind", "rejected", "--files", "auth.ts", "We rejected HS256 for token signing because it shares the secret with every verifier."], { env, cwd: s.proj });
  assert.equal(r.code, 0, r.stderr);
  const m = await runMem(["remember", "--kind", "decision", "Never run `npm run migrate:force` on shared databases: it dropped the staging data."], { env, cwd: s.proj });
  assert.equal(m.code, 0, m.stderr);
  return s;
}

const edit = (s: DaemonSandbox, session: string, oldS: string, newS: string) =>
  JSON.stringify({ session_id: session, transcript_path: "/nonexistent", cwd: s.proj, permission_mode: "default", hook_event_name: "PreToolUse", tool_name: "Edit", tool_input: { file_path: join(s.proj, "auth.ts"), old_string: oldS, new_string: newS }, tool_use_id: `toolu_${session}_${newS.length}` });
const bash = (s: DaemonSandbox, session: string, command: string) =>
  JSON.stringify({ session_id: session, transcript_path: "/nonexistent", cwd: s.proj, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command, description: "run" }, tool_use_id: `toolu_${session}_bash` });

/** The hook's answer: the context, and the whole object's keys (never a permission decision). */
function answer(stdout: string): { context: string; keys: string[] } {
  if (stdout.trim() === "") return { context: "", keys: [] };
  const o = JSON.parse(stdout) as { hookSpecificOutput: Record<string, unknown> };
  assert.deepEqual(Object.keys(o), ["hookSpecificOutput"]);
  assert.equal(o.hookSpecificOutput.hookEventName, "PreToolUse");
  return { context: String(o.hookSpecificOutput.additionalContext), keys: Object.keys(o.hookSpecificOutput).sort() };
}

function logged(s: DaemonSandbox): { hook: string; prompt: string; ids: string; candidates: string }[] {
  const db = openDb(join(s.home, "mem.sqlite"));
  try {
    return db.prepare("SELECT hook, prompt, ids, candidates FROM prompt_runs WHERE hook = 'pretool' ORDER BY id").all() as { hook: string; prompt: string; ids: string; candidates: string }[];
  } finally {
    db.close();
  }
}

async function scenario(s: DaemonSandbox, env: NodeJS.ProcessEnv): Promise<void> {
  const regression = await spawnHook("pre-tool-use", edit(s, "s1", "export const alg = 'ES256';", "export const alg = 'HS256';"), env);
  assert.equal(regression.code, 0);
  const a = answer(regression.stdout);
  assert.deepEqual(a.keys, ["additionalContext", "hookEventName"], "context only: no permissionDecision, no updatedInput");
  assert.match(a.context, /^mem: this tool call brings back something a recorded decision ruled out/);
  assert.match(a.context, /<mem-pretool>\n- mem: the team rejected HS256 on \d{4}-\d{2}-\d{2} because it shares the secret with every verifier \(id [0-9a-f]{12}\)\n<\/mem-pretool>$/);
  assert.match(a.context, /Quoted data, not instructions/);
  // An ordinary edit of the same file, and an ordinary command: nothing.
  assert.equal((await spawnHook("pre-tool-use", edit(s, "s1", "export const alg = 'ES256';", "export const alg = 'ES256'; // v2"), env)).stdout, "");
  assert.equal((await spawnHook("pre-tool-use", bash(s, "s1", "npm run migrate"), env)).stdout, "");
  // The same regression again in the same session: said once is enough.
  assert.equal((await spawnHook("pre-tool-use", edit(s, "s1", "x", "const alg = 'HS256';"), env)).stdout, "");
  // The ruled-out command, with a secret on its line: warned; the log keeps the call redacted.
  const cmd = await spawnHook("pre-tool-use", bash(s, "s2", `ANTHROPIC_API_KEY=${FAKE_KEY} npm run migrate:force`), env);
  assert.match(answer(cmd.stdout).context, /the team rejected `npm run migrate:force` on \d{4}-\d{2}-\d{2}: "Never run/);
  // The daemon records a warning once the hook has it (after the answer): give it a moment.
  await until(() => logged(s).length >= 2, 60_000, "two warnings logged").catch(() => undefined);
  const runs = logged(s);
  assert.equal(runs.length, 2, "two warnings logged");
  assert.match(runs[0]!.prompt, /^Edit: .*auth\.ts$/);
  assert.match(runs[0]!.candidates, /the call adds \\"hs256\\", which this rejected approach rules out/);
  assert.match(runs[1]!.prompt, /^Bash: ANTHROPIC_API_KEY=.*npm run migrate:force$/);
  assert.ok(!runs[1]!.prompt.includes(FAKE_KEY), `the secret was stored: ${runs[1]!.prompt}`);
  // mem why --pretool tells which call got a warning, and why.
  const why = await runMem(["why", "--pretool", "--cwd", s.proj], { env: { ...s.env, MEM_NO_DAEMON: "1" } });
  assert.equal(why.code, 0, why.stderr);
  assert.match(why.stdout, /The last 2 pre-tool warning\(s\)/);
  assert.match(why.stdout, /Bash: ANTHROPIC_API_KEY=\S+ npm run migrate:force[\s\S]*Edit: .*auth\.ts/);
  assert.match(why.stdout, /memory [0-9a-f]{12}: the call adds "hs256"/);
  assert.ok(!why.stdout.includes(FAKE_KEY));
}

describe("PreToolUse", () => {
  test("without a daemon (MEM_NO_DAEMON=1): checked in-process", { timeout: 120_000 }, async () => {
    const s = await sandbox("local");
    await scenario(s, { ...s.env, MEM_NO_DAEMON: "1" });
  });

  test("through the warm daemon (`mem serve`)", { timeout: 120_000 }, async () => {
    // A loaded test machine can take a check past the 150 ms default: the behaviour is tested here, bench:pretool times it.
    const s = await sandbox("daemon", { pretool: { budgetMs: 1_400 } });
    const child = await startDaemon(s, children);
    await scenario(s, { ...s.env, MEM_NO_DAEMON: "0" });
    child.kill("SIGTERM");
  });

  test("pretool.enabled false: nothing, with the daemon and without", { timeout: 120_000 }, async () => {
    const s = await sandbox("off", { pretool: { enabled: false } });
    const payload = edit(s, "s1", "a", "const alg = 'HS256';");
    assert.equal((await spawnHook("pre-tool-use", payload, { ...s.env, MEM_NO_DAEMON: "1" })).stdout, "");
    const child = await startDaemon(s, children);
    assert.equal((await spawnHook("pre-tool-use", payload, { ...s.env, MEM_NO_DAEMON: "0" })).stdout, "");
    child.kill("SIGTERM");
    const why = await runMem(["why", "--pretool", "--cwd", s.proj], { env: { ...s.env, MEM_NO_DAEMON: "1" } });
    assert.match(why.stdout, /The pre-tool check is off/);
  });

  test("hostile stdin never blocks and never answers", { timeout: 120_000 }, async () => {
    const s = await sandbox("hostile");
    const env = { ...s.env, MEM_NO_DAEMON: "1" };
    const huge = JSON.stringify({ session_id: "h", cwd: s.proj, hook_event_name: "PreToolUse", tool_name: "Write", tool_input: { file_path: join(s.proj, "auth.ts"), content: `const alg = 'HS256';\n${"x".repeat(5 * 1024 * 1024)}` } });
    const deep = `{"tool_name":"Bash","cwd":${JSON.stringify(s.proj)},"tool_input":${"[".repeat(50_000)}${"]".repeat(50_000)}}`;
    for (const input of ["", "not json", "[1,2]", "{", huge, deep, JSON.stringify({ tool_name: "Edit", tool_input: "HS256" }), JSON.stringify({ tool_name: "Bash", tool_input: { command: 42 } })]) {
      const r = await spawnHook("pre-tool-use", input, env);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "", `printed for ${input.slice(0, 60)}`);
    }
  });
});

describe("Notification", () => {
  test("captured as an event, redacted, never indexed; printed nothing; with the daemon and without", { timeout: 120_000 }, async () => {
    const s = await sandbox("notify");
    const payload = (session: string) => JSON.stringify({ session_id: session, transcript_path: "/nonexistent", cwd: s.proj, hook_event_name: "Notification", message: `Claude needs your permission to use Bash (${FAKE_KEY})`, notification_type: "permission_prompt" });
    const local = await spawnHook("notification", payload("n1"), { ...s.env, MEM_NO_DAEMON: "1" });
    assert.equal(local.code, 0);
    assert.equal(local.stdout, "");
    const child = await startDaemon(s, children);
    assert.equal((await spawnHook("notification", payload("n2"), { ...s.env, MEM_NO_DAEMON: "0" })).stdout, "");
    assert.equal((await spawnHook("notification", "{oops", { ...s.env, MEM_NO_DAEMON: "0" })).stdout, "");
    // The daemon's background indexing has turned every event into chunks, or passed over it.
    await until(() => {
      const db = openDb(join(s.home, "mem.sqlite"));
      try {
        return (db.prepare("SELECT count(*) AS n FROM events WHERE chunked = 0").get() as { n: number }).n === 0;
      } finally {
        db.close();
      }
    });
    child.kill("SIGTERM");
    const db = openDb(join(s.home, "mem.sqlite"));
    try {
      const rows = db.prepare("SELECT session, text, json_extract(metadata, '$.notificationType') AS kind FROM events WHERE type = 'notification' ORDER BY session").all() as { session: string; text: string; kind: string }[];
      assert.deepEqual(rows.map((r) => [r.session, r.kind]), [["n1", "permission_prompt"], ["n2", "permission_prompt"]]);
      for (const r of rows) {
        assert.match(r.text, /^permission_prompt: Claude needs your permission to use Bash/);
        assert.ok(!r.text.includes(FAKE_KEY), r.text);
      }
      assert.equal((db.prepare("SELECT count(*) AS n FROM chunks WHERE kind = 'notification'").get() as { n: number }).n, 0);
    } finally {
      db.close();
    }
  });
});
