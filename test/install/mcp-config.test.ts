/**
 * The pure merge of mem's MCP server entry, and the prompt hook as an mcp_tool call: only
 * `mcpServers.mem` is touched, and only when it runs mem; key order and everything else kept.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { MEM_HOOKS, PROMPT_TOOL_TIMEOUT, pluginHooksFile, type HookTarget } from "../../src/install/hooks.js";
import { installMcp, isMemMcpEntry, mcpServerEntry, uninstallMcp } from "../../src/install/mcp-config.js";
import { findMemHooks, installHooks, uninstallHooks } from "../../src/install/settings.js";
import type { JsonObject } from "../../src/install/settings-json.js";

const TARGET = { node: "/usr/local/bin/node", bin: "/home/ann/src/mem/bin/mem.cjs" };
const ENTRY = mcpServerEntry(TARGET);

describe("mem's MCP server entry", () => {
  test("is what `claude mcp add --scope user mem -- <node> <bin> mcp` writes, and recognised as ours; others are not", () => {
    assert.deepEqual(ENTRY, { type: "stdio", command: TARGET.node, args: [TARGET.bin, "mcp"], env: {} });
    assert.equal(isMemMcpEntry(ENTRY), true);
    assert.equal(isMemMcpEntry({ command: "mem", args: ["mcp"] }), true, "the mem command on PATH");
    assert.equal(isMemMcpEntry({ command: "node", args: ["${CLAUDE_PLUGIN_ROOT}/bin/mem.cjs", "mcp"] }), true, "the plugin's");
    for (const other of [{ command: "npx", args: ["-y", "@acme/memory-server"] }, { command: TARGET.node, args: [TARGET.bin, "hook", "stop"] }, { type: "http", url: "http://localhost:1/mcp" }, "mem", null]) {
      assert.equal(isMemMcpEntry(other), false, JSON.stringify(other));
    }
  });

  test("user scope: appended after the other servers, idempotent, rewritten in place from another checkout; uninstall gives back exactly the input", () => {
    const before: JsonObject = { numStartups: 3, mcpServers: { github: { type: "http", url: "https://api.githubcopilot.com/mcp/" } }, projects: {} };
    const r = installMcp(before, ["mcpServers"], ENTRY);
    assert.equal(r.status, "registered");
    assert.deepEqual(Object.keys(r.config.mcpServers as JsonObject), ["github", "mem"]);
    assert.deepEqual(Object.keys(r.config), ["numStartups", "mcpServers", "projects"], "key order kept");
    assert.deepEqual(before.mcpServers, { github: { type: "http", url: "https://api.githubcopilot.com/mcp/" } }, "the input is not modified");
    const again = installMcp(r.config, ["mcpServers"], ENTRY);
    assert.deepEqual([again.changed, again.status], [false, "already-registered"]);
    const moved = installMcp(r.config, ["mcpServers"], mcpServerEntry({ ...TARGET, bin: "/opt/mem/bin/mem.cjs" }));
    assert.deepEqual([moved.changed, moved.status, (moved.config.mcpServers as JsonObject).mem], [true, "updated", { type: "stdio", command: TARGET.node, args: ["/opt/mem/bin/mem.cjs", "mcp"], env: {} }]);
    const out = uninstallMcp(moved.config, ["mcpServers"]);
    assert.deepEqual([out.changed, out.status], [true, "removed"]);
    assert.equal(JSON.stringify(out.config), JSON.stringify(before));
    assert.deepEqual(uninstallMcp(out.config, ["mcpServers"]).status, "not-registered");
  });

  test("local scope: projects.<root>.mcpServers created when missing, and removed with what it leaves empty", () => {
    const path = ["projects", "/home/ann/app", "mcpServers"];
    const before: JsonObject = { projects: { "/home/ann/other": { allowedTools: [] } } };
    const r = installMcp(before, path, ENTRY);
    assert.deepEqual((r.config.projects as JsonObject)["/home/ann/app"], { mcpServers: { mem: ENTRY } });
    assert.equal(JSON.stringify(uninstallMcp(r.config, path).config), JSON.stringify(before));
    // A project entry Claude Code filled in keeps everything else.
    const filled: JsonObject = { projects: { "/home/ann/app": { allowedTools: [], hasTrustDialogAccepted: true } } };
    const f = installMcp(filled, path, ENTRY);
    assert.deepEqual(Object.keys((f.config.projects as JsonObject)["/home/ann/app"] as JsonObject), ["allowedTools", "hasTrustDialogAccepted", "mcpServers"]);
    assert.equal(JSON.stringify(uninstallMcp(f.config, path).config), JSON.stringify(filled));
  });

  test("a server of someone else's named mem is never overwritten nor removed", () => {
    const theirs: JsonObject = { mcpServers: { mem: { command: "python", args: ["-m", "other_memory"] } } };
    const i = installMcp(theirs, ["mcpServers"], ENTRY);
    assert.deepEqual([i.changed, i.status], [false, "conflict"]);
    assert.deepEqual(i.config, theirs);
    const u = uninstallMcp(theirs, ["mcpServers"]);
    assert.deepEqual([u.changed, u.status], [false, "not-ours"]);
  });
});

describe("the prompt hook over MCP", () => {
  const base: HookTarget = { node: TARGET.node, bin: TARGET.bin };
  const viaMcp: HookTarget = { ...base, promptServer: "mem" };

  test("an mcp_tool handler for UserPromptSubmit with ${prompt}, ${cwd} and ${session_id}; every other event a command", () => {
    const r = installHooks({}, viaMcp);
    const hooks = r.settings.hooks as Record<string, { hooks: JsonObject[] }[]>;
    assert.deepEqual(hooks.UserPromptSubmit, [{ hooks: [{ _managed_by: "mem", type: "mcp_tool", server: "mem", tool: "prompt_context", input: { prompt: "${prompt}", cwd: "${cwd}", session_id: "${session_id}" }, timeout: PROMPT_TOOL_TIMEOUT }] }]);
    for (const h of MEM_HOOKS.filter((x) => x.event !== "UserPromptSubmit")) assert.equal(hooks[h.event]![0]!.hooks[0]!.type, "command", h.event);
    assert.deepEqual(findMemHooks(r.settings).map((f) => f.name), MEM_HOOKS.map((h) => h.name), "recognised as ours");
    assert.equal(uninstallHooks(r.settings).settings.hooks, undefined, "uninstall removes it with the rest");
  });

  test("switching transports rewrites the prompt handler in place; the same transport again changes nothing", () => {
    const command = installHooks({}, base).settings;
    const mcp = installHooks(command, viaMcp);
    assert.deepEqual([mcp.changed, mcp.status, mcp.updated], [true, "updated", ["UserPromptSubmit"]]);
    assert.equal(installHooks(mcp.settings, viaMcp).changed, false);
    const back = installHooks(mcp.settings, base);
    assert.equal(JSON.stringify(back.settings), JSON.stringify(command));
  });

  test("another server's mcp_tool hook is not ours; the plugin's server name is", () => {
    const other = { hooks: { UserPromptSubmit: [{ hooks: [{ type: "mcp_tool", server: "memory", tool: "prompt_context" }, { type: "mcp_tool", server: "mem", tool: "search" }] }] } };
    assert.deepEqual(findMemHooks(other), []);
    assert.deepEqual(uninstallHooks(other).changed, false);
    assert.equal(findMemHooks({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "mcp_tool", server: "plugin:mem:mem", tool: "prompt_context" }] }] } }).length, 1);
    // The plugin's own hooks file keeps the command transport.
    assert.equal(pluginHooksFile().hooks.UserPromptSubmit![0]!.hooks[0]!.type, "command");
  });
});
