/**
 * What the model is shown says when a memory is possibly outdated: the prompt's memories carry the
 * flag beside their provenance, and the SessionStart briefing beside the decision (hooks spawned as
 * Claude Code spawns them, in a real git repository).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { spawnHook } from "../hooks/helpers.js";
import { envOf, makeRepo, say, type Session } from "./scenario.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-shown-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
const context = (stdout: string) => (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;

describe("the model is told a memory may be outdated", () => {
  test("a decision about a file changed since: flagged in the briefing; about a file deleted since: flagged in the prompt's memories", async () => {
    const repo = makeRepo(join(tmp, "repo"), { "src/rate.ts": "export const limit = 10;\n", "src/old.ts": "export {};\n" });
    const s: Session = { home: tmp, repo, id: "sess-1", transcript: join(tmp, "t.jsonl") };
    await say(s, [
      { text: "[MEMORY: decision] Keep the rate limit in src/rate.ts at ten requests a second for the public API.", time: Date.now() },
      { text: "[MEMORY: learned] The legacy retry loop in src/old.ts swallows timeouts from the payment gateway.", time: Date.now() },
    ]);
    writeFileSync(join(repo, "src/rate.ts"), "export const limit = 50;\n");
    const twoDays = (Date.now() - 2 * 86_400_000) / 1000;
    utimesSync(join(repo, "src/rate.ts"), twoDays, twoDays);
    unlinkSync(join(repo, "src/old.ts"));

    const start = await spawnHook("session-start", JSON.stringify({ session_id: "sess-2", cwd: repo, hook_event_name: "SessionStart", source: "startup" }), { ...envOf(s), MEM_NO_DAEMON: "1" });
    assert.match(context(start.stdout), /- Keep the rate limit in src\/rate\.ts at ten requests a second for the public API\. \([^)]*\) \[possibly outdated: src\/rate\.ts changed 2 days ago\]/);

    const prompt = await spawnHook("user-prompt-submit", JSON.stringify({ session_id: "sess-3", cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "why does the payment gateway retry loop swallow timeouts" }), { ...envOf(s), MEM_NO_DAEMON: "1" });
    assert.match(context(prompt.stdout), /- \[[0-9a-f]{12} · learned · session of \d{4}-\d{2}-\d{2}\] \[possibly outdated: src\/old\.ts deleted\] The legacy retry loop/);
  });
});
