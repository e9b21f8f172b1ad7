/**
 * After an upgrade, the hooks an older mem installed stay until `mem install` runs again: the
 * SessionStart hook says so to the user (`systemMessage`, never the model's context), at most once
 * a day, and says nothing once the hooks are what this mem installs. Real hook processes.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { installToFile } from "../../src/install/files.js";
import { contextOutput } from "../../src/contract/hook.cjs";
import { installNudge, nudgeStamp, predatesHookClient } from "../../src/hooks/install-nudge.js";
import { BIN, cleanEnv, REPO, runMem, show } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-nudge-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("hooks of an older install: SessionStart tells the user once a day how to update them; nothing once they are current, nor for hooks taken out or another CA environment", async () => {
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
  assert.match(first.systemMessage ?? "", new RegExp(`^mem: the hooks in ${join(home, ".claude", "settings.json")} are an older mem's: each prompt, tool call and stop starts Node .*Run \`mem install --scope user\` to update them`));
  assert.match(first.hookSpecificOutput?.additionalContext ?? "", /Deploys freeze in December/, "the briefing as ever");
  assert.doesNotMatch(first.hookSpecificOutput?.additionalContext ?? "", /mem install/, "the model is not told");
  assert.equal((await start()).systemMessage, undefined, "once a day");
  utimesSync(nudgeStamp(memHome), new Date(Date.now() - 25 * 3600_000), new Date(Date.now() - 25 * 3600_000));
  assert.match((await start()).systemMessage ?? "", /mem install --scope user/, "a day later, again");

  const inst = await runMem(["install", "--scope", "user", "--no-mcp"], { env, cwd: proj });
  assert.equal(inst.code, 0, show(inst));
  rmSync(nudgeStamp(memHome));
  assert.equal((await start()).systemMessage, undefined, "current hooks: nothing to say");

  // Installed from a shell with NODE_EXTRA_CA_CERTS, run by a Claude Code without it: nothing that
  // `mem install` would change, so nothing to say.
  installToFile({ scope: "user", where: { env, cwd: proj }, target: { node: process.execPath, bin: BIN, caWrapper: join(REPO, "bin", "mem-hook.sh") } });
  rmSync(nudgeStamp(memHome));
  assert.equal((await start()).systemMessage, undefined, "the CA wrapper's install");
  // Hooks the user took out on purpose are not reported either.
  const file = join(home, ".claude", "settings.json");
  const settings = JSON.parse(readFileSync(file, "utf8")) as { hooks: Record<string, unknown> };
  delete settings.hooks.PostToolUse;
  delete settings.hooks.PostToolUseFailure;
  writeFileSync(file, JSON.stringify(settings));
  rmSync(nudgeStamp(memHome));
  assert.equal((await start()).systemMessage, undefined, "capture turned off by hand");

  // An older install in the project's settings, seen from a subdirectory: that scope is named.
  installToFile({ scope: "project", where: { env, cwd: proj }, target: { node: process.execPath, bin: BIN } });
  mkdirSync(join(proj, "src"), { recursive: true });
  rmSync(nudgeStamp(memHome));
  const sub = await runMem(["hook", "session-start"], { env, cwd: join(proj, "src"), input: JSON.stringify({ session_id: "s2", cwd: join(proj, "src"), hook_event_name: "SessionStart", source: "startup" }) });
  const notice = (JSON.parse(sub.stdout) as { systemMessage?: string }).systemMessage ?? "";
  assert.match(notice, new RegExp(`the hooks in ${join(proj, ".claude", "settings.json")} are an older mem's.*Run \`mem install --scope project\``));
  // A resume, a /clear or a compaction says nothing (a session's start only).
  rmSync(nudgeStamp(memHome));
  const resumed = await runMem(["hook", "session-start"], { env, cwd: proj, input: JSON.stringify({ session_id: "s3", cwd: proj, hook_event_name: "SessionStart", source: "resume", transcript_path: "/nonexistent" }) });
  assert.doesNotMatch(resumed.stdout, /systemMessage/);
});

test("contextOutput: a notice is a systemMessage on SessionStart only, with or without context", () => {
  assert.deepEqual(JSON.parse(contextOutput("SessionStart", "ctx", "update me")!), { systemMessage: "update me", hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "ctx" } });
  assert.deepEqual(JSON.parse(contextOutput("SessionStart", undefined, "update me")!), { systemMessage: "update me" });
  assert.deepEqual(JSON.parse(contextOutput("UserPromptSubmit", "ctx", "update me")!), { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "ctx" } });
  assert.equal(contextOutput("UserPromptSubmit", undefined, "update me"), undefined);
  assert.equal(contextOutput("SessionStart", undefined), undefined);
});

test("predatesHookClient: a hot hook that names no mem-hook.sh; hand-written shapes through the script are not", () => {
  const settings = (handler: Record<string, unknown>) => ({ hooks: { Stop: [{ hooks: [{ type: "command", timeout: 10, ...handler }] }] } });
  const bin = "/opt/mem/bin/mem.cjs";
  assert.equal(predatesHookClient(settings({ command: "/usr/bin/node", args: [bin, "hook", "stop"] })), true, "Node directly: older");
  assert.equal(predatesHookClient(settings({ command: "/bin/sh", args: ["/opt/mem/bin/mem-hook.sh", "/usr/bin/node", bin, "hook", "stop"] })), false);
  assert.equal(predatesHookClient(settings({ command: "sh", args: ["/opt/mem/bin/mem-hook.sh", "/usr/bin/node", bin, "hook", "stop"] })), false, "another sh");
  assert.equal(predatesHookClient(settings({ command: `/bin/sh /opt/mem/bin/mem-hook.sh /usr/bin/node ${bin} hook stop` })), false, "one command string");
  assert.equal(predatesHookClient({ hooks: { SessionStart: [{ hooks: [{ type: "command", command: "/usr/bin/node", args: [bin, "hook", "session-start"], timeout: 10 }] }] } }), false, "a cold hook runs Node as ever");
  assert.equal(predatesHookClient({}), false);
});

test("the day's stamp is private (0600) whatever the umask, and never written through a link", { skip: process.platform === "win32" && "modes are POSIX" }, () => {
  const memHome = join(tmp, "stamp-home");
  mkdirSync(memHome, { recursive: true, mode: 0o700 });
  const was = process.umask(0o022);
  try {
    installNudge({ env: { HOME: tmp }, cwd: tmp, home: memHome, now: Date.now() });
  } finally {
    process.umask(was);
  }
  assert.equal(statSync(nudgeStamp(memHome)).mode & 0o777, 0o600);
  // A link planted where the stamp goes: not followed (the check is skipped, its target untouched).
  rmSync(nudgeStamp(memHome));
  const target = join(tmp, "stamp-target");
  writeFileSync(target, "untouched\n");
  const old = new Date(Date.now() - 2 * 24 * 3600_000); // a check is due
  utimesSync(target, old, old);
  symlinkSync(target, nudgeStamp(memHome));
  assert.equal(installNudge({ env: { HOME: tmp }, cwd: tmp, home: memHome, now: Date.now() }), undefined);
  assert.equal(readFileSync(target, "utf8"), "untouched\n");
});
