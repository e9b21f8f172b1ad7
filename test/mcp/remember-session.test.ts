/**
 * MCP `remember` carries its Claude Code session (src/mcp/session.ts), through the official SDK
 * client and a real `mem mcp` child: started as Claude Code starts it (CLAUDECODE=1,
 * CLAUDE_CODE_SESSION_ID), the memory is stored under that session and converges with the
 * session's edit of the file it is about; started without an id, it takes the one session the
 * hooks saw active, and none when two are.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { openApp } from "../../src/app.js";
import { captureToolPayload } from "../../src/capture/record.js";
import { resolveProject } from "../../src/project/identity.js";
import { cleanText } from "../../src/redact/clean.cjs";
import { eventChunkId } from "../../src/store/chunk-ids.js";
import { oneId } from "../../src/store/one-id.js";
import { serverEnv } from "../helpers/mcp-env.js";
import { BIN } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-mcp-session-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

type Result = { structuredContent?: { memory: { id: string; session: string | null; source: string } }; isError?: boolean; content: { text: string }[] };

/** The hooks' part: a PostToolUse of an Edit in `session`, captured into the store as the hook does. */
function hookEdit(home: string, proj: string, session: string, id: string, file: string): void {
  const app = openApp({ MEM_HOME: home, HOME: tmp, MEM_EMBED_ORDER: "none" });
  try {
    const project = cleanText(resolveProject(proj).id);
    captureToolPayload(app.db, project, { session_id: session, hook_event_name: "PostToolUse", tool_name: "Edit", tool_use_id: id, tool_input: { file_path: join(proj, file), old_string: "a", new_string: "b" }, tool_response: { ok: true } }, Date.now());
  } finally {
    app.close();
  }
}

async function remember(home: string, proj: string, extra: Record<string, string>, args: Record<string, unknown>): Promise<Result> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], env: { ...serverEnv(tmp, home, proj), ...extra }, cwd: tmp, stderr: "pipe" });
  const client = new Client({ name: "mem-test", version: "1" });
  await client.connect(transport);
  try {
    return (await client.callTool({ name: "remember", arguments: args })) as Result;
  } finally {
    await client.close();
  }
}

function links(home: string): { a: string; b: string; kind: string }[] {
  const app = openApp({ MEM_HOME: home, HOME: tmp, MEM_EMBED_ORDER: "none" });
  try {
    return app.db.prepare("SELECT a, b, kind FROM links").all() as { a: string; b: string; kind: string }[];
  } finally {
    app.close();
  }
}

test("started by Claude Code: the memory is the session's and converges with its edit", async () => {
  const home = join(tmp, "h1");
  const proj = join(tmp, "p1");
  mkdirSync(join(proj, ".git"), { recursive: true });
  const S = "8bbcceab-0b3e-4e24-98c9-ec146b1ca8c6";
  hookEdit(home, proj, S, "toolu_edit1", "src/auth.c");
  hookEdit(home, proj, "other-session", "toolu_edit2", "src/billing.c");
  const r = await remember(home, proj, { CLAUDECODE: "1", CLAUDE_CODE_SESSION_ID: S }, { text: "Fixed the authentication bug in src/auth.c: the token was compared before decoding", kind: "learned" });
  assert.ok(!r.isError, r.content[0]?.text);
  const m = r.structuredContent!.memory;
  assert.equal(m.session, S);
  const ls = links(home);
  assert.deepEqual(ls.map((l) => [l.b, l.kind]), [["toolu_edit1", "convergent"]], "converged with the session's edit, not the other session's");
  assert.equal(oneId(eventChunkId(resolveProject(proj).id, ls[0]!.a)), m.id, "the link is the remembered memory's (shown by its one id)");
});

test("no id from Claude Code: the one session active; none when two are", async () => {
  const home = join(tmp, "h2");
  const proj = join(tmp, "p2");
  mkdirSync(join(proj, ".git"), { recursive: true });
  hookEdit(home, proj, "only-one", "toolu_e1", "src/cache.c");
  const one = await remember(home, proj, {}, { text: "The cache is per request", kind: "learned" });
  assert.equal(one.structuredContent!.memory.session, "only-one");
  // A value in the user's shell without CLAUDECODE=1 is not a session.
  const shell = await remember(home, proj, { CLAUDE_CODE_SESSION_ID: "stale-from-shell" }, { text: "The cache is per user", kind: "learned" });
  assert.equal(shell.structuredContent!.memory.session, "only-one");
  hookEdit(home, proj, "second", "toolu_e2", "src/cache.c");
  const two = await remember(home, proj, {}, { text: "The cache is per tenant", kind: "learned" });
  assert.equal(two.structuredContent!.memory.session, null, "two sessions active: not guessed");
});
