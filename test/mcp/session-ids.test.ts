/**
 * The MCP `list` and `forget` tools take a session id as the tools show it: whole, as the short
 * form (`8bbcceab…a8c6`), or by a unique start; an ambiguous one is refused listing the sessions,
 * an unknown one is `not_found` and forgets nothing. A real `mem mcp` child on a temporary store.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { openApp } from "../../src/app.js";
import { MemoryService } from "../../src/service/memory.js";
import { resolveProject } from "../../src/project/identity.js";
import { serverEnv } from "../helpers/mcp-env.js";
import { BIN } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-mcp-sessions-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const LONG = "8bbcceab-0b3e-4e24-98c9-ec146b1ca8c6";
const TWIN = "8bbcceab-1111-4e24-98c9-ec146b1c0000";

type Result = { isError?: boolean; content: { text: string }[]; structuredContent?: { memories?: { session: string; text: string }[]; count?: number; session?: string; error?: { code: string; message: string } } };

test("MCP list and forget: a session by its whole id, its short form or a unique start; else a clear error", async () => {
  const proj = join(tmp, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  const home = join(tmp, "home");
  const app = openApp({ MEM_HOME: home, HOME: tmp, MEM_EMBED_ORDER: "none" });
  try {
    const svc = new MemoryService({ db: app.db, config: app.config, projectRoot: app.projectRoot });
    const project = resolveProject(proj).id;
    svc.put({ project, session: LONG, text: "Migrations run before the deploy, never after.", kind: "decision" });
    svc.put({ project, session: TWIN, text: "The lint step runs on every push.", kind: "learned" });
  } finally {
    await app.close();
  }
  const client = new Client({ name: "session-ids-test", version: "1" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp", "-q"], env: serverEnv(tmp, home, proj), cwd: proj, stderr: "pipe" }));
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result;
  try {
    for (const session of [LONG, "8bbcceab…a8c6", "8bbcceab-0b3e"]) {
      const r = await call("list", { session });
      assert.equal(r.isError, undefined, `${session}: ${r.content[0]?.text}`);
      assert.deepEqual(r.structuredContent!.memories!.map((m) => m.text), ["Migrations run before the deploy, never after."], session);
    }
    const amb = await call("list", { session: "8bbcceab" });
    assert.equal(amb.isError, true);
    assert.equal(amb.structuredContent!.error!.code, "bad_argument");
    assert.match(amb.structuredContent!.error!.message, /ambiguous: it matches 2 sessions: 8bbcceab…a8c6, 8bbcceab…0000/);
    const none = await call("forget", { session: "feedfacecafe" });
    assert.equal(none.isError, true);
    assert.deepEqual([none.structuredContent!.error!.code, none.structuredContent!.error!.message], ["not_found", "no session feedfacecafe in this project"]);
    const done = await call("forget", { session: "8bbcceab…0000" });
    assert.equal(done.isError, undefined, done.content[0]?.text);
    assert.deepEqual([done.structuredContent!.session, done.structuredContent!.count], [TWIN, 1]);
    assert.deepEqual((await call("list", {})).structuredContent!.memories!.map((m) => m.session), [LONG]);
  } finally {
    await client.close();
  }
});
