import { runInstallCommand, scopeHelp } from "../install/cli.js";
import type { Command } from "./main.js";

const usage = `Usage: mem install [--scope user|project|local] [--dry-run] [--json]

Registers mem's Claude Code hooks (SessionStart, UserPromptSubmit, PostToolUse,
PostToolUseFailure, Stop, SubagentStop, PreCompact, SessionEnd) in a settings file.
Each runs \`<node> <this checkout>/bin/mem.cjs hook <event>\` with absolute paths (through
\`/bin/sh bin/mem-hook.sh\` where NODE_EXTRA_CA_CERTS is set, which Node would load at every start).
Other hooks and settings are kept; the old file is backed up to <file>.bak-<time>
and the new one written atomically. Running it again changes nothing; running it
from a moved checkout rewrites the paths in place. Refuses (exit 1, file untouched)
when the file is not valid JSON or its "hooks" is not an object.

Options:
${scopeHelp()}
  --dry-run     print the diff; write nothing
  --json        {"scope", "file", "changed", "backup", "events": [...], "status", "dryRun", "warnings"}
  -h, --help    this help

Alternatively install mem as a Claude Code plugin (.claude-plugin/, hooks/hooks.json);
do not use both, or every hook runs twice.`;

export const installCommand: Command = {
  summary: "register mem's hooks in Claude Code settings",
  usage,
  run: (argv) => runInstallCommand("install", argv),
};
