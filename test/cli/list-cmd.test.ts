import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { cleanEnv, jsonOf, runMem } from "../helpers/mem-cli.js";
import { hook } from "../hooks/helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-list-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe("mem list: the memories captured in the project's sessions", () => {
  const proj = join(tmp, "proj");
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: join(tmp, "home"), HOME: tmp };
  mkdirSync(join(proj, ".git"), { recursive: true });
  const token = "gh" + "p_" + "Zq7WmX2pLk9RtY4vBn8Cs3Dd6Fg1Hj5Kl0Qa";

  test("kinds, sources, newest first, paging, JSON shape, errors", async () => {
    const transcript = join(tmp, "t.jsonl");
    const say = (time: string, text: string) => JSON.stringify({ type: "assistant", sessionId: "s1", timestamp: time, message: { role: "assistant", content: [{ type: "text", text }] } });
    writeFileSync(transcript, `${[say("2026-11-20T10:00:00Z", "[MEMORY: decision] Chose SQLite over Postgres: no server to run."), say("2026-11-21T10:00:00Z", "[MEMORY: decision] Keep WAL mode for the store."), say("2026-11-21T11:00:00Z", `[MEMORY: learned] The deploy token ${token} expires monthly.`)].join("\n")}\n`);
    await hook("stop", { session_id: "s1", cwd: proj, transcript_path: transcript, hook_event_name: "Stop", stop_hook_active: false }, env);
    await hook("post-tool-use", { session_id: "s1", cwd: proj, hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: "toolu_l1", tool_input: { command: "npm test" }, tool_response: { stdout: "ok" } }, env);

    const decisions = await runMem(["list", "--kind", "decision", "--json"], { env, cwd: proj });
    assert.equal(decisions.code, 0, decisions.stderr);
    const out = jsonOf<{ project: string; total: number; memories: { id: string; kind: string; text: string; source: string; salience: number; stale: string | null }[] }>(decisions);
    assert.equal(out.project, proj);
    assert.equal(out.total, 2);
    assert.deepEqual(out.memories.map((m) => m.text), ["Keep WAL mode for the store.", "Chose SQLite over Postgres: no server to run."], "newest first");
    for (const m of out.memories) {
      assert.equal(m.source, "tag");
      assert.ok(m.salience >= 0.6 && m.salience <= 1, "decisions never fall below the floor");
      assert.equal(m.stale, null);
    }
    const captured = jsonOf<{ memories: { kind: string }[] }>(await runMem(["list", "--source", "captured", "--json"], { env, cwd: proj }));
    assert.deepEqual(captured.memories.map((m) => m.kind), ["command_run"]);
    const page = jsonOf<{ total: number; memories: unknown[] }>(await runMem(["list", "--limit", "1", "--offset", "1", "--json"], { env, cwd: proj }));
    assert.equal(page.memories.length, 1);
    assert.equal(page.total, 4);
    const human = await runMem(["list", "--kind", "learned"], { env, cwd: proj });
    assert.match(human.stdout, /^[0-9a-f]{12} +learned +\d+ d ago +session s1 +salience 0\.\d\d\n {3}The deploy token \[REDACTED:github-token\] expires monthly\.\n$/);
    assert.ok(!human.stdout.includes(token));
    const bad = await runMem(["list", "--kind", "nope"], { env, cwd: proj });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--kind must be one of/);
    assert.equal((await runMem(["list", "--limit", "0"], { env, cwd: proj })).code, 2);
  });
});

test("mem list: a memory put outside a session says so, and its session's day is not a dangling word", async () => {
  const proj = join(tmp, "nosession");
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: join(tmp, "home-nosession"), HOME: tmp };
  mkdirSync(join(proj, ".git"), { recursive: true });
  assert.equal((await runMem(["remember", "Releases are cut on Thursdays.", "--kind", "decision"], { env, cwd: proj })).code, 0);
  const r = await runMem(["list"], { env, cwd: proj });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /decision\s+.*\s{2}no session {2}salience 1\.00\n {3}Releases are cut on Thursdays\./);
});

test("mem list and mem task list on a project nothing was stored under say so on stderr (a typo in --project)", async () => {
  const proj = join(tmp, "typo");
  mkdirSync(join(proj, ".git"), { recursive: true });
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: join(tmp, "home-typo"), HOME: tmp };
  assert.equal((await runMem(["remember", "Releases are cut on Thursdays."], { env, cwd: proj })).code, 0);
  for (const args of [["list"], ["task", "list"]]) {
    const typo = await runMem([...args, "--project", "tpyo"], { env, cwd: proj });
    assert.equal(typo.code, 0, typo.stderr);
    assert.match(typo.stderr, /^note: nothing is stored for project tpyo; `mem status` lists the projects there are\n$/, args.join(" "));
    const here = await runMem(args, { env, cwd: proj });
    assert.equal(here.stderr, "", `${args.join(" ")}: a project that holds something says nothing more`);
  }
});

test("mem list --kind task lists the project's tasks (kept by mem task), open ones, --json too", async () => {
  const proj = join(tmp, "tasks");
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: join(tmp, "home-tasks"), HOME: tmp };
  mkdirSync(join(proj, ".git"), { recursive: true });
  const open = jsonOf<{ task: { id: string } }>(await runMem(["task", "add", "Write the migration guide", "--json"], { env, cwd: proj })).task.id;
  const closed = jsonOf<{ task: { id: string } }>(await runMem(["task", "add", "Drop the old flag", "--json"], { env, cwd: proj })).task.id;
  assert.equal((await runMem(["task", "done", closed], { env, cwd: proj })).code, 0);
  assert.equal((await runMem(["remember", "Releases are cut on Thursdays.", "--kind", "decision"], { env, cwd: proj })).code, 0);

  const human = await runMem(["list", "--kind", "task"], { env, cwd: proj });
  assert.equal(human.code, 0, human.stderr);
  assert.doesNotMatch(human.stdout, /no memories of kind task/);
  assert.match(human.stdout, new RegExp(`^${open} +pending +.*Write the migration guide$`, "m"));
  assert.ok(!human.stdout.includes("Drop the old flag"), "a closed task is not listed");
  assert.ok(!human.stdout.includes("Thursdays"), "nor a memory of another kind");
  assert.match(human.stdout, /mem task list --all/, "it says where the closed ones are");

  const json = jsonOf<{ project: string; total: number; memories: unknown[]; tasks: { id: string; status: string; content: string }[] }>(await runMem(["list", "--kind", "task", "--json"], { env, cwd: proj }));
  assert.equal(json.project, proj);
  assert.deepEqual(json.memories, []);
  assert.deepEqual(
    json.tasks.map((t) => [t.id, t.status, t.content]),
    [[open, "pending", "Write the migration guide"]],
  );
  const decisions = jsonOf<Record<string, unknown>>(await runMem(["list", "--kind", "decision", "--json"], { env, cwd: proj }));
  assert.equal(decisions.tasks, undefined, "tasks only when --kind task asks for them");
});
