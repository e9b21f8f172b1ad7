import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../../src/config/config.js";
import { MEM_HOOKS, pluginHooksFile, pluginHooksText } from "../../src/install/hooks.js";
import { findMemHooks } from "../../src/install/settings.js";
import { isMemMcpEntry } from "../../src/install/mcp-config.js";

test("hooks/hooks.json is exactly what the hook table generates (regenerate it when the table changes)", () => {
  const text = readFileSync(join(PACKAGE_ROOT, "hooks", "hooks.json"), "utf8");
  assert.deepEqual(JSON.parse(text), pluginHooksFile());
  assert.equal(text, pluginHooksText());
});

test("plugin hooks: exec form with ${CLAUDE_PLUGIN_ROOT}/bin/mem.cjs, one per event, recognised as ours", () => {
  const file = pluginHooksFile();
  assert.deepEqual(Object.keys(file.hooks), MEM_HOOKS.map((h) => h.event));
  for (const h of MEM_HOOKS) {
    const groups = file.hooks[h.event]!;
    assert.equal(groups.length, 1);
    assert.equal(groups[0]!.matcher, h.matcher);
    assert.deepEqual(groups[0]!.hooks, [{ type: "command", command: "node", args: ["${CLAUDE_PLUGIN_ROOT}/bin/mem.cjs", "hook", h.name], ...(h.async ? { async: true } : {}), timeout: h.timeout }]);
  }
  // a plugin copy pasted into a settings file by hand would still be found (and replaced) by `mem install`
  assert.equal(findMemHooks(file).length, MEM_HOOKS.length);
});

test(".claude-plugin/plugin.json: name mem, version from package.json, no hooks pointer (hooks/hooks.json is auto-loaded)", () => {
  const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, ".claude-plugin", "plugin.json"), "utf8")) as Record<string, unknown>;
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string };
  assert.equal(manifest.name, "mem");
  assert.equal(manifest.version, pkg.version);
  assert.equal(typeof manifest.description, "string");
  assert.equal("hooks" in manifest, false, 'a "hooks" entry for ./hooks/hooks.json would be a duplicate (HOOKS.md §1.4)');
  assert.ok(existsSync(join(PACKAGE_ROOT, "bin", "mem.cjs")), "the file the plugin hooks run");
});

test(".claude-plugin/plugin.json bundles the MCP server: node ${CLAUDE_PLUGIN_ROOT}/bin/mem.cjs mcp, named mem (tools mcp__plugin_mem_mem__*)", () => {
  const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, ".claude-plugin", "plugin.json"), "utf8")) as { mcpServers?: Record<string, unknown> };
  assert.deepEqual(manifest.mcpServers, { mem: { command: "node", args: ["${CLAUDE_PLUGIN_ROOT}/bin/mem.cjs", "mcp"] } });
  assert.equal(isMemMcpEntry(manifest.mcpServers!.mem), true);
  // Inline, not a .mcp.json at the repository root: that file would also be this repository's own project-scope config.
  assert.equal(existsSync(join(PACKAGE_ROOT, ".mcp.json")), false);
});
