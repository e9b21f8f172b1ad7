/**
 * Reinforcement from real use: a memory the model fetched with MCP `get` (official SDK client, a
 * real `mem mcp` child), or whose anchored file the session edited after it was shown (real hook
 * runs: the prompt hook, then PostToolUse of an Edit), is reinforced. Being shown alone (MCP
 * search, the prompt's memories) never is, and an edit reinforces once per showing.
 */
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { hook } from "../hooks/helpers.js";
import { serverEnv } from "../helpers/mcp-env.js";
import { BIN, cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-real-use-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Each memory's recorded uses, by a word of its text (0: never used). */
function uses(home: string, word: string): number {
  const db = new Database(join(home, "mem.sqlite"), { readonly: true });
  try {
    const n = db.prepare("SELECT coalesce(max(s.uses), 0) FROM chunks c LEFT JOIN salience s ON s.chunk_id = c.id WHERE c.text LIKE ?").pluck().get(`%${word}%`) as number;
    return n;
  } finally {
    db.close();
  }
}

function setup(name: string) {
  const proj = join(tmp, name, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(join(proj, "src"));
  writeFileSync(join(proj, "src", "auth.ts"), "export const ALG = 'ES256';\n");
  writeFileSync(join(proj, "src", "queue.ts"), "export const LOCKS = 'advisory';\n");
  const home = join(tmp, name, "home");
  const env = { ...cleanEnv(join(tmp, name, "claude")), MEM_HOME: home, HOME: tmp };
  return { proj, home, env };
}

describe("reinforcement from real use", () => {
  test("MCP get reinforces the memory fetched; MCP search does not", async () => {
    const { proj, home, env } = setup("get");
    const r = await runMem(["remember", "--kind", "decision", "Session tokens are signed with ES256 keys from the vault", "--json"], { env, cwd: proj });
    assert.equal(r.code, 0, show(r));
    const id = jsonOf<{ memory: { id: string } }>(r).memory.id;
    await runMem(["remember", "--kind", "learned", "The job queue takes advisory locks", "--json"], { env, cwd: proj });
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], env: serverEnv(tmp, home, proj), cwd: tmp, stderr: "pipe" });
    const client = new Client({ name: "mem-test", version: "1" });
    await client.connect(transport);
    try {
      const found = (await client.callTool({ name: "search", arguments: { query: "session tokens signed ES256" } })) as { structuredContent?: { results: { id: string }[] } };
      assert.ok(found.structuredContent!.results.some((x) => x.id === id));
      assert.equal(uses(home, "ES256"), 0, "a search shows; it does not use");
      const got = (await client.callTool({ name: "get", arguments: { id } })) as { structuredContent?: { memory: { id: string; uses?: number } }; isError?: boolean };
      assert.equal(got.isError, undefined);
      assert.equal(got.structuredContent!.memory.id, id);
      assert.equal(uses(home, "ES256"), 1, "fetched whole: used");
      assert.equal(got.structuredContent!.memory.uses, 1, "the answer says so");
      assert.equal(uses(home, "advisory"), 0, "the other memory is untouched");
      const missing = (await client.callTool({ name: "get", arguments: { id: "ffffffffffff" } })) as { isError?: boolean };
      assert.equal(missing.isError, true);
    } finally {
      await client.close();
    }
  });

  test("the session edits the anchored file of a memory shown to it: reinforced once per showing; shown alone, or edited by another session, not", async () => {
    const { proj, home, env } = setup("edit");
    const hookEnv = { MEM_HOME: home, HOME: tmp, MEM_EMBED_ORDER: "none" };
    assert.equal((await runMem(["remember", "--kind", "decision", "--files", "src/auth.ts", "Session tokens are signed with ES256 keys from the vault"], { env, cwd: proj })).code, 0);
    assert.equal((await runMem(["remember", "--kind", "decision", "--files", "src/queue.ts", "The job queue takes advisory locks on the jobs table"], { env, cwd: proj })).code, 0);
    const prompt = await hook("user-prompt-submit", { hook_event_name: "UserPromptSubmit", session_id: "sess-a", cwd: proj, prompt: "How are the session tokens signed, and does the job queue use advisory locks?" }, hookEnv);
    assert.equal(prompt.code, 0);
    const shown = JSON.parse(prompt.stdout).hookSpecificOutput.additionalContext as string;
    assert.match(shown, /ES256/);
    assert.match(shown, /advisory locks/);
    assert.deepEqual([uses(home, "ES256"), uses(home, "advisory")], [0, 0], "shown is not used");
    const edit = (session: string, toolUse: string, file: string) => hook("post-tool-use", { hook_event_name: "PostToolUse", session_id: session, cwd: proj, tool_name: "Edit", tool_use_id: toolUse, tool_input: { file_path: join(proj, file), old_string: "ES256", new_string: "ES384" }, tool_response: { filePath: join(proj, file) } }, hookEnv);
    // Another session edits the file: that session was shown nothing.
    assert.equal((await edit("sess-b", "toolu_b1", "src/auth.ts")).code, 0);
    assert.deepEqual([uses(home, "ES256"), uses(home, "advisory")], [0, 0]);
    // The session that was shown it edits its file: used.
    assert.equal((await edit("sess-a", "toolu_a1", "src/auth.ts")).code, 0);
    assert.deepEqual([uses(home, "ES256"), uses(home, "advisory")], [1, 0], "only the memory about the edited file");
    assert.equal((await edit("sess-a", "toolu_a2", "src/auth.ts")).code, 0);
    assert.equal(uses(home, "ES256"), 1, "once per showing, not once per edit");
  });
});
