/**
 * bin/mem-hook.sh's curl client for PreToolUse and Notification against a real daemon: the
 * pre-tool warning and the notification's capture come back without starting Node; a tool the
 * check leaves alone is answered with nothing, without Node either.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { openDb } from "../../src/store/db.js";
import { runChild } from "../helpers/run-child.js";
import { BIN, context, daemon, envOf, home, nodeRuns, skip, viaScript } from "../helpers/hook-script.js";

describe("the curl hook client, before a tool call", { skip }, () => {
  test("warns about a ruled-out command and captures a notification without starting Node", { timeout: 120_000 }, async () => {
    const h = home();
    // A loaded test machine can take a check past the 150 ms default: the behaviour is tested here, bench:pretool times it.
    const config = JSON.parse(readFileSync(join(h, "config.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(join(h, "config.json"), JSON.stringify({ ...config, pretool: { budgetMs: 1_400 } }));
    const r = await runChild(process.execPath, [BIN, "remember", "--kind", "decision", "--project", h, "--new-project", "Never run `npm run migrate:force` on shared databases: it dropped the staging data."], { env: { ...envOf(h), MEM_NO_DAEMON: "1" } });
    assert.equal(r.code, 0, r.stderr);
    const child = await daemon(h);
    const call = (command: string, tool = "Bash") => JSON.stringify({ session_id: "s-pre", transcript_path: "/nonexistent", cwd: h, hook_event_name: "PreToolUse", tool_name: tool, tool_input: { command }, tool_use_id: `toolu_${command.length}` });
    const warned = await viaScript("pre-tool-use", call("npm run migrate:force"), envOf(h));
    assert.match(context(warned.stdout), /- mem: the team rejected `npm run migrate:force` on \d{4}-\d{2}-\d{2}: "Never run/);
    assert.equal(JSON.parse(warned.stdout).hookSpecificOutput.permissionDecision, undefined);
    assert.equal((await viaScript("pre-tool-use", call("npm test"), envOf(h))).stdout, "");
    assert.equal((await viaScript("pre-tool-use", call("npm run migrate:force", "Read"), envOf(h))).stdout, "");
    const note = await viaScript("notification", JSON.stringify({ session_id: "s-pre", cwd: h, hook_event_name: "Notification", message: "Claude is waiting for your input", notification_type: "idle_prompt" }), envOf(h));
    assert.equal(note.stdout, "");
    assert.equal(nodeRuns(h), 0, "the curl client answered every one");
    const db = openDb(join(h, "mem.sqlite"));
    try {
      assert.deepEqual(db.prepare("SELECT text FROM events WHERE type = 'notification'").pluck().all(), ["idle_prompt: Claude is waiting for your input"]);
      assert.equal((db.prepare("SELECT count(*) FROM prompt_runs WHERE hook = 'pretool'").pluck().get() as number), 1);
    } finally {
      db.close();
    }
    child.kill("SIGTERM");
  });
});
