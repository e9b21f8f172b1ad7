/**
 * Hooks that find the store damaged: a marker in the data home, one log line, a briefing line
 * through a spawned SessionStart hook, exit 0 always; repair clears the marker, and what was
 * captured meanwhile is kept. Real processes, real SQLite files.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { checkpoint, damagePages } from "../helpers/damage.js";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";
import { spawnHook } from "../hooks/helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-hooks-damage-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const KEY = "sk-" + "proj-" + "Zq8vN3xR7tLm2KpW9yHc4JdF6gBs1QaE5uVn0XoIi";
const bash = (id: string, command: string, cwd: string) => JSON.stringify({ session_id: "sess-1", cwd, hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: id, tool_input: { command }, tool_response: { stdout: "ok", stderr: "" } });
const briefingOf = (stdout: string) => (stdout.trim() === "" ? "" : (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext);

describe("hooks on a damaged store", () => {
  const home = join(tmp, "home");
  const proj = join(tmp, "proj");
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp };
  const marker = join(home, "store-damaged.json");

  before(async () => {
    mkdirSync(join(proj, ".git"), { recursive: true });
    writeFileSync(join(proj, "state.md"), "# State\n\nThe ledger export runs every night at two.\n");
    assert.equal((await runMem(["index", proj], { env })).code, 0);
    const r = await spawnHook("post-tool-use", bash("toolu_before", "pnpm run ledger-export --dry-run", proj), env);
    assert.equal(r.code, 0);
    const file = join(home, "mem.sqlite");
    checkpoint(file);
    damagePages(file, [1]);
  });

  test("capture hooks exit 0, record a private marker once and log once", async () => {
    const a = await spawnHook("post-tool-use", bash("toolu_during1", `OPENAI_API_KEY=${KEY} pnpm run reconcile-quarterly`, proj), env);
    const b = await spawnHook("post-tool-use", bash("toolu_during2", "pnpm run archive-invoices", proj), env);
    const c = await spawnHook("session-end", JSON.stringify({ session_id: "sess-1", cwd: proj, hook_event_name: "SessionEnd", reason: "other" }), env);
    for (const r of [a, b, c]) {
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "");
    }
    assert.ok(existsSync(marker), "a marker is left in the data home");
    // A hook that finishes without opening the store does not take the marker for a working store.
    const idle = await spawnHook("stop", JSON.stringify({ session_id: "sess-1", cwd: proj, hook_event_name: "Stop", stop_hook_active: true }), env);
    assert.equal(idle.code, 0);
    assert.ok(existsSync(marker), "the marker stays while the store is still damaged");
    assert.equal(statSync(marker).mode & 0o777, 0o600);
    const m = JSON.parse(readFileSync(marker, "utf8")) as { what: string; since: string };
    assert.match(m.what, /malformed|not a SQLite/);
    assert.ok(!Number.isNaN(Date.parse(m.since)));
    const log = readFileSync(join(home, "hooks.log"), "utf8").split("\n").filter((l) => /damaged/.test(l));
    assert.equal(log.length, 1, `logged once:\n${log.join("\n")}`);
    for (const f of readdirSync(home).filter((n) => !n.startsWith("mem.sqlite")).map((n) => join(home, n)).filter((p) => statSync(p).isFile())) {
      assert.ok(!readFileSync(f, "utf8").includes(KEY), `${f} holds no secret`);
    }
  });

  test("the SessionStart briefing says the store is damaged, since when, and how to repair it", async () => {
    const r = await spawnHook("session-start", JSON.stringify({ session_id: "sess-2", cwd: proj, hook_event_name: "SessionStart", source: "startup" }), env);
    assert.equal(r.code, 0, r.stderr);
    const text = briefingOf(r.stdout);
    assert.match(text, /mem: the memory store is damaged \(.+\) since \d{4}-\d\d-\d\d[ T]\d\d:\d\d.*; captures are not being saved.*Run `mem doctor --repair`\./s);
  });

  test("after `mem doctor --repair` the marker is gone, the briefing is a normal one, and captures made meanwhile are searchable", async () => {
    const rep = await runMem(["doctor", "--repair", "--json"], { env });
    assert.equal(rep.code, 0, show(rep));
    assert.equal(jsonOf<{ ok: boolean }>(rep).ok, true);
    assert.ok(!existsSync(marker), "marker cleared");
    const r = await spawnHook("session-start", JSON.stringify({ session_id: "sess-3", cwd: proj, hook_event_name: "SessionStart", source: "startup" }), env);
    assert.equal(r.code, 0);
    assert.doesNotMatch(briefingOf(r.stdout), /damaged/);
    const q = await runMem(["query", "reconcile-quarterly", "--json", "--project", proj], { env, cwd: proj });
    assert.equal(q.code, 0, show(q));
    const results = jsonOf<{ results: { text: string }[] }>(q).results;
    assert.ok(results.some((x) => x.text.includes("reconcile-quarterly")), `the capture made while damaged was kept\n${show(q)}`);
    assert.ok(results.every((x) => !x.text.includes(KEY)));
  });
});

describe("the spool without a repair", () => {
  test("a store started over on purpose (`mem restore --fresh`): the next capture clears the marker and replays the spool", async () => {
    const home = join(tmp, "home-replaced");
    const proj = join(tmp, "proj-replaced");
    mkdirSync(join(proj, ".git"), { recursive: true });
    const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp };
    assert.equal((await spawnHook("post-tool-use", bash("toolu_a", "make first", proj), env)).code, 0);
    damagePages(join(home, "mem.sqlite"), [1]);
    assert.equal((await spawnHook("post-tool-use", bash("toolu_b", "make kept-aside-while-damaged", proj), env)).code, 0);
    assert.ok(existsSync(join(home, "store-damaged.json")) && existsSync(join(home, "capture-spool.jsonl")));
    const fresh = await runMem(["restore", "--fresh", "--yes"], { env });
    assert.equal(fresh.code, 0, show(fresh));
    assert.ok(existsSync(join(home, "capture-spool.jsonl")) || !existsSync(join(home, "store-damaged.json")), "the restore replayed the spool, or left it for the next capture");
    assert.equal((await spawnHook("post-tool-use", bash("toolu_c", "make after", proj), env)).code, 0);
    assert.ok(!existsSync(join(home, "store-damaged.json")), "marker cleared");
    assert.ok(!existsSync(join(home, "capture-spool.jsonl")), "spool replayed");
    const Database = (await import("better-sqlite3")).default;
    const db = new Database(join(home, "mem.sqlite"), { readonly: true });
    const texts = (db.prepare("SELECT text FROM events ORDER BY time").pluck().all() as string[]).join("\n");
    db.close();
    assert.match(texts, /kept-aside-while-damaged/);
    assert.match(texts, /make after/);
  });
});

