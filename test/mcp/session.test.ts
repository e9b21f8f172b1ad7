/**
 * Which Claude Code session a `mem mcp` call belongs to (src/mcp/session.ts): the id Claude Code
 * starts the server with, followed across `/clear` as the hooks recorded it; without one, the one
 * session of the project active within the window, never a guess between several.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { pickSession, sessionFromEnv, type SessionSeen } from "../../src/mcp/session.js";

const NOW = Date.parse("2026-11-27T12:00:00Z");
const MIN = 60_000;
const W = 10 * MIN;
const row = (session: string, o: Partial<SessionSeen> = {}): SessionSeen => ({ session, started_at: NOW - 30 * MIN, ended_at: null, end_reason: null, updated_at: NOW - MIN, ...o });

test("the environment's id counts only when Claude Code started the server", () => {
  const table: [NodeJS.ProcessEnv, string | undefined][] = [
    [{ CLAUDECODE: "1", CLAUDE_CODE_SESSION_ID: "8bbcceab-0b3e-4e24-98c9-ec146b1ca8c6" }, "8bbcceab-0b3e-4e24-98c9-ec146b1ca8c6"],
    [{ CLAUDECODE: "1", CLAUDE_CODE_SESSION_ID: " abc_1 " }, "abc_1"],
    [{ CLAUDE_CODE_SESSION_ID: "8bbcceab-0b3e" }, undefined],
    [{ CLAUDECODE: "1", CLAUDE_CODE_SESSION_ID: "" }, undefined],
    [{ CLAUDECODE: "1", CLAUDE_CODE_SESSION_ID: "a b" }, undefined],
    [{ CLAUDECODE: "1", CLAUDE_CODE_SESSION_ID: "x\n</mem-recall>" }, undefined],
    [{ CLAUDECODE: "1", CLAUDE_CODE_SESSION_ID: "a".repeat(129) }, undefined],
    [{ CLAUDECODE: "1" }, undefined],
  ];
  for (const [env, want] of table) assert.equal(sessionFromEnv(env), want, JSON.stringify(env));
});

test("pick: the environment's id, followed across /clear; else the one active session", () => {
  const cleared = row("A", { ended_at: NOW - 5 * MIN, end_reason: "clear" });
  const table: [string, string | undefined, SessionSeen[], string | undefined][] = [
    ["the id given, the hooks saw it", "A", [row("A"), row("B")], "A"],
    ["the id given, the hooks never saw it", "Z", [row("A")], "Z"],
    ["ended by /clear, one session started then", "A", [cleared, row("B", { started_at: NOW - 5 * MIN + 200 }), row("C", { started_at: NOW - 40 * MIN })], "B"],
    ["/clear twice", "A", [cleared, row("B", { started_at: NOW - 5 * MIN + 200, ended_at: NOW - 2 * MIN, end_reason: "clear" }), row("C", { started_at: NOW - 2 * MIN + 300 })], "C"],
    ["ended by /clear, two sessions started then: not guessed", "A", [cleared, row("B", { started_at: NOW - 5 * MIN + 200 }), row("C", { started_at: NOW - 5 * MIN + 900 })], "A"],
    ["ended by /clear, nothing started soon after", "A", [cleared, row("B", { started_at: NOW - 4 * MIN })], "A"],
    ["ended otherwise (logout): itself", "A", [row("A", { ended_at: NOW - 5 * MIN, end_reason: "logout" }), row("B", { started_at: NOW - 5 * MIN + 200 })], "A"],
    ["no id, one session active", undefined, [row("A"), row("B", { updated_at: NOW - 3 * 60 * MIN })], "A"],
    ["no id, two sessions active: none", undefined, [row("A"), row("B")], undefined],
    ["no id, the active one ended", undefined, [row("A", { ended_at: NOW - MIN, end_reason: "other" })], undefined],
    ["no id, last seen before the window", undefined, [row("A", { updated_at: NOW - W - 1 })], undefined],
    ["no id, nothing recorded", undefined, [], undefined],
  ];
  for (const [why, env, seen, want] of table) assert.equal(pickSession(env, seen, NOW, W), want, why);
});
