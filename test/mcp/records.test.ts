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

test("MCP search and get: a team record with status, date and authors, once with the local memory it stands for; get of either shows both sources", async () => {
  const repo = join(tmp, "team");
  mkdirSync(join(repo, "docs", "decisions"), { recursive: true });
  execFileSync("git", ["init", "-q", repo]);
  const home = join(tmp, "home-team");
  const env = { ...cleanEnv(join(tmp, "claude-team")), HOME: tmp, MEM_HOME: home };
  const put = await runMem(["remember", "--kind", "decision", "Shard the invoices table by tenant id"], { env, cwd: repo });
  assert.equal(put.code, 0, show(put));
  const local = put.stdout.trim().split(/\s+/)[0]!;
  writeFileSync(join(repo, "docs", "decisions", "shard-invoices.md"), "---\nstatus: accepted\ndate: 2026-11-28\ndecision-makers: Ada Lovelace\n---\n# Invoices sharding\n\nShard the invoices table by tenant id.\n");
  const idx = await runMem(["index", "docs"], { env, cwd: repo });
  assert.equal(idx.code, 0, show(idx));
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], env: serverEnv(tmp, home, repo), cwd: repo, stderr: "pipe" });
  const client = new Client({ name: "mem-team-test", version: "1" });
  await client.connect(transport);
  type Res = { content: { text: string }[]; structuredContent?: { results?: { id: string; record?: { status?: string; date?: string; authors: string[]; team: boolean }; alsoLocal?: string[] }[]; memory?: { team?: { id: string; path: string; record: { status?: string } }; alsoLocal?: string[] } } };
  try {
    const found = (await client.callTool({ name: "search", arguments: { query: "shard invoices tenant" } })) as Res;
    const text = found.content.map((c) => c.text).join("\n");
    assert.match(text, /team record: accepted, 2026-11-28, by Ada Lovelace; also local: /);
    assert.equal(text.split("\n").filter((l) => /Shard the invoices table by tenant id/.test(l)).length, 1, `shown once:\n${text}`);
    const results = found.structuredContent!.results!;
    const record = results.find((r) => r.record !== undefined)!;
    assert.deepEqual(record.record, { kind: "decision", status: "accepted", date: "2026-11-28", authors: ["Ada Lovelace"], title: "Invoices sharding", team: true });
    assert.deepEqual(record.alsoLocal, [local]);
    assert.ok(!results.some((r) => r.id === local), "the local memory is not a result beside its record");
    const getLocal = (await client.callTool({ name: "get", arguments: { id: local } })) as Res;
    assert.match(getLocal.content.map((c) => c.text).join("\n"), new RegExp(`also a team record: ${record.id} docs/decisions/shard-invoices\\.md \\(accepted, 2026-11-28, by Ada Lovelace\\)`));
    const team = (await client.callTool({ name: "list", arguments: { team: true } })) as unknown as { content: { text: string }[]; structuredContent: { total: number } };
    assert.equal(team.structuredContent.total, 1);
    assert.match(team.content.map((c) => c.text).join("\n"), /Invoices sharding.*team record: accepted, 2026-11-28, by Ada Lovelace; also local: /);
    const getRecord = (await client.callTool({ name: "get", arguments: { id: record.id } })) as Res;
    assert.match(getRecord.content.map((c) => c.text).join("\n"), new RegExp(`team record: accepted, 2026-11-28, by Ada Lovelace; also local: ${local}`));
  } finally {
    await client.close();
  }
});
