/**
 * After an upgrade, the hooks an older mem installed stay until `mem install` runs again: the
 * SessionStart hook says so to the user (`systemMessage`, never the model's context), at most once
 * a day, and says nothing once the hooks are what this mem installs. Real hook processes.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { installToFile } from "../../src/install/files.js";
import { contextOutput } from "../../src/hooks/contract.cjs";
import { nudgeStamp } from "../../src/hooks/install-nudge.js";
import { BIN, cleanEnv, runMem, show } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-nudge-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("hooks of an older install: SessionStart tells the user once a day how to update them; nothing once they are current", async () => {
  const home = join(tmp, "home");
  const proj = join(tmp, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(home, { recursive: true });
  const memHome = join(tmp, "mem-home");
  const env: NodeJS.ProcessEnv = { ...cleanEnv(join(home, ".claude")), HOME: home, MEM_HOME: memHome };
  // What an older mem wrote: every hook runs Node directly (no curl client).
  installToFile({ scope: "user", where: { env, cwd: proj }, target: { node: process.execPath, bin: BIN } });
  const r0 = await runMem(["remember", "Deploys freeze in December.", "--kind", "decision"], { env, cwd: proj });
  assert.equal(r0.code, 0, show(r0)); // a briefing to deliver beside the notice
  const start = async () => {
    const r = await runMem(["hook", "session-start"], { env, cwd: proj, input: JSON.stringify({ session_id: "s1", cwd: proj, hook_event_name: "SessionStart", source: "startup", transcript_path: "/nonexistent" }) });
    assert.equal(r.code, 0, show(r));
    return (r.stdout.trim() === "" ? {} : JSON.parse(r.stdout)) as { systemMessage?: string; hookSpecificOutput?: { additionalContext: string } };
  };
  const first = await start();
  assert.match(first.systemMessage ?? "", new RegExp(`^mem: the hooks in ${join(home, ".claude", "settings.json")} are not the ones this mem installs .*Run \`mem install --scope user\` to update them`));
  assert.match(first.hookSpecificOutput?.additionalContext ?? "", /Deploys freeze in December/, "the briefing as ever");
  assert.doesNotMatch(first.hookSpecificOutput?.additionalContext ?? "", /mem install/, "the model is not told");
  assert.equal((await start()).systemMessage, undefined, "once a day");
  utimesSync(nudgeStamp(memHome), new Date(Date.now() - 25 * 3600_000), new Date(Date.now() - 25 * 3600_000));
  assert.match((await start()).systemMessage ?? "", /mem install --scope user/, "a day later, again");

  const inst = await runMem(["install", "--scope", "user", "--no-mcp"], { env, cwd: proj });
  assert.equal(inst.code, 0, show(inst));
  rmSync(nudgeStamp(memHome));
  assert.equal((await start()).systemMessage, undefined, "current hooks: nothing to say");
});

test("contextOutput: a notice is a systemMessage on SessionStart only, with or without context", () => {
  assert.deepEqual(JSON.parse(contextOutput("SessionStart", "ctx", "update me")!), { systemMessage: "update me", hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "ctx" } });
  assert.deepEqual(JSON.parse(contextOutput("SessionStart", undefined, "update me")!), { systemMessage: "update me" });
  assert.deepEqual(JSON.parse(contextOutput("UserPromptSubmit", "ctx", "update me")!), { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "ctx" } });
  assert.equal(contextOutput("UserPromptSubmit", undefined, "update me"), undefined);
  assert.equal(contextOutput("SessionStart", undefined), undefined);
});
