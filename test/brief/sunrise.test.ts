/**
 * Sunrise from what the session did, end to end through spawned hooks, a real store and a real
 * git repository: the files in play come from git's working tree, from the branch's own commits
 * and from the Edits captured in recent sessions; the branch is named; the decisions about those
 * files come first.
 */
import assert from "node:assert/strict";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { git } from "../helpers/git.js";
import { hasCommand } from "../helpers/has-command.js";
import { cleanEnv } from "../helpers/mem-cli.js";
import { makeRepo } from "../anchor/scenario.js";
import { spawnHook } from "../hooks/helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-sunrise-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const ago = (min: number) => new Date(Date.now() - min * 60_000).toISOString();
const line = (type: "user" | "assistant", session: string, time: string, content: unknown[]) => JSON.stringify({ type, sessionId: session, timestamp: time, message: { role: type, content } });
const say = (session: string, time: string, text: string) => line("assistant", session, time, [{ type: "text", text }]);
const briefing = (stdout: string) => (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
const section = (text: string, title: RegExp) => {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => title.test(l));
  if (at < 0) return undefined;
  const end = lines.findIndex((l, i) => i > at && (l === "" || l.startsWith("## ") || l.startsWith("</")));
  return { at, title: lines[at]!, items: lines.slice(at + 1, end < 0 ? undefined : end) };
};

/** A project on `feature/es256` whose earlier session decided two things about src/auth.ts (and others about other files). */
async function project(name: string, opts: { edit?: boolean }): Promise<{ repo: string; env: NodeJS.ProcessEnv }> {
  const repo = makeRepo(join(tmp, name), { "src/auth.ts": "export const alg = 'HS256';\n", "src/db.ts": "export const mode = 'wal';\n", "README.md": "r\n" });
  const env = { ...cleanEnv(join(tmp, `${name}-claude`)), MEM_HOME: join(tmp, `${name}-home`), HOME: tmp, MEM_EMBED_ORDER: "none" };
  git(repo, "checkout", "-qb", "feature/es256");
  const s = "sess-1";
  const lines = [
    say(s, ago(300), "[MEMORY: decision] Tokens in src/auth.ts are signed with ES256: the verifying services hold only the public key."),
    say(s, ago(299), "[MEMORY: rejected] Rejected keeping HS256 in src/auth.ts: every service would hold the shared secret."),
    // Newer decisions about nothing in play: without the files in play they would be named first.
    ...Array.from({ length: 6 }, (_, i) => say(s, ago(200 - i), `[MEMORY: decision] Release note ${i}: the changelog lists user-facing changes only, grouped by area ${i}.`)),
  ];
  if (opts.edit) {
    lines.push(line("assistant", s, ago(100), [{ type: "tool_use", id: "toolu_e1", name: "Edit", input: { file_path: join(repo, "src/auth.ts"), old_string: "HS256", new_string: "ES256" } }]));
    lines.push(line("user", s, ago(100), [{ type: "tool_result", tool_use_id: "toolu_e1", content: "ok" }]));
  }
  const transcript = join(tmp, `${name}.jsonl`);
  writeFileSync(transcript, `${lines.join("\n")}\n`);
  const r = await spawnHook("stop", JSON.stringify({ session_id: s, cwd: repo, transcript_path: transcript, hook_event_name: "Stop", stop_hook_active: false }), env);
  assert.equal(r.code, 0, r.stderr);
  return { repo, env };
}

async function brief(repo: string, env: NodeJS.ProcessEnv): Promise<string> {
  const r = await spawnHook("session-start", JSON.stringify({ session_id: "sess-2", cwd: repo, hook_event_name: "SessionStart", source: "startup" }), env);
  assert.equal(r.code, 0, r.stderr);
  return briefing(r.stdout);
}

function assertAuthFirst(text: string, title: RegExp, files: string): void {
  const play = section(text, title);
  assert.ok(play, `the files in play are shown:\n${text}`);
  const [first, second] = [...play.items.slice(0, 2)].sort(); // both of rank one, newest first
  assert.match(second!, /^- Tokens in src\/auth\.ts are signed with ES256: .* \(decision, 5 h ago; src\/auth\.ts\)( \[.*\])?$/);
  assert.match(first!, /^- Rejected keeping HS256 in src\/auth\.ts: .* \(rejected, 5 h ago; src\/auth\.ts\)( \[.*\])?$/);
  assert.equal(play.items.at(-1), files);
  assert.ok(play.items.every((l) => !l.includes("Release note")), "nothing about other files");
  const decisions = section(text, /^## Decisions/);
  assert.ok(decisions && decisions.at > play.at, "named before the other decisions");
  assert.equal(text.split("Tokens in src/auth.ts are signed with ES256").length - 1, 1, `the decision about the file is named once:\n${text}`);
  assert.equal(text.split("Rejected keeping HS256").length - 1, 1, "and the rejected approach");
}

describe("sunrise: the files in play and the decisions about them first", { skip: !hasCommand("git") && "git not available" }, () => {
  test("src/auth.ts modified on feature/es256: the file, the branch and both decisions, first", async () => {
    const { repo, env } = await project("es256", {});
    writeFileSync(join(repo, "src/auth.ts"), "export const alg = 'ES256';\n");
    const text = await brief(repo, env);
    assertAuthFirst(text, /^## About the files in play \(branch feature\/es256, 1 changed file\(s\)\)$/, "- Files: src/auth.ts (changed)");
  });

  test("committed on the branch, the working tree clean: the branch's own changes are in play", async () => {
    const { repo, env } = await project("committed", {});
    writeFileSync(join(repo, "src/auth.ts"), "export const alg = 'ES256';\n");
    git(repo, "commit", "-qam", "ES256");
    const text = await brief(repo, env);
    assertAuthFirst(text, /^## About the files in play \(branch feature\/es256, 1 changed on the branch\)$/, "- Files: src/auth.ts (on the branch)");
  });

  test("nothing changed in git, but the last session edited src/auth.ts: its captured Edit puts the file in play", async () => {
    const { repo, env } = await project("edited", { edit: true });
    git(repo, "checkout", "-q", "main");
    const text = await brief(repo, env);
    assertAuthFirst(text, /^## About the files in play \(branch main, 1 edited recently\)$/, "- Files: src/auth.ts (edited 2 h ago)");
  });

  test("nothing in play: no such section", async () => {
    const { repo, env } = await project("quiet", {});
    git(repo, "checkout", "-q", "main");
    assert.equal(section(await brief(repo, env), /^## About the files in play/), undefined);
  });
});
