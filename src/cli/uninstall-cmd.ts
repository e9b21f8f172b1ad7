import { runInstallCommand, scopeHelp } from "./install-run.js";
import { forHelp } from "./install-assistants.js";
import type { Command } from "./command.js";

const usage = `Usage: mem uninstall [--for A[,B…]] [--scope user|project|local] [--no-mcp] [--dry-run] [--json]

Removes mem's hooks (any \`…/bin/mem.cjs hook <event>\` or \`mem hook <event>\` handler, and the
prompt's mcp_tool hook) from a settings file, with the matcher groups and events that leaves
empty, and mem's MCP server ("mcpServers"."mem" when it runs mem) from the scope's
~/.claude.json entry or .mcp.json (a .mcp.json that held nothing else is deleted).
Everything else is kept; each old file is backed up to <file>.bak-<time> first.

Options:
${forHelp("uninstall")}
${scopeHelp()}
  --no-mcp      leave the MCP server registered (hooks only)
  --dry-run     print the diffs; write nothing
  --json        {"scope", "file", "changed", "backup", "events": [...], "status", "dryRun", "warnings",
                "mcp": {"file", "changed", "backup", "status"} | null}
  -h, --help    this help`;

export const uninstallCommand: Command = {
  summary: "remove mem's hooks and MCP server from Claude Code",
  usage,
  run: (argv) => runInstallCommand("uninstall", argv),
};
