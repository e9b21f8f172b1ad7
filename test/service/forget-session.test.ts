/**
 * Forgetting a session clears its records (task list, summary, transcript path) in its own
 * project only, and matches its id exactly: another project's session of the same id, a session
 * whose id merely starts the same, and (for `%` or `_`, once LIKE patterns) every session are left
 * alone; the session's own subagents (`<session>/agent-<id>`) go with it. Real SQLite; then
 * `mem forget --session` and the MCP `forget` tool through spawned processes on the same store.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { openApp } from "../../src/app.js";
import { forgetSession } from "../../src/service/forget.js";
import { serverEnv } from "../helpers/mcp-env.js";
import { BIN, cleanEnv, runMem, show } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-forget-sess-")));
after(() => rmSync(tmp, { recursive: true, force: true }));
const A = join(tmp, "alpha");
const B = join(tmp, "beta");
for (const p of [A, B]) mkdirSync(join(p, ".git"), { recursive: true });

const SESSIONS: [string, string][] = [
  ["s1", A],
  ["s1/agent-7", A],
  ["s1/agent-", A],
  ["s10", A],
  ["s1/agentx-1", A],
  ["a%b", A],
  ["a_b", A],
  ["axb", A],
  ["s2", B],
  ["s1-b", B],
  ["sB/agent-1", B],
];

function seeded(home: string) {
  const app = openApp({ MEM_HOME: home, HOME: tmp, MEM_EMBED_ORDER: "none" });
  const ins = app.db.prepare("INSERT INTO sessions (session, project, transcript_path, task_state, summary, updated_at) VALUES (?, ?, ?, '{\"t\":1}', 'sum', 1)");
  for (const [s, p] of SESSIONS) ins.run(s, p, `/t/${s}.jsonl`);
  return app;
}

const kept = (app: ReturnType<typeof openApp>) => (app.db.prepare("SELECT session FROM sessions WHERE transcript_path IS NOT NULL ORDER BY session").pluck().all() as string[]);
const all = SESSIONS.map(([s]) => s).sort();
const without = (...gone: string[]) => all.filter((s) => !gone.includes(s));

test("forgetSession: its project's record and its subagents', the id matched exactly (table)", async () => {
  const rows: [project: string, session: string, cleared: string[]][] = [
    [A, "s1", ["s1", "s1/agent-7"]],
    [A, "%", []],
    [A, "_", []],
    [A, "a%b", ["a%b"]],
    [A, "a_b", ["a_b"]],
    [A, "s", []],
    [A, "s2", []], // B's session, forgotten from A
    [A, "sB", []],
    [B, "s1", []], // A's session, forgotten from B
    [B, "sB", ["sB/agent-1"]],
  ];
  for (const [i, [project, session, cleared]] of rows.entries()) {
    const app = seeded(join(tmp, `h${i}`));
    try {
      forgetSession(app.db, project, session, Date.parse("2026-11-27T12:00:00Z"));
      assert.deepEqual(kept(app), without(...cleared), `${project} ${session}`);
    } finally {
      await app.close();
    }
  }
});

test("mem forget --session % and the MCP forget tool with session % in alpha: refused (no such session), beta's records left", async () => {
  const home = join(tmp, "h-cli");
  await seeded(home).close();
  const env = { ...cleanEnv(join(tmp, "claude")), HOME: tmp, MEM_HOME: home };
  // Neither is a session of alpha: refused, said, nothing forgotten.
  for (const [s, code, says] of [["%", 1, /no session % in this project/], ["s2", 1, /no session s2 in this project/]] as const) {
    const r = await runMem(["forget", "--session", s], { env, cwd: A });
    assert.equal(r.code, code, show(r));
    assert.match(r.stderr, says);
  }
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp", "-q"], env: serverEnv(tmp, home, A), cwd: A, stderr: "pipe" });
  const client = new Client({ name: "forget-test", version: "1" });
  await client.connect(transport);
  try {
    for (const s of ["%", "s2", "%/agent-%"]) {
      const r = (await client.callTool({ name: "forget", arguments: { session: s } })) as { isError?: boolean; structuredContent?: { error?: { code: string } } };
      assert.equal(r.isError, true, s);
      assert.match(r.structuredContent?.error?.code ?? "", /^(bad_argument|not_found)$/, s);
    }
  } finally {
    await client.close();
  }
  const app = openApp({ MEM_HOME: home, HOME: tmp, MEM_EMBED_ORDER: "none" });
  try {
    assert.deepEqual(kept(app), all, "no session record touched");
  } finally {
    await app.close();
  }
});
