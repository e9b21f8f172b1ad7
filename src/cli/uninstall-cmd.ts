import { runInstallCommand, scopeHelp } from "./install-run.js";
import { forHelp } from "./install-assistants.js";
import { REMOVE_ALL_HELP, runRemoveAll } from "./remove-all.js";
import type { Command } from "./command.js";

const usage = `Usage: mem uninstall [--for A[,B…]] [--scope user|project|local] [--no-mcp] [--dry-run] [--json]
       mem uninstall --all [--data] [--dry-run | --yes] [--json]

Removes mem's hooks (any \`…/bin/mem.cjs hook <event>\` or \`mem hook <event>\` handler, and the
prompt's mcp_tool hook) from a settings file, with the matcher groups and events that leaves
empty, and mem's MCP server ("mcpServers"."mem" when it runs mem) from the scope's
~/.claude.json entry or .mcp.json: a file install created that now holds nothing else is
deleted, one that was there before goes back as it was (the empty objects it had stay).
Everything else is kept. Each old file is backed up first, never beside it but into the data
home ($MEM_HOME, else ~/.local/share/mem on Linux):
<data home>/backups/install/<folder>-<hash>/<file>.bak-<time>.

Options:
${forHelp("uninstall")}
${scopeHelp()}
  --no-mcp      leave the MCP server registered (hooks only)
  --dry-run     print the diffs; write nothing
  --json        {"scope", "file", "changed", "backup", "events": [...], "status", "dryRun", "warnings",
                "mcp": {"file", "changed", "backup", "status"} | null}
${REMOVE_ALL_HELP}
  -h, --help    this help

Every step of removing mem, and what is left by hand: docs/install.md, "Remove mem".`;

export const uninstallCommand: Command = {
  summary: "remove mem's hooks and MCP server from Claude Code",
  usage,
  run: (argv) => (argv.includes("--all") ? runRemoveAll(argv) : runInstallCommand("uninstall", argv)),
};
