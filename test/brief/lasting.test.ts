/**
 * Memory that lasts, end to end through spawned hooks: a decision survives a later session of 400
 * tool calls; a decision captured again is reinforced, not doubled; the last session's summary and
 * the files in play reach the next briefing.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { eventChunkId } from "../../indexer/captured.js";
import { openDb } from "../../src/store/db.js";
import { hasCommand } from "../helpers/has-command.js";
import { cleanEnv } from "../helpers/mem-cli.js";
import { spawnHook } from "../hooks/helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-lasting-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const T0 = Date.parse("2026-11-20T09:00:00Z");
const at = (min: number) => new Date(T0 + min * 60_000).toISOString();
const line = (type: "user" | "assistant", session: string, time: string, content: unknown[]) => JSON.stringify({ type, sessionId: session, timestamp: time, message: { role: type, content } });
const say = (session: string, time: string, text: string) => line("assistant", session, time, [{ type: "text", text }]);
const ask = (session: string, time: string, text: string) => line("user", session, time, [{ type: "text", text }]);
function bash(session: string, time: string, id: string, command: string, ok = true): string[] {
  return [
    line("assistant", session, time, [{ type: "tool_use", id, name: "Bash", input: { command } }]),
    line("user", session, time, [{ type: "tool_result", tool_use_id: id, content: ok ? "ok" : "Exit code 1\nFAIL", ...(ok ? {} : { is_error: true }) }]),
  ];
}
const briefing = (stdout: string) => (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;

describe("memory that lasts", () => {
  const proj = join(tmp, "proj");
  const home = join(tmp, "home");
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp };
  mkdirSync(join(proj, ".git"), { recursive: true });

  async function stop(session: string, lines: string[]): Promise<void> {
    const transcript = join(tmp, `${session}.jsonl`);
    writeFileSync(transcript, `${lines.join("\n")}\n`);
    const r = await spawnHook("stop", JSON.stringify({ session_id: session, cwd: proj, transcript_path: transcript, hook_event_name: "Stop", stop_hook_active: false }), env);
    assert.equal(r.code, 0, r.stderr);
  }

  test("a decision of an earlier session survives a later session of 400 tool calls; a decision captured again is reinforced, shown once", async () => {
    await stop("sess-a", [
      ask("sess-a", at(0), "Should the store be SQLite or Postgres? Let us settle it."),
      say("sess-a", at(1), "[MEMORY: decision] Chose SQLite over Postgres for the metadata store: no server to run on a laptop."),
      say("sess-a", at(2), "[MEMORY: rejected] Rejected Elasticsearch for BM25: a JVM on every developer machine is too heavy."),
      ...bash("sess-a", at(3), "toolu_a1", "npm test"),
    ]);
    const busy = [ask("sess-b", at(60), "Run the whole migration suite and fix what breaks.")];
    for (let i = 0; i < 400; i++) busy.push(...bash("sess-b", at(61 + i / 10), `toolu_b${i}`, `npm run migrate -- --step ${i}`));
    busy.push(say("sess-b", at(110), "We chose SQLite over Postgres for the metadata store because there is no server to run on a laptop."));
    await stop("sess-b", busy);

    const r = await spawnHook("session-start", JSON.stringify({ session_id: "sess-c", cwd: proj, hook_event_name: "SessionStart", source: "startup" }), env);
    assert.equal(r.code, 0, r.stderr);
    const text = briefing(r.stdout);
    assert.match(text, /## Decisions\n- Chose SQLite over Postgres for the metadata store: no server to run on a laptop\./, "the earlier session's decision is there");
    assert.equal(text.match(/SQLite over Postgres/g)?.length, 1, `captured again in the later session: one decision, not two:\n${text}`);
    assert.match(text, /## Rejected approaches\n- Rejected Elasticsearch/);
    assert.match(text, /## Last session \(last active /);
    assert.match(text, /- Goal: “Run the whole migration suite and fix what breaks\.”/);

    const db = openDb(join(home, "mem.sqlite"), { readonly: true });
    const id = db.prepare("SELECT id FROM events WHERE type = 'decision' AND session = 'sess-a'").pluck().get() as string;
    const use = db.prepare("SELECT salience, uses FROM salience WHERE chunk_id = ?").get(eventChunkId(proj, id)) as { salience: number; uses: number } | undefined;
    db.close();
    assert.deepEqual(use && { s: use.salience, uses: use.uses }, { s: 1, uses: 1 }, "the original was reinforced by its confirmation");
  });

  test("a session that failed and then fixed a command, and the files in play on the branch", { skip: !hasCommand("git") && "git not available" }, async () => {
    const repo = join(tmp, "repo");
    mkdirSync(join(repo, "src"), { recursive: true });
    const git = (...args: string[]) => execFileSync("git", ["-C", repo, ...args], { stdio: "ignore", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@x", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@x" } });
    git("init", "-q", "-b", "feature/wal");
    writeFileSync(join(repo, "src", "db.ts"), "export const mode = 'wal';\n");
    git("add", ".");
    git("commit", "-q", "-m", "init");
    writeFileSync(join(repo, "src", "db.ts"), "export const mode = 'delete';\n"); // changed in the working tree
    const transcript = join(tmp, "sess-d.jsonl");
    writeFileSync(transcript, `${[
      ask("sess-d", at(200), "Make the flaky db test pass."),
      ...bash("sess-d", at(201), "toolu_d1", "npm test", false),
      line("assistant", "sess-d", at(202), [{ type: "tool_use", id: "toolu_d2", name: "Edit", input: { file_path: join(repo, "src", "db.ts"), old_string: "a", new_string: "b" } }]),
      line("user", "sess-d", at(202), [{ type: "tool_result", tool_use_id: "toolu_d2", content: "ok" }]),
      say("sess-d", at(203), "[MEMORY: learned] The busy timeout in `src/db.ts` must stay at five seconds or the hooks time out."),
      ...bash("sess-d", at(204), "toolu_d3", "npm test"),
    ].join("\n")}\n`);
    const envR = { ...env, MEM_HOME: join(tmp, "home-repo") };
    assert.equal((await spawnHook("stop", JSON.stringify({ session_id: "sess-d", cwd: repo, transcript_path: transcript, hook_event_name: "Stop", stop_hook_active: false }), envR)).code, 0);
    const r = await spawnHook("session-start", JSON.stringify({ session_id: "sess-e", cwd: repo, hook_event_name: "SessionStart", source: "startup" }), envR);
    const text = briefing(r.stdout);
    assert.match(text, /- Fixed \(failed, then passed\): \$ npm test/);
    assert.match(text, /- Changed: src\/db\.ts/);
    assert.match(text, /## About the files in play \(branch feature\/wal, 1 changed file\(s\), 1 edited recently\)\n- The busy timeout in `src\/db\.ts` must stay at five seconds or the hooks time out\. \(learned, \d+ d ago; src\/db\.ts\)\n- Files: src\/db\.ts \(changed, edited \d+ d ago\)\n/);
  });
});
