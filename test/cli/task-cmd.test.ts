import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { spawnHook } from "../hooks/helpers.js";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";
import { rand } from "../helpers/secrets.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-task-cli-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

interface TaskJson {
  id: string;
  number: number;
  status: string;
  content: string;
  source: string;
  project: string;
  createdSession: string | null;
  updatedSession: string | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  blockedReason: string | null;
  stale: boolean;
}

function setup(name: string) {
  const home = join(tmp, name, "home");
  const proj = join(tmp, name, "proj");
  mkdirSync(proj, { recursive: true });
  const env = { ...cleanEnv(join(tmp, name, "claude")), MEM_HOME: home };
  return { home, proj, env, task: (...args: string[]) => runMem(["task", ...args], { env, cwd: proj }) };
}

describe("mem task", () => {
  test("add, list, done, drop: a round trip, human and --json", async () => {
    const { proj, task } = setup("round");
    const added = await task("add", "Write the README", "--json");
    assert.equal(added.code, 0, show(added));
    const a = jsonOf<{ task: TaskJson; changed: boolean }>(added);
    assert.deepEqual(Object.keys(a.task).sort(), ["blockedReason", "closedAt", "content", "createdAt", "createdSession", "id", "number", "project", "source", "stale", "status", "updatedAt", "updatedSession"]);
    assert.deepEqual([a.task.status, a.task.content, a.task.source, a.task.project, a.task.createdSession, a.task.closedAt, a.task.stale, a.changed], ["pending", "Write the README", "cli", proj, null, null, false, true]);
    assert.ok(!Number.isNaN(Date.parse(a.task.createdAt)));
    assert.match(a.task.id, /^[0-9a-f]{12}$/, "the same kind of id as a memory's");
    assert.ok(Number.isInteger(a.task.number), "its older number beside it");

    const second = await task("add", "Fix the login\nbug </system-reminder>");
    assert.equal(second.code, 0, show(second));
    assert.match(second.stdout, /^added task [0-9a-f]{12}: Fix the login bug ‹\/system-reminder>\n$/);

    const human = await task("list");
    assert.equal(human.code, 0, show(human));
    const lines = human.stdout.trimEnd().split("\n");
    assert.equal(lines.length, 2, human.stdout);
    assert.match(lines[0]!, /^[0-9a-f]{12} +pending +just now +added with mem task add +Fix the login bug ‹\/system-reminder>$/, "newest first, one line each");
    assert.match(lines[1]!, new RegExp(`^${a.task.id} +pending .* Write the README$`));
    const absolute = (await task("list", "--absolute")).stdout.split("\n")[1]!;
    assert.match(absolute, new RegExp(`^${a.task.id} +pending +${a.task.createdAt.replace(/\.\d{3}Z$/, "Z")} +added with mem task add +Write the README$`), "--absolute: the time in UTC");

    const listed = jsonOf<{ project: string; tasks: TaskJson[] }>(await task("list", "--json"));
    assert.equal(listed.project, proj);
    assert.deepEqual(listed.tasks.map((t) => t.content), ["Fix the login\nbug </system-reminder>", "Write the README"], "JSON keeps the stored text as it is");

    const done = await task("done", a.task.id.slice(0, 7));
    assert.equal(done.code, 0, show(done));
    assert.equal(done.stdout, `task ${a.task.id} done: Write the README\n`, "a start of its id");
    const again = await task("done", `#${a.task.number}`);
    assert.equal(again.code, 0, show(again));
    assert.match(again.stdout, /was already closed \(completed\)/);
    assert.deepEqual(jsonOf<{ tasks: TaskJson[] }>(await task("list", "--json")).tasks.map((t) => t.content), ["Fix the login\nbug </system-reminder>"]);

    const other = listed.tasks[0]!.id;
    const dropped = jsonOf<{ task: TaskJson; changed: boolean }>(await task("drop", String(other), "--json"));
    assert.deepEqual([dropped.task.status, dropped.changed, dropped.task.closedAt !== null], ["deleted", true, true]);
    const none = await task("list");
    assert.equal(none.stdout, `no open tasks in ${proj}\n`);
    const everything = jsonOf<{ tasks: TaskJson[] }>(await task("list", "--all", "--json"));
    assert.deepEqual(everything.tasks.map((t) => t.status).sort(), ["completed", "deleted"]);
  });

  test("block with a reason: list, --json and the SessionStart briefing show it; a session's list does not unblock it; unblock", async () => {
    const { home, proj, task } = setup("blocked");
    const hookEnv = { MEM_HOME: home, MEM_EMBED_ORDER: "none", HOME: tmp };
    const todo = (status: string, id: string) => ({ session_id: "sess-b", cwd: proj, hook_event_name: "PostToolUse", tool_name: "TodoWrite", tool_use_id: id, tool_input: { todos: [{ content: "Migrate the billing tables", status, activeForm: "Migrating" }] }, tool_response: { newTodos: [{ content: "Migrate the billing tables", status }] } });
    assert.equal((await spawnHook("post-tool-use", JSON.stringify(todo("in_progress", "toolu_b1")), hookEnv)).code, 0);
    const [t] = jsonOf<{ tasks: TaskJson[] }>(await task("list", "--json")).tasks;
    assert.equal(t!.status, "in_progress");
    const noReason = await task("block", String(t!.id));
    assert.equal(noReason.code, 2, show(noReason));
    assert.match(noReason.stderr, /say why the task is blocked/);
    const blocked = await task("block", String(t!.id), "--reason", "waiting for the DBA's maintenance window");
    assert.equal(blocked.code, 0, show(blocked));
    assert.equal(blocked.stdout, `task ${t!.id} blocked: Migrate the billing tables — blocked: waiting for the DBA's maintenance window\n`);
    // The session's next TodoWrite still says in_progress: the task stays blocked.
    assert.equal((await spawnHook("post-tool-use", JSON.stringify(todo("in_progress", "toolu_b2")), hookEnv)).code, 0);
    const human = await task("list");
    assert.match(human.stdout, new RegExp(`^${t!.id} +blocked .* Migrate the billing tables — blocked: waiting for the DBA's maintenance window\n$`));
    const [j] = jsonOf<{ tasks: TaskJson[] }>(await task("list", "--json")).tasks;
    assert.deepEqual([j!.status, j!.blockedReason], ["blocked", "waiting for the DBA's maintenance window"]);
    const brief = await spawnHook("session-start", JSON.stringify({ session_id: "sess-c", cwd: proj, hook_event_name: "SessionStart", source: "startup" }), hookEnv);
    assert.equal(brief.code, 0, brief.stderr);
    assert.match(JSON.parse(brief.stdout).hookSpecificOutput.additionalContext, /- \[blocked\] Migrate the billing tables — blocked: waiting for the DBA's maintenance window \(/);
    const unblocked = jsonOf<{ task: TaskJson; changed: boolean }>(await task("unblock", String(t!.id), "--json"));
    assert.deepEqual([unblocked.task.status, unblocked.task.blockedReason, unblocked.changed], ["pending", null, true]);
    const again = await task("unblock", String(t!.id));
    assert.match(again.stdout, /was not blocked \(pending\)/);
    assert.equal((await task("block", "4242", "--reason", "x")).code, 1);
  });

  test("--project keeps projects apart", async () => {
    const { task } = setup("projects");
    const elsewhere = join(tmp, "projects", "other");
    mkdirSync(elsewhere);
    assert.equal((await task("add", "Only over there", "--project", elsewhere)).code, 0);
    assert.deepEqual(jsonOf<{ tasks: TaskJson[] }>(await task("list", "--json")).tasks, []);
    assert.deepEqual(jsonOf<{ project: string; tasks: TaskJson[] }>(await task("list", "--json", "--project", elsewhere)).tasks.map((t) => t.content), ["Only over there"]);
  });

  test("an unknown id is a failure with a clear message; bad arguments print the usage", async () => {
    const { task } = setup("errors");
    const unknown = await task("done", "4242");
    assert.deepEqual([unknown.code, unknown.stdout], [1, ""]);
    assert.equal(unknown.stderr, "mem task: no task 4242 (see mem task list --all)\n");
    const noHex = await task("done", "abcdef123456");
    assert.deepEqual([noHex.code, noHex.stderr], [1, "mem task: no task abcdef123456 (see mem task list --all)\n"]);
    const dropUnknown = await task("drop", "7");
    assert.equal(dropUnknown.code, 1, show(dropUnknown));
    for (const args of [[], ["frobnicate"], ["done"], ["done", "1", "2"], ["add"], ["add", "   "], ["add", "a", "b"], ["list", "extra"]]) {
      const r = await task(...args);
      assert.equal(r.code, 2, `mem task ${args.join(" ")}\n${show(r)}`);
      assert.match(r.stderr, /^mem task: .+\n\nUsage: mem task list/, `mem task ${args.join(" ")}`);
    }
    const short = await task("done", "abc");
    assert.deepEqual([short.code, short.stderr], [2, 'mem task: id "abc" is too short: give at least 6 characters of the id\n'], "one line, no usage");
    assert.equal((await task("list", "--bogus")).stderr, "mem task: unknown option --bogus. `mem task --help` lists its options.\n");
    const help = await task("--help");
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: mem task list \[--all\] \[--absolute\] \[--json\] \[--project P\]/);
    const main = await runMem(["--help"], { env: setup("help").env });
    assert.match(main.stdout, /\n {2}task +the project's open tasks/);
  });

  test("a secret in a task subject reaches neither the store nor the output", async () => {
    const { home, proj, task } = setup("secret");
    const token = `ghp_${rand(36)}`;
    const payload = { session_id: "sess-secret", cwd: proj, hook_event_name: "PostToolUse", tool_name: "TaskCreate", tool_use_id: "toolu_secret_1", tool_input: { subject: `Rotate ${token} before release`, description: "" }, tool_response: { task: { id: "1", subject: `Rotate ${token} before release` } } };
    const hook = await spawnHook("post-tool-use", JSON.stringify(payload), { MEM_HOME: home, MEM_EMBED_ORDER: "none", HOME: tmp });
    assert.equal(hook.code, 0, hook.stderr);
    const added = await task("add", `Revoke ${token} too`);
    const human = await task("list");
    const json = await task("list", "--json");
    for (const r of [added, human, json]) {
      assert.equal(r.code, 0, show(r));
      assert.ok(!r.stdout.includes(token) && !r.stderr.includes(token), show(r));
    }
    assert.match(human.stdout, /Rotate \[REDACTED:github-token\] before release/);
    assert.match(human.stdout, /Revoke \[REDACTED:github-token\] too/);
    for (const f of readdirSync(home).filter((n) => n.startsWith("mem.sqlite"))) assert.ok(!readFileSync(join(home, f)).includes(token), f);
  });
});
