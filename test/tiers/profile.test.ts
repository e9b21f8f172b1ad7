/**
 * A user's profile (`users/<id>/profile.md`), end to end on a real store: indexed as that user's,
 * briefed at SessionStart to that user only (spawned hooks, as Claude Code runs them), never put
 * before another user's prompt; an untouched template costs the briefing nothing.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { cleanText } from "../../src/redact/clean.cjs";
import { openDb } from "../../src/store/db.js";
import { restoreTier } from "../../src/store/restore.js";
import { hook, spawnHook } from "../hooks/helpers.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BIN, cleanEnv, runMem, show } from "../helpers/mem-cli.js";
import { serverEnv } from "../helpers/mcp-env.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-profile-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const proj = join(tmp, "proj");
const mem = join(proj, "memory");
const notes = join(tmp, "notes");
const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: join(tmp, "home"), HOME: tmp };

const briefingFor = async (user: string | undefined) => {
  const e: NodeJS.ProcessEnv = { ...env, ...(user ? { MEM_USER: user } : {}) };
  const r = await spawnHook("session-start", JSON.stringify({ session_id: `s-${user}`, cwd: proj, hook_event_name: "SessionStart", source: "startup" }), e);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout === "" ? "" : (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
};

describe("a user's profile", () => {
  before(async () => {
    mkdirSync(join(proj, ".git"), { recursive: true });
    for (const user of ["alice", "bob"]) {
      const r = await runMem(["init", mem, "-q", "--user", user], { env, cwd: proj });
      assert.equal(r.code, 0, show(r));
    }
    writeFileSync(join(mem, "users", "alice", "profile.md"), "# Profile: alice\n\nPrefers tabs over spaces. Answers in French, please.\n");
    writeFileSync(join(mem, "users", "bob", "profile.md"), "# Profile: bob\n\nPrefers spaces over tabs. Wants terse answers about tabs.\n");
    writeFileSync(join(mem, "state.md"), "# State\n\n## Now\nMigrating the store to WAL mode.\n");
    mkdirSync(join(notes, "users", "alice"), { recursive: true });
    writeFileSync(join(notes, "users", "alice", "profile.md"), "# Alice everywhere\n\nWorks in UTC; reviews in the morning.\n");
    for (const args of [["index", mem], ["index", notes, "--project", "global"]]) {
      const r = await runMem([...args, "-q"], { env, cwd: proj });
      assert.equal(r.code, 0, show(r));
    }
  });

  test("is indexed as that user's hot profile, kind preference", () => {
    const db = openDb(join(tmp, "home", "mem.sqlite"), { readonly: true });
    const rows = db.prepare("SELECT path, tier, kind, metadata FROM chunks WHERE path LIKE '%profile.md' ORDER BY path").all() as { path: string; tier: string; kind: string; metadata: string }[];
    db.close();
    const byPath = Object.fromEntries(rows.map((r) => [r.path.slice(tmp.length), { tier: r.tier, kind: r.kind, ...(JSON.parse(r.metadata) as object) }]));
    assert.deepEqual(byPath, {
      "/notes/users/alice/profile.md": { tier: "hot", kind: "preference", layout: "profile", user: "alice" },
      "/proj/memory/users/alice/profile.md": { tier: "hot", kind: "preference", layout: "profile", user: "alice" },
      "/proj/memory/users/bob/profile.md": { tier: "hot", kind: "preference", layout: "profile", user: "bob" },
    });
  });

  test("the SessionStart briefing shows the current user's profile, inside the frame, and no other user's", async () => {
    const alice = await briefingFor("alice");
    assert.match(alice, /<mem-briefing>\n[\s\S]*## The current user's profile \(alice\), from memory\/users\/alice\/profile\.md\n> # Profile: alice\n> Prefers tabs over spaces\. Answers in French, please\.\n[\s\S]*<\/mem-briefing>/);
    assert.match(alice, /## The current user's profile \(alice\), from \/.*\/notes\/users\/alice\/profile\.md \(your global memory\)\n> # Alice everywhere\n> Works in UTC/);
    assert.match(alice, /## From memory\/state\.md\n> # State\n> ## Now\n> Migrating the store to WAL mode\./);
    assert.doesNotMatch(alice, /bob|terse/i, "bob's profile is not in alice's briefing");
    assert.ok(alice.indexOf("current user's profile") < alice.indexOf("From memory/state.md"), "the profile comes before the other notes");

    const bob = await briefingFor("bob");
    assert.match(bob, /## The current user's profile \(bob\), from memory\/users\/bob\/profile\.md\n> # Profile: bob\n> Prefers spaces over tabs/);
    assert.doesNotMatch(bob, /alice|French|UTC/i, "neither of alice's profiles is in bob's briefing");
  });

  test("a user with no profile, or a user the hook cannot name, gets the notes but no profile", async () => {
    for (const user of ["carol", "../.."]) {
      const text = await briefingFor(user);
      assert.match(text, /## From memory\/state\.md/);
      assert.doesNotMatch(text, /profile|Prefers|UTC/, user);
    }
  });

  test("untouched templates (identity.md, references.md) are not briefed: only their comments and headings", async () => {
    const text = await briefingFor("alice");
    assert.doesNotMatch(text, /identity\.md|references\.md|Hot tier|<!--|‹!--/);
  });

  test("another user's profile is never put before this user's prompt; the user's own may be", async () => {
    const prompt = (user: string) => hook("user-prompt-submit", { session_id: `p-${user}-${Date.now()}`, cwd: proj, hook_event_name: "UserPromptSubmit", prompt: "which does the user prefer, tabs or spaces?" }, { ...env, MEM_USER: user });
    const context = (out: string) => (out === "" ? "" : (JSON.parse(out) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext);
    const forAlice = context((await prompt("alice")).stdout);
    assert.match(forAlice, /users\/alice\/profile\.md/, `alice's own profile is found:\n${forAlice}`);
    assert.doesNotMatch(forAlice, /users\/bob\/profile\.md|terse/);
    const forCarol = context((await prompt("carol")).stdout);
    assert.doesNotMatch(forCarol, /profile\.md|Prefers/, `nobody's profile for carol:\n${forCarol}`);
  });

  test("the MCP search (the model's) finds this user's profile and no other user's; mem query (the user's own) finds both", { timeout: 60_000 }, async () => {
    const search = async (user: string) => {
      const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], env: { ...serverEnv(tmp, join(tmp, "home"), proj), MEM_USER: user }, cwd: proj, stderr: "pipe" });
      const client = new Client({ name: "mem-test", version: "1" });
      await client.connect(transport);
      try {
        const r = (await client.callTool({ name: "search", arguments: { query: "prefers tabs spaces" } })) as { content: { type: string; text: string }[]; structuredContent: { results: { path?: string }[] } };
        return r.structuredContent.results.map((x) => x.path ?? "").filter((p) => p.endsWith("profile.md")).map((p) => p.slice(tmp.length));
      } finally {
        await client.close();
      }
    };
    assert.deepEqual(await search("alice"), ["/proj/memory/users/alice/profile.md"]);
    assert.deepEqual(await search("bob"), ["/proj/memory/users/bob/profile.md"]);
    assert.deepEqual(await search("carol"), []);
    const q = await runMem(["query", "prefers tabs spaces", "--json"], { env: { ...env, MEM_USER: "alice" }, cwd: proj });
    assert.equal(q.code, 0, show(q));
    const paths = (JSON.parse(q.stdout) as { results: { path: string }[] }).results.map((r) => r.path);
    assert.ok(paths.some((p) => p.endsWith("users/bob/profile.md")) && paths.some((p) => p.endsWith("users/alice/profile.md")), paths.join(", "));
  });
});

describe("a profile a repair re-indexed on its own (hot again, its layout unknown)", () => {
  test("is nobody's profile: not briefed as a note, not put before any prompt", async () => {
    const root = join(tmp, "loose");
    const p = join(root, "proj");
    const profile = join(p, "memory", "users", "bob", "profile.md");
    const e = { ...cleanEnv(join(root, "claude")), MEM_HOME: join(root, "home"), HOME: root };
    mkdirSync(join(p, "memory", "users", "bob"), { recursive: true });
    mkdirSync(join(p, ".git"));
    writeFileSync(profile, "# Profile: bob\n\nPrefers spaces over tabs. Wants terse answers about tabs.\n");
    writeFileSync(join(p, "memory", "state.md"), "# State\n\nShipping the hook.\n");
    const r = await runMem(["index", join(p, "memory", "state.md"), profile, "-q"], { env: e, cwd: p }); // files, no root: what a repair does without roots
    assert.equal(r.code, 0, show(r));
    const db = openDb(join(root, "home", "mem.sqlite"));
    restoreTier(db, cleanText(p), cleanText(profile), cleanText("hot")); // as src/maintenance/rebuild.ts does for such files
    restoreTier(db, cleanText(p), cleanText(join(p, "memory", "state.md")), cleanText("hot"));
    assert.deepEqual(db.prepare("SELECT DISTINCT tier, kind FROM chunks WHERE path = ?").all(profile), [{ tier: "hot", kind: "note" }]);
    db.close();
    for (const user of ["alice", "bob"]) {
      const b = await spawnHook("session-start", JSON.stringify({ session_id: `l-${user}`, cwd: p, hook_event_name: "SessionStart", source: "startup" }), { ...e, MEM_USER: user });
      const text = (JSON.parse(b.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
      assert.match(text, /## From memory\/state\.md/);
      assert.doesNotMatch(text, /profile|terse/, user);
      const q = await hook("user-prompt-submit", { session_id: `lq-${user}`, cwd: p, hook_event_name: "UserPromptSubmit", prompt: "which does the user prefer, tabs or spaces?" }, { ...e, MEM_USER: user });
      assert.doesNotMatch(q.stdout, /profile\.md|terse/, user);
    }
  });
});
