/**
 * A repository's decision records through MCP (the official SDK client, a real `mem mcp` child):
 * the `list` tool shows each record with its status, date and authors, as `mem list` does, and
 * its kind filter finds them.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { serverEnv } from "../helpers/mcp-env.js";
import { BIN, cleanEnv, runMem, show } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-mcp-records-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("MCP list shows a decision record with its status, date and authors; a superseded one with its successor", async () => {
  const repo = join(tmp, "repo");
  mkdirSync(join(repo, "docs", "adr"), { recursive: true });
  execFileSync("git", ["init", "-q", repo]);
  writeFileSync(join(repo, "docs", "adr", "0001-pg.md"), "---\nstatus: accepted\ndate: 2025-03-01\ndecision-makers: Alice, Bob\n---\n# Use PostgreSQL for orders\n");
  writeFileSync(join(repo, "docs", "adr", "0002-mongo.md"), "---\nstatus: superseded by ADR-0001\ndate: 2024-01-01\n---\n# Use MongoDB for orders\n");
  const home = join(tmp, "home");
  const idx = await runMem(["index", "docs"], { env: { ...cleanEnv(join(tmp, "claude")), HOME: tmp, MEM_HOME: home }, cwd: repo });
  assert.equal(idx.code, 0, show(idx));
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], env: serverEnv(tmp, home, repo), cwd: repo, stderr: "pipe" });
  const client = new Client({ name: "mem-records-test", version: "1" });
  await client.connect(transport);
  try {
    const text = async (a: Record<string, unknown>) => ((await client.callTool({ name: "list", arguments: a })) as { content: { text: string }[] }).content.map((c) => c.text).join("\n");
    const decisions = await text({ kind: "decision" });
    assert.match(decisions, /Use PostgreSQL for orders.*\(team record: accepted, 2025-03-01, by Alice, Bob\)/);
    assert.doesNotMatch(decisions, /MongoDB/);
    assert.match(await text({ kind: "superseded" }), /Use MongoDB for orders.*\(team record: superseded by adr-0001, 2024-01-01\)/);
  } finally {
    await client.close();
  }
});
