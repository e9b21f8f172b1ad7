/**
 * The MCP search with no daemon watching, through the official SDK client over stdio (a real
 * `mem mcp`): a note changed since it was indexed is re-indexed in the background, the search
 * says so in its text and its structured warnings, and a later search finds the change.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BIN, cleanEnv, runMem } from "../helpers/mem-cli.js";
import { serverEnv } from "../helpers/mcp-env.js";
import { until } from "../helpers/until.js";
import { refreshBusy } from "../../src/freshness/refresh.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-mcp-fresh-")));
const proj = join(tmp, "proj");
const home = join(tmp, "home");
// The search started `mem index --stale` in the background: the home is removed once it has ended.
after(async () => {
  await until(() => refreshBusy(home, Date.now()) !== "running", 30_000, "the background re-index's end");
  rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

type Result = { content: { type: string; text: string }[]; structuredContent?: { warnings: string[]; results: { path: string }[] }; isError?: boolean };

describe("mem mcp: search when notes changed and no daemon watches", () => {
  let client: Client;
  const call = async (query: string) => (await client.callTool({ name: "search", arguments: { query } })) as Result;
  before(async () => {
    mkdirSync(join(proj, ".git"), { recursive: true });
    mkdirSync(join(proj, "memory"), { recursive: true });
    writeFileSync(join(proj, "memory", "pets.md"), "# Pets\n\nThe office cat is called Biscuit.\n");
    // Written a minute ago: a file changed within the last moments before its index counts as changed.
    const t = new Date(Date.now() - 60_000);
    utimesSync(join(proj, "memory", "pets.md"), t, t);
    utimesSync(join(proj, "memory"), t, t);
    assert.equal((await runMem(["index", join(proj, "memory"), "-q"], { env: { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp, MEM_EMBED_ORDER: "none" } })).code, 0);
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], env: { ...serverEnv(tmp, home, proj), MEM_WATCH: "1" }, cwd: tmp, stderr: "pipe" });
    client = new Client({ name: "mem-test", version: "1" });
    await client.connect(transport);
  });
  after(() => client?.close());

  test("the search says the notes are being re-indexed, and a later one finds the change", async () => {
    const first = await call("office cat Biscuit");
    assert.equal(first.isError, undefined);
    assert.ok(!first.structuredContent!.warnings.some((w) => /changed since last indexed/.test(w)), "nothing changed: no such warning");

    writeFileSync(join(proj, "memory", "pets.md"), "# Pets\n\nThe office cat is called Biscuit. The office wombat is called Pebble.\n");
    const r = await call("office wombat Pebble");
    assert.equal(r.isError, undefined);
    assert.match(r.structuredContent!.warnings[0] ?? "", /memory changed since last indexed; re-indexing in the background, so these results may not show the change yet$/);
    assert.match(r.content.map((c) => c.text).join("\n"), /\(.*changed since last indexed; re-indexing in the background/);

    let found = false;
    for (let i = 0; i < 100 && !found; i++) {
      await new Promise((res) => setTimeout(res, 200));
      const again = await call("office wombat Pebble");
      found = again.content.some((c) => c.text.includes("Pebble"));
    }
    assert.ok(found, "the background re-index made the change searchable");
  });
});
