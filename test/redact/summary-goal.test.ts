/**
 * The review's incident: a secret in prose after its key id ("the key id is AKIA… and the secret is …") was the
 * session's first prompt, got stored in its summary and was briefed to the next session as its "Goal:". The
 * prompts that become a goal (a dotted password, a label before an assignment, a URL-encoded command) are
 * stored redacted, and the next session's briefing shows the goal with its secrets replaced.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { hook } from "../hooks/helpers.js";
import { B64, rand } from "../helpers/secrets.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-goal-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)]));

test("a secret in the first prompts is not stored in the session summary nor briefed as its goal", { timeout: 60_000 }, async () => {
  const project = join(tmp, "proj");
  mkdirSync(join(project, ".git"), { recursive: true });
  const env = { MEM_HOME: join(tmp, "home"), HOME: tmp, MEM_EMBED_ORDER: "none" };
  const keyId = `AKIA${rand(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")}`;
  const secret = rand(40, B64);
  const dotted = `${rand(6)}.${rand(5)}`;
  const encoded = rand(12);
  const prompts = [
    `Set up the deploy user: the key id is ${keyId} and the secret is ${secret}, then run the pipeline.`,
    `Also the db, the key: DB_PASSWORD=${dotted} — and check /run?cmd=mysql+-u+root+-p${encoded}+shop works`,
  ];
  const session = "s-goal";
  const transcript = join(tmp, "t.jsonl");
  writeFileSync(
    transcript,
    `${prompts.map((p, i) => JSON.stringify({ type: "user", sessionId: session, timestamp: `2026-11-22T10:0${i}:00Z`, message: { role: "user", content: p } })).join("\n")}\n`,
  );
  const base = { session_id: session, cwd: project, transcript_path: transcript };
  for (const p of prompts) await hook("user-prompt-submit", { ...base, hook_event_name: "UserPromptSubmit", prompt: p }, env);
  await hook("post-tool-use", { ...base, hook_event_name: "PostToolUse", tool_name: "Edit", tool_use_id: "toolu_1", tool_input: { file_path: join(project, "deploy.yml"), old_string: "a", new_string: "b" }, tool_response: {} }, env);
  await hook("stop", { ...base, hook_event_name: "Stop", stop_hook_active: false }, env);
  const brief = await hook("session-start", { session_id: "next", cwd: project, hook_event_name: "SessionStart", source: "startup" }, env);

  assert.match(brief.stdout, /Goal:/, "the next session is briefed with the last one's goal");
  assert.match(brief.stdout, /REDACTED:/);
  const stored = filesUnder(env.MEM_HOME).map((f) => readFileSync(f));
  for (const s of [keyId, secret, secret.slice(4, 20), dotted, encoded]) {
    assert.ok(!brief.stdout.includes(s), `briefed: ${s}`);
    assert.ok(!stored.some((b) => b.includes(s)), `stored: ${s}`);
  }
});
