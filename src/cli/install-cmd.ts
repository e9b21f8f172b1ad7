import { runInstallCommand, scopeHelp } from "./install-run.js";
import { forHelp } from "./install-assistants.js";
import type { Command } from "./command.js";

const usage = `Usage: mem install [--for A[,B…]] [--scope user|project|local] [--prompt-transport command|mcp]
                   [--no-mcp] [--dry-run] [--json]

Registers mem's Claude Code hooks (SessionStart, UserPromptSubmit, PostToolUse,
PostToolUseFailure, Stop, SubagentStop, PreCompact, SessionEnd) in a settings file, and mem's
MCP server (\`mem mcp\`: tools to search, remember, get, list, forget and the project's tasks)
in the same scope: user ~/.claude.json "mcpServers", local ~/.claude.json "projects"
→ <project root> → "mcpServers", project <project root>/.mcp.json.
Each hook runs \`<node> <mem's directory>/bin/mem.cjs hook <event>\` with absolute paths. The hot
ones (UserPromptSubmit, PostToolUse(Failure), Stop, SubagentStop) go through \`/bin/sh
bin/mem-hook.sh\` first, which asks a warm daemon with curl without starting Node, and runs the
Node hook whenever it cannot (MEM_HOOK_CLIENT=node: always). Every hook goes through that script
where NODE_EXTRA_CA_CERTS is set, which Node would load at every start. Not on Windows.
Other hooks, servers and settings are kept. Each old file is backed up first, never beside it
but into the data home ($MEM_HOME, else ~/.local/share/mem on Linux):
<data home>/backups/install/<folder>-<hash>/<file>.bak-<time>; the new one is written atomically. Running it again changes nothing; running it
from a moved or reinstalled mem rewrites the paths in place. Refuses (exit 1, files untouched)
when a file is not valid JSON, its "hooks" is not an object, or it is read-only (no u+w).

Options:
${forHelp("install")}
${scopeHelp()}
  --prompt-transport T   command (default): UserPromptSubmit runs \`mem hook user-prompt-submit\`;
                mcp: an mcp_tool hook calls the MCP server's prompt_context tool instead (no
                process per prompt; while the server is not connected Claude Code says
                "MCP server 'mem' not connected" and the prompt goes on without memories)
  --no-mcp      leave the MCP server out (hooks only)
  --dry-run     print the diffs; write nothing
  --json        {"scope", "file", "changed", "backup", "events": [...], "status", "dryRun", "warnings",
                "mcp": {"file", "changed", "backup", "status"} | null, "promptTransport"}
  -h, --help    this help

Alternatively install mem as a Claude Code plugin (.claude-plugin/, hooks/hooks.json; the
plugin brings the MCP server too); do not use both, or every hook runs twice.`;

export const installCommand: Command = {
  summary: "register mem's hooks and MCP server in Claude Code",
  usage,
  run: (argv) => runInstallCommand("install", argv),
};
