/**
 * `mem doctor` on the MCP server: registered in a scope (as this checkout registers it), runnable,
 * and answering initialize and tools/list when started (a real `mem mcp` child each time).
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { hookChecks, promptViaMcp } from "../../src/health/hooks.js";
import { MCP_TOOLS, mcpChecks } from "../../src/cli/doctor-mcp.js";
import { currentTarget } from "../../src/install/target.js";
import { installToFile, type Where } from "../../src/install/files.js";
import { applyMcp } from "../../src/install/mcp-files.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-doctor-mcp-")));
/** Whether it answers, not how fast: the suite runs tests side by side on a loaded machine. */
const ROOMY = 20_000;
after(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;

function where(): Where & { home: string; repo: string } {
  const dir = join(tmp, `w${n++}`);
  const home = join(dir, "home");
  const repo = join(dir, "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(home, { recursive: true });
  return { env: { PATH: process.env.PATH ?? "", HOME: home, MEM_HOME: join(dir, "mem-home"), MEM_EMBED_ORDER: "none" }, cwd: repo, home, repo };
}
const target = (w: Where) => {
  const t = currentTarget(w.env, "linux");
  return { node: t.node, bin: t.bin };
};

test("doctor on MCP: not registered is a warning; the server still answers initialize and tools/list with every tool", async () => {
  const w = where();
  const checks = await mcpChecks(w, { budgetMs: ROOMY });
  assert.deepEqual(checks.map((c) => [c.name, c.status]), [["mcp", "warn"], ["mcp server", "ok"]], JSON.stringify(checks));
  assert.match(checks[0]!.fix!, /mem install/);
  assert.match(checks[1]!.detail, new RegExp(`answered initialize and tools/list in \\d+ ms \\(${MCP_TOOLS.length} tools\\)`));
});

test("doctor on MCP: registered by this checkout is ok; a mem that is gone is an error, and the server Claude Code would start (project over user) fails", async () => {
  const w = where();
  applyMcp({ action: "install", scope: "user", where: w, target: target(w) });
  assert.deepEqual((await mcpChecks(w, { budgetMs: ROOMY })).map((c) => [c.name, c.status]), [["mcp (user)", "ok"], ["mcp server", "ok"]]);
  applyMcp({ action: "install", scope: "project", where: w, target: { ...target(w), bin: join(tmp, "gone", "bin", "mem.cjs") } });
  const checks = await mcpChecks(w, { budgetMs: ROOMY });
  assert.deepEqual(checks.map((c) => [c.name, c.status]), [["mcp (project)", "error"], ["mcp (user)", "ok"], ["mcp server", "error"]], JSON.stringify(checks));
  assert.match(checks[0]!.detail, /gone[\\/]bin[\\/]mem\.cjs, which is not there/);
  assert.equal(checks[0]!.fix, "`mem install --scope project` with the mem to use (a checkout or an npm install)");
  assert.match(checks[2]!.detail, /gone[\\/]bin[\\/]mem\.cjs mcp`: .*Cannot find module/);
});

test("doctor on MCP: registered from another checkout (or node) is a warning to reinstall", async () => {
  const w = where();
  mkdirSync(join(tmp, "copy", "bin"), { recursive: true });
  writeFileSync(join(tmp, "copy", "bin", "mem.cjs"), "");
  applyMcp({ action: "install", scope: "local", where: w, target: { ...target(w), bin: join(tmp, "copy", "bin", "mem.cjs") } });
  const [local] = await mcpChecks(w, { budgetMs: 1_500 });
  assert.deepEqual([local!.name, local!.status, local!.fix], ["mcp (local)", "warn", "`mem install --scope local`"]);
  assert.match(local!.detail, /another node or copy of mem/);
});

test("doctor on MCP: a server that does not answer in time is a warning naming why", async () => {
  const w = where();
  const script = join(tmp, "silent.mjs");
  writeFileSync(script, "process.stderr.write('booting slowly\\n'); setTimeout(() => {}, 60_000);\n");
  // Registered by hand as if it were mem (its args end in bin/mem.cjs mcp): a stand-in that never answers.
  mkdirSync(join(tmp, "fake", "bin"), { recursive: true });
  writeFileSync(join(tmp, "fake", "bin", "mem.cjs"), "setTimeout(() => {}, 60_000);\n");
  applyMcp({ action: "install", scope: "user", where: w, target: { node: process.execPath, bin: join(tmp, "fake", "bin", "mem.cjs") } });
  const t0 = Date.now();
  const checks = await mcpChecks(w, { budgetMs: 800 });
  assert.ok(Date.now() - t0 < 20_000, "bounded by the budget, not by the silent server's 60 s");
  const server = checks.find((c) => c.name === "mcp server")!;
  assert.equal(server.status, "warn", "late is not broken: a loaded machine");
  assert.match(server.detail, /no answer within 800 ms/);
});

test("doctor on MCP: the prompt hook over MCP with no server registered is an error; the hooks check accepts that transport", async () => {
  const w = where();
  installToFile({ scope: "user", where: w, target: { ...currentTarget(w.env, "linux"), promptServer: "mem" } });
  assert.equal(promptViaMcp(w), true);
  assert.deepEqual(hookChecks(w, "linux").map((c) => [c.name, c.status]).slice(0, 1), [["hooks (user)", "ok"]]);
  const [none] = await mcpChecks(w, { promptHook: true });
  assert.equal(none!.status, "error");
  assert.match(none!.detail, /prompts get no memories/);
  applyMcp({ action: "install", scope: "user", where: w, target: target(w) });
  assert.deepEqual((await mcpChecks(w, { promptHook: true, budgetMs: ROOMY })).map((c) => c.status), ["ok", "ok"]);
});
